import CallDirectoryFormat
import CallDirectoryReader

extension CallDirectoryReader {
  /// The range of `kind` holding `number` (its index among the kind's ranges and its label id, 0
  /// for blocking), or `nil`: a binary search over the fixed records, or over the range blocks'
  /// index and then one block's boundaries. The caller has run `checkLookupParts(kind)`.
  ///
  /// A method of the reader, not of the range table, so that the table is read in place: a
  /// call that takes the table as its `self` makes the caller copy it (two hundred-odd bytes)
  /// on every lookup, ranges or not.
  /// - Complexity: O(log r) for r ranges; O(1) for a kind without any.
  @inline(__always)
  func range(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    // From the shape the reader keeps: no view is made for a kind without ranges.
    let (count, inBlocks) =
      kind == .blocking
      ? (shape.blockingRanges.count, shape.blockingRanges.inBlocks)
      : (shape.identificationRanges.count, shape.identificationRanges.inBlocks)
    guard count > 0 else { return nil }
    if inBlocks { return rangeInBlocks(kind, containing: number) }
    return withRanges(kind) { ranges in ranges.record(containing: number).map { ($0, ranges.labelId($0)) } }
  }

  /// `range(_:containing:)` for ranges stored in blocks, out of line: the block table is copied
  /// only by the lookups that search it.
  @inline(never)
  func rangeInBlocks(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    withRanges(kind) { $0.blocks?.range(containing: number) }
  }
}

extension RangeTable {
  /// The index of the fixed record whose range contains `number`, or `nil`: a binary search over
  /// the records' first numbers. Reads are bounds-checked when the table is unchecked.
  /// - Complexity: O(log count).
  @inlinable @inline(__always)
  package func record(containing number: UInt64) -> Int? {
    var low = 0
    var high = count  // ranges < low start at or below `number`, ranges >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if first(middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0, number <= last(low &- 1) else { return nil }
    return low &- 1
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
