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

  /// `range(_:containing:)` for ranges stored in blocks, out of line: the block table's shape is
  /// read only by the lookups that search it.
  ///
  /// The ranges passed their checks whole before the kind's first lookup (`checkLookupParts`), so
  /// the block is searched in place as a passed entry block is: its frame read again, nothing
  /// built but the parts the search reads. A block whose frame no longer parses holds nothing.
  @inline(never)
  func rangeInBlocks(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    let file = self.file
    let table = kind == .blocking ? shape.blockingRanges : shape.identificationRanges
    guard let blocks = table.blocks else { return nil }
    let index = blocks.index
    let records = unsafe file.view(of: index.records)
    guard
      let block = EntryIndex.block(
        containing: number, records: records, blockCount: index.counts.blockCount, topStride: index.topStride,
        topSamples: index.topSamples(in: file)),
      let extent = index.counts.extent(ofBlock: block, records: records),
      let bytes = unsafe file.view(of: blocks.data).subview(offset: extent.bytes.lowerBound, length: extent.bytes.count),
      let found = PassedBlockSearch.range(
        containing: number &- EntryIndex.firstNumber(ofBlock: block, records: records), inBlock: bytes,
        ranges: extent.entries, labelled: blocks.labelled)
    else { return nil }
    // block * perBlock + found < the kind's range count: a small Int; ids < 2^32.
    return (block &* index.counts.entriesPerBlock &+ found.index, UInt32(truncatingIfNeeded: found.labelId))
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
