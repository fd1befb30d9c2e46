import CProcessor
import CallDirectoryFormat

// The searches of the index levels: the top's summary to a group of the top's samples, the top's
// samples to a group of records, then the records to the one block that can hold a number. Over
// a damaged index they give some block or none, never a trap or a hang; the reader checks the
// index's CRC before the first lookup.

extension EntryIndex {
  /// The last block whose first number is at most `number`, or `nil` when `number` is below the
  /// first block's first number.
  ///
  /// A damaged index that is not ascending gives some block or `nil`, never a trap or a hang.
  /// - Complexity: O(log blockCount).
  @inlinable @inline(__always)
  package func block(containing number: UInt64) -> Int? {
    Self.block(
      containing: number, records: records, blockCount: blockCount, top: (topStride, topSamples),
      summary: (summaryStride, summarySamples))
  }

  /// The last block of `blocks` whose first number is at most `number`.
  /// Precondition: `blocks` lies within `0 ..< blockCount`.
  @inlinable @inline(__always)
  package func block(containing number: UInt64, in blocks: Range<Int>) -> Int? {
    Self.block(containing: number, in: blocks, records: records)
  }

  /// `block(containing:)` over the parts of an index: its `records` (`blockCount` of them), its
  /// top level's stride and samples and the top's summary's (a stride of 0 for a level the index
  /// does not have; a summary only with a top). A lookup calls it with the parts of the reader's
  /// shape, read in place, where a view of the index would be made and unmade on every lookup.
  /// - Complexity: O(log blockCount).
  @inlinable @inline(__always)
  package static func block(
    containing number: UInt64, records: ByteView, blockCount: Int, top: (stride: Int, samples: ByteView),
    summary: (stride: Int, samples: ByteView)
  ) -> Int? {
    // Each level's samples are the first numbers of the next level's groups: the block is in the
    // group whose sample is the last at or below `number` (a damaged level gives some block or
    // none, as a damaged index does).
    guard top.stride > 0 else { return block(containing: number, in: 0..<blockCount, records: records) }
    let topIndex = TopIndex(stride: top.stride, samples: top.samples)
    var samples = 0..<topIndex.count
    if summary.stride > 0 {
      let summaryIndex = TopIndex(stride: summary.stride, samples: summary.samples)
      guard let part = summaryIndex.group(containing: number, in: 0..<summaryIndex.count, blockCount: topIndex.count)
      else { return nil }
      samples = part
    }
    guard let group = topIndex.group(containing: number, in: samples, blockCount: blockCount) else { return nil }
    return block(containing: number, in: group, records: records)
  }

  /// `block(containing:in:)` over `records`.
  @inlinable @inline(__always)
  package static func block(containing number: UInt64, in blocks: Range<Int>, records: ByteView) -> Int? {
    // Halving a fixed number of times (log2 of the range), each step adding half or nothing: no
    // exit and no branch that depends on the data (`calldir_mask_at_most` says why a mask; the
    // numbers are below 2^63, and a damaged index gives some block).
    var base = blocks.lowerBound  // invariant: the answer is in base ..< base + length, or none
    var length = blocks.count
    guard length > 0, firstNumber(ofBlock: base, records: records) <= number else { return nil }
    // Without a branch the processor cannot run ahead of a probe, so in a group that is not in
    // cache each step would wait for the one before: while the range spans more than two lines,
    // ask for the lines of both next probes (one of them is the next step's).
    let record = FormatConstants.entryIndexRecordSize
    while length > 8 {
      let half = length >> 1
      let quarter = (length &- half) >> 1
      records.prefetchLine(inside: (base &+ quarter) &* record)
      records.prefetchLine(inside: (base &+ half &+ quarter) &* record)
      base &+= half & Int(calldir_mask_at_most(firstNumber(ofBlock: base &+ half, records: records), number))
      length &-= half
    }
    while length > 1 {
      let half = length >> 1
      base &+= half & Int(calldir_mask_at_most(firstNumber(ofBlock: base &+ half, records: records), number))
      length &-= half
    }
    return base
  }
}

extension TopIndex {
  /// The records `lowerBound ..< upperBound` to search for `number`: the last group among
  /// `groups` whose sample is at most `number`, or `nil` when `number` is below every sample of
  /// them. Precondition: `groups` lies within `0 ..< count`, and `count` is
  /// `ceil(blockCount / stride)` (the parser's rule).
  /// - Complexity: O(log groups.count).
  @inlinable @inline(__always)
  package func group(containing number: UInt64, in groups: Range<Int>, blockCount: Int) -> Range<Int>? {
    // Halving a fixed number of times, as in `EntryIndex.block(containing:in:)`.
    var group = groups.lowerBound  // invariant: the group is in group ..< group + length, or none
    var length = groups.count
    guard length > 0, sample(group) <= number else { return nil }
    while length > 1 {
      let half = length >> 1
      group &+= half & Int(calldir_mask_at_most(sample(group &+ half), number))
      length &-= half
    }
    // count = ceil(blockCount / stride), so the group's first record is below blockCount.
    let start = group &* stride
    return start..<min(start &+ stride, blockCount)
  }
}
