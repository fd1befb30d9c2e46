import CProcessor

// The searches of the index levels: the top's summary to a group of the top's samples, the top's
// samples to a group of records, then the records to the one block that can hold a number. One
// search serves every caller: CProcessor's `calldir_entry_block`, which a warm lookup runs inside
// `calldir_entry_find`. Over a damaged index it gives some block or none, never a trap or a hang;
// the reader checks the index before it answers from a block (its CRC, or with group checks the
// block's group of records), and a search through a top never answers `nil` from a group's
// unchecked records.

extension EntryIndex {
  /// The last block whose first number is at most `number`, or `nil` when `number` is below the
  /// first block's first number.
  ///
  /// A damaged index that is not ascending gives some block or `nil`, never a trap or a hang.
  /// - Complexity: O(log blockCount).
  package func block(containing number: UInt64) -> Int? {
    // The view's parts are the index's own, which its parser checked: each level's count is its
    // samples' length over 8, and a count is 0 where a part is empty. No data: only the levels
    // are read.
    // With a checked top, its groups are searched: the bytes the reader checks a group at a time.
    let checked = checkedTop.count > 0
    var plan = unsafe calldir_entry_plan(
      records: records.base?.assumingMemoryBound(to: UInt8.self), block_count: Int64(blockCount),
      top: (checked ? checkedTop : topSamples).base?.assumingMemoryBound(to: UInt8.self), top_stride: Int64(topStride),
      top_count: Int64(topSamples.count / 8), summary: summarySamples.base?.assumingMemoryBound(to: UInt8.self),
      summary_stride: Int64(summaryStride), summary_count: Int64(summarySamples.count / 8),
      top_gap: checked ? Int64(CheckedTop.gap(stride: summaryStride)) : 0, data: nil,
      data_length: 0, entries_per_block: 0, entry_count: 0, counted_blocks: 0, labelled: 0, passed: nil,
      passed_count: 0, offset_mask: 0, find: nil)
    let block = unsafe calldir_entry_block(&plan, number)
    return block < 0 ? nil : Int(truncatingIfNeeded: block)
  }

  /// The last block of `blocks` whose first number is at most `number`, among `records`, or
  /// `nil` when `blocks` is empty or `number` is below its first block's first number.
  /// Precondition: `blocks` lies within the records.
  /// - Complexity: O(log blocks.count).
  @inlinable @inline(__always)
  package static func block(containing number: UInt64, in blocks: Range<Int>, records: ByteView) -> Int? {
    guard !blocks.isEmpty, firstNumber(ofBlock: blocks.lowerBound, records: records) <= number else { return nil }
    // `blocks` lies inside `records` (the precondition); a group of records may not be in cache.
    return unsafe records.uncheckedLastKey(
      atMost: number, in: blocks, stride: FormatConstants.entryIndexRecordSize, prefetching: true)
  }
}
