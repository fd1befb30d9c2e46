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
  @inlinable @inline(__always)
  func range(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    // From the shape the reader keeps: no view is made for a kind without ranges.
    let (count, inBlocks) =
      kind == .blocking
      ? (shape.blockingRanges.count, shape.blockingRanges.inBlocks)
      : (shape.identificationRanges.count, shape.identificationRanges.inBlocks)
    guard count > 0 else { return nil }
    if inBlocks { return rangeInBlocks(kind, containing: number) }
    return rangeInRecords(kind, containing: number)
  }

  /// `range(_:containing:)` for ranges stored as fixed records, out of line: a binary search over
  /// the records' first numbers, read in place from the shape's fields (a whole range table made
  /// for each lookup cost a copy and two calls to its value witnesses).
  ///
  /// The section's length is the header and `count` records, checked when the file was opened,
  /// and the records passed their checks before the kind's first lookup.
  @usableFromInline @inline(never)
  func rangeInRecords(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    let blocking = kind == .blocking
    let labelled = blocking ? shape.blockingRanges.labelled : shape.identificationRanges.labelled
    let count = blocking ? shape.blockingRanges.count : shape.identificationRanges.count
    let records = unsafe file.view(of: blocking ? shape.blockingRanges.records : shape.identificationRanges.records)
    let size = RangeTable.recordSize(labelled: labelled)
    var low = 0
    var high = count  // ranges < low start at or below `number`, ranges >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if unsafe records.uncheckedUInt64LE(at: middle &* size) <= number { low = middle &+ 1 } else { high = middle }
    }
    // Record low - 1 (below count: inside the records) starts at or below `number`.
    guard low > 0, unsafe records.uncheckedUInt64LE(at: (low &- 1) &* size &+ 8) >= number else { return nil }
    let labelId = labelled ? unsafe records.uncheckedUInt32LE(at: (low &- 1) &* size &+ 16) : 0
    return (low &- 1, labelId)
  }

  /// `range(_:containing:)` for ranges stored in blocks, out of line: the block table's shape is
  /// read only by the lookups that search it.
  ///
  /// The ranges passed their checks whole before the kind's first lookup (`checkLookupParts`), so
  /// the block is searched in place as a passed entry block is: its frame read again, nothing
  /// built but the parts the search reads. A block whose frame no longer parses holds nothing.
  @usableFromInline @inline(never)
  func rangeInBlocks(_ kind: EntryKind, containing number: UInt64) -> (index: Int, labelId: UInt32)? {
    let file = self.file
    // The table's fields for a lookup, each read in place (`RangeTable.Shape.blockCounts`).
    let blocking = kind == .blocking
    let counts = blocking ? shape.blockingRanges.blockCounts : shape.identificationRanges.blockCounts
    let records = unsafe file.view(of: blocking ? shape.blockingRanges.blockRecords : shape.identificationRanges.blockRecords)
    let data = blocking ? shape.blockingRanges.blockData : shape.identificationRanges.blockData
    let labelled = blocking ? shape.blockingRanges.labelled : shape.identificationRanges.labelled
    guard
      // A range index has no top level (`Spec/FORMAT.md` 10.1): its records are searched whole.
      let block = EntryIndex.block(containing: number, in: 0..<counts.blockCount, records: records),
      let extent = counts.extent(ofBlock: block, records: records)
    else { return nil }
    // The extent is at most the data section's length (`counts.dataLength`), as an entry block's
    // is in the warm lookup (entry_find.h).
    let bytes = unsafe file.view(of: data).uncheckedSlice(offset: extent.bytes.lowerBound, length: extent.bytes.count)
    guard
      let found = RangeBlock.range(
        containing: number &- EntryIndex.firstNumber(ofBlock: block, records: records), inPassedBlock: bytes,
        ranges: extent.entries, labelled: labelled)
    else { return nil }
    // block * perBlock + found < the kind's range count: a small Int; ids < 2^32.
    return (block &* counts.entriesPerBlock &+ found.index, UInt32(truncatingIfNeeded: found.labelId))
  }
}
