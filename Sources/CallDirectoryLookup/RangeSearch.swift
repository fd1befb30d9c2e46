import CallDirectoryFormat

extension RangeTable {
  /// The index of the range containing `number`, or `nil`.
  ///
  /// Binary search over the records' first numbers (O(log r)), or over the range index's blocks
  /// and then one block's boundaries; reads are bounds-checked when the table is unchecked.
  @inlinable
  package func range(containing number: UInt64) -> Int? {
    // Most lists have no ranges: the block table (some hundred bytes) is not even looked at.
    guard count > 0 else { return nil }
    if let blocks { return blocks.range(containing: number)?.index }
    var low = 0
    var high = count  // ranges < low start at or below `number`, ranges >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if first(middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0, number <= last(low &- 1) else { return nil }
    return low &- 1
  }

  /// The label id of the range containing `number` (0 for blocking ranges), or `nil`: one search,
  /// and for range blocks one block read.
  @inlinable
  package func labelId(containing number: UInt64) -> UInt32? {
    guard count > 0 else { return nil }
    if let blocks { return blocks.range(containing: number)?.labelId }
    return range(containing: number).map(labelId)
  }
}

extension RangeBlocks {
  /// The range holding `number` (its index among the kind's ranges and its label id), or `nil`:
  /// the block whose first number is the last at or below it, then the boundaries in that block
  /// (`Spec/FORMAT.md` section 10.1). A block that cannot be parsed holds nothing.
  /// - Complexity: O(log blocks) plus a popcount walk of one block's high bits.
  @inlinable
  package func range(containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    guard let blockNumber = index.block(containing: number), let block = try? block(blockNumber),
      let found = block.range(containing: number)
    else { return nil }
    return (blockNumber &* index.entriesPerBlock &+ found, UInt32(truncatingIfNeeded: block.labelId(found)))
  }
}
