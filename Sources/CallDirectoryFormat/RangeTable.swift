/// One kind's ranges: ascending, disjoint intervals of numbers, each inclusive, with a label id in
/// identification ranges (`Spec/FORMAT.md`, "Range sections"), in fixed records (`BRNG`, `IRNG`)
/// or in range blocks (`BRIX` with `BRDT`, `IRIX` with `IRDT`, section 10.1).
///
/// Records have a fixed size, so a lookup binary-searches them in place; range blocks are
/// searched through their index as entry blocks are. Parsing checks only the sections' sizes
/// (O(1)); values are checked by the verifier, and by a reader with the sections' CRCs before its
/// first lookup (`Spec/FORMAT.md` section 14). Unchecked, a damaged table could give wrong
/// answers, never a trap.
@usableFromInline package struct RangeTable: ~Escapable, Sendable {
  /// What the table is, without its bytes: its count and where its records or blocks lie.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The number of ranges.
    @usableFromInline package let count: Int
    /// Whether records carry a label id (identification ranges).
    @usableFromInline package let labelled: Bool
    /// Where the fixed records lie in the file (empty when the ranges are in blocks).
    @usableFromInline package let records: FileRange
    /// The range blocks, when the ranges are stored in them.
    @usableFromInline package let blocks: RangeBlocks.Shape?
    /// Whether the ranges are in blocks (`blocks` is not `nil`): a lookup tests this flag, where
    /// testing the optional itself copies its hundred-odd bytes first.
    @usableFromInline package let inBlocks: Bool
    /// What a lookup into the range blocks reads, kept beside `blocks` (zero without them): their
    /// index's counts and records, and where their data lies. Read in place, where taking `blocks`
    /// out of its optional copies all of it (161 bytes, a call to `memcpy`) on every lookup.
    @usableFromInline package let blockCounts: EntryIndex.Counts
    /// Where the range index's records lie (empty without range blocks).
    @usableFromInline package let blockRecords: FileRange
    /// Where the range data section lies (empty without range blocks).
    @usableFromInline package let blockData: FileRange
    /// Where the range section lies in the file (offset 0 for an absent one): errors about its
    /// records are placed there.
    @usableFromInline package let place: FilePlace

    /// An empty table, for a kind without ranges.
    @usableFromInline package init(labelled: Bool) {
      count = 0
      self.labelled = labelled
      records = .empty
      blocks = nil
      inBlocks = false
      (blockCounts, blockRecords, blockData) = (.none, .empty, .empty)
      place = FilePlace(offset: 0)
    }

    /// Wraps a kind's range index and range data sections.
    package init(blocks: RangeBlocks.Shape) {
      count = blocks.index.entryCount
      labelled = blocks.labelled
      records = .empty
      self.blocks = blocks
      inBlocks = true
      (blockCounts, blockRecords, blockData) = (blocks.index.counts, blocks.index.records, blocks.data)
      place = blocks.index.place
    }

    /// Checks and wraps a range section.
    /// - Throws: `FormatError`, placed in the file, when its length does not match its count.
    /// - Complexity: O(1).
    package init(parsing section: ByteView, at place: FilePlace, labelled: Bool) throws(FormatError) {
      guard let rawCount = section.uint64LE(at: 0) else {
        throw place.error(.truncated(needed: FormatConstants.rangeHeaderSize, available: section.count))
      }
      let size = UInt64(RangeTable.recordSize(labelled: labelled))
      let recordBytes = UInt64(section.count - FormatConstants.rangeHeaderSize)
      guard recordBytes % size == 0, rawCount == recordBytes / size else {
        throw place.error(
          .malformedIndex(
            "\(rawCount) ranges need \(rawCount > recordBytes ? "more than \(recordBytes)" : String(rawCount * size)) bytes of records, the section has \(recordBytes)"
          ))
      }
      count = Int(rawCount)  // bounded by the section's length
      self.labelled = labelled
      records = FileRange(offset: place.offset &+ FormatConstants.rangeHeaderSize, count: Int(recordBytes))
      blocks = nil
      inBlocks = false
      (blockCounts, blockRecords, blockData) = (.none, .empty, .empty)
      self.place = place
    }
  }

  /// The number of ranges.
  @usableFromInline package let count: Int
  /// Whether records carry a label id (identification ranges).
  @usableFromInline package let labelled: Bool
  /// The fixed records (empty when the ranges are in blocks).
  @usableFromInline package let records: ByteView
  /// The range blocks, when the ranges are stored in them.
  @usableFromInline package let blocks: RangeBlocks?
  /// Whether the ranges are in blocks (`blocks` is not `nil`).
  @usableFromInline package let inBlocks: Bool
  /// Where the range section lies in the file.
  @usableFromInline package let place: FilePlace

  /// The table of `shape` over `file`, the bytes the shape was parsed from.
  /// - Complexity: O(1).
  @inlinable @inline(__always) @_lifetime(copy file)
  package init(_ shape: borrowing Shape, in file: ByteView) {
    count = shape.count
    labelled = shape.labelled
    records = unsafe file.view(of: shape.records)
    if shape.inBlocks, let blocks = shape.blocks { self.blocks = RangeBlocks(blocks, in: file) } else { self.blocks = nil }
    inBlocks = shape.inBlocks
    place = shape.place
  }

  /// The record size in bytes.
  @inlinable
  package var recordSize: Int { Self.recordSize(labelled: labelled) }

  /// The bytes of one fixed record: a blocking range's two numbers, or an identification range's
  /// with its label id and reserved field.
  @inlinable
  package static func recordSize(labelled: Bool) -> Int {
    labelled ? FormatConstants.identificationRangeSize : FormatConstants.blockingRangeSize
  }

  /// The first number of range `index`, as stored. Precondition: `0 <= index < count`.
  @inlinable
  package func first(_ index: Int) -> UInt64 {
    if let blocks { return blocks.range(index)?.first ?? 0 }
    return unsafe records.uncheckedUInt64LE(at: index &* recordSize)
  }

  /// The last number of range `index`, as stored. Precondition: `0 <= index < count`.
  @inlinable
  package func last(_ index: Int) -> UInt64 {
    if let blocks { return blocks.range(index)?.last ?? 0 }
    return unsafe records.uncheckedUInt64LE(at: index &* recordSize &+ 8)
  }

  /// The label id of range `index` (0 for blocking ranges). Precondition: `0 <= index < count`.
  @inlinable
  package func labelId(_ index: Int) -> UInt32 {
    if let blocks { return UInt32(truncatingIfNeeded: blocks.range(index)?.labelId ?? 0) }
    return labelled ? unsafe records.uncheckedUInt32LE(at: index &* recordSize &+ 16) : 0
  }

  /// The reserved field of range `index` (0 for blocking ranges and range blocks, which have none).
  @inlinable
  package func reserved(_ index: Int) -> UInt32 {
    labelled && !inBlocks ? unsafe records.uncheckedUInt32LE(at: index &* recordSize &+ 20) : 0
  }
}

