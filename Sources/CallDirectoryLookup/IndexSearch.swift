import CallDirectoryFormat

// The searches of the two index levels: the top index's samples to a group of records, then the
// records to the one block that can hold a number. Over a damaged index they give some block or
// none, never a trap or a hang; the reader checks the index's CRC before the first lookup.

extension EntryIndex {
  /// The last block whose first number is at most `number`, or `nil` when `number` is below the
  /// first block's first number.
  ///
  /// A damaged index that is not ascending gives some block or `nil`, never a trap or a hang.
  /// - Complexity: O(log blockCount).
  @inlinable
  package func block(containing number: UInt64) -> Int? {
    // The top's samples are the groups' first numbers: the block is in the group whose sample is
    // the last at or below `number` (a damaged top gives some block or none, as a damaged index).
    guard let top else { return block(containing: number, in: 0..<blockCount) }
    guard let group = top.group(containing: number, blockCount: blockCount) else { return nil }
    return block(containing: number, in: group)
  }

  /// The last block of `blocks` whose first number is at most `number`.
  /// Precondition: `blocks` lies within `0 ..< blockCount`.
  @inlinable
  package func block(containing number: UInt64, in blocks: Range<Int>) -> Int? {
    var low = blocks.lowerBound
    var high = blocks.upperBound  // invariant: blocks < low start at or below `number`, blocks >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if firstNumber(ofBlock: middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    return low == blocks.lowerBound ? nil : low &- 1
  }
}

extension TopIndex {
  /// The records `lowerBound ..< upperBound` to search for `number`: the last group whose sample
  /// is at most `number`, or `nil` when `number` is below every sample.
  /// - Complexity: O(log count), within the samples.
  @inlinable
  package func group(containing number: UInt64, blockCount: Int) -> Range<Int>? {
    var low = 0
    var high = count  // samples < low are at most `number`, samples >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if sample(middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    // count = ceil(blockCount / stride), so the group's first record is below blockCount.
    let start = (low &- 1) &* stride
    return start..<min(start &+ stride, blockCount)
  }
}
