import CProcessor
import CallDirectoryFormat

// The searches of the index levels: the top's summary to a group of the top's samples, the top's
// samples to a group of records, then the records to the one block that can hold a number. Over
// a damaged index they give some block or none, never a trap or a hang; the reader checks the
// index's CRC before the first lookup, or, with group checks, the group of records of the block
// found before it answers from it. So a search that went through a top (checked whole) answers
// `nil` only from the top's checked samples, never from a group's unchecked records.

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
    var (samples, comparingFirst) = (0..<topIndex.count, true)
    if summary.stride > 0 {
      let summaryIndex = TopIndex(stride: summary.stride, samples: summary.samples)
      guard let part = summaryIndex.group(containing: number, in: 0..<summaryIndex.count, blockCount: topIndex.count)
      else { return nil }
      // The part's first sample is the summary's, at most `number`: it is not compared again, for
      // the part may not have been checked yet, as a group of records may not (below).
      (samples, comparingFirst) = (part, false)
    }
    guard
      let group = topIndex.group(containing: number, in: samples, blockCount: blockCount, comparingFirst: comparingFirst)
    else { return nil }
    // The group's first record is its sample, at most `number`, in a valid file: it is not
    // compared again. The group's records may not have been checked yet (`Spec/FORMAT.md` 5.4):
    // a damaged group gives a block of the group, whose check then fails, never `nil`, which a
    // lookup would answer from.
    return unsafe records.uncheckedLastKey(
      atMost: number, in: group, stride: FormatConstants.entryIndexRecordSize, prefetching: true)  // group < blockCount
  }

  /// `block(containing:in:)` over `records`.
  @inlinable @inline(__always)
  package static func block(containing number: UInt64, in blocks: Range<Int>, records: ByteView) -> Int? {
    guard !blocks.isEmpty, firstNumber(ofBlock: blocks.lowerBound, records: records) <= number else { return nil }
    // `blocks` lies inside `records` (the precondition); a group of records may not be in cache.
    return unsafe records.uncheckedLastKey(
      atMost: number, in: blocks, stride: FormatConstants.entryIndexRecordSize, prefetching: true)
  }
}

extension TopIndex {
  /// The records `lowerBound ..< upperBound` to search for `number`: the last group among
  /// `groups` whose sample is at most `number`, or `nil` when `number` is below every sample of
  /// them. Precondition: `groups` lies within `0 ..< count`, and `count` is
  /// `ceil(blockCount / stride)` (the parser's rule).
  /// - Complexity: O(log groups.count).
  ///
  /// With `comparingFirst` false, the first group of `groups` stands for numbers below its
  /// sample too (a caller that knows its sample is at most `number`, from the level above), so
  /// that the answer is a group whenever `groups` is not empty.
  @inlinable @inline(__always)
  package func group(containing number: UInt64, in groups: Range<Int>, blockCount: Int, comparingFirst: Bool = true)
    -> Range<Int>?
  {
    guard !groups.isEmpty, !comparingFirst || sample(groups.lowerBound) <= number else { return nil }
    let group = unsafe samples.uncheckedLastKey(atMost: number, in: groups, stride: 8, prefetching: false)  // groups < count
    // count = ceil(blockCount / stride), so the group's first record is below blockCount.
    let start = group &* stride
    return start..<min(start &+ stride, blockCount)
  }
}