extension RangeTable {
  /// The error for range `index`, whose label id is not below `labelCount`, at its label id field.
  package func labelIdError(_ index: Int, labelCount: Int) -> FormatError {
    place.error(
      .labelIdOutOfRange(id: labelId(index), labelCount: labelCount),
      at: FormatConstants.rangeHeaderSize &+ index &* recordSize &+ 16)  // index < count: inside the section
  }

  /// Range `index` as numbers, checked against the rules of `Spec/FORMAT.md` "Range sections":
  /// ends in `1 ... Int64.max - 1`, `first < last`, above the range before it (`previous`: its
  /// last number and label id), not adjacent to it unless labelled differently, reserved zero.
  ///
  /// - Returns: the range and its label id, or what is wrong with it.
  @usableFromInline package func checkedRange(
    _ index: Int, after previous: (last: Int64, labelId: UInt32)?
  ) -> Result<(range: ClosedRange<Int64>, labelId: UInt32), FormatError> {
    let at = FormatConstants.rangeHeaderSize &+ index &* recordSize
    let first = first(index)
    let last = last(index)
    for value in [first, last] where value < UInt64(Limits.minimumNumber) || value > UInt64(Limits.maximumNumber) {
      return .failure(place.error(.numberOutOfRange(value), at: at))
    }
    guard first < last else {
      return .failure(
        place.error(.invalidField(field: "range end (a range's last number must exceed its first)", value: last), at: at &+ 8))
    }
    guard reserved(index) == 0 else { return .failure(place.error(.nonzeroReserved(field: "range record"), at: at &+ 20)) }
    let range = Int64(first)...Int64(last)  // both in range, just checked
    let label = labelId(index)
    if let previous {
      // previous.last <= Int64.max - 1, so + 1 cannot overflow.
      let touches = range.lowerBound == previous.last + 1 && (!labelled || label == previous.labelId)
      guard range.lowerBound > previous.last, !touches else {
        return .failure(place.error(.notAscending(previous: previous.last, next: range.lowerBound), at: at))
      }
    }
    return .success((range, label))
  }
}
