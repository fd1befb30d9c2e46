/// The sparse index over one kind's entry blocks (`Spec/FORMAT.md`, "Entry index").
///
/// Record `i` holds block `i`'s first number and the block's offset in the data section. In
/// version 2 the record's last two bytes hold the block's entry count minus one (so the offset has
/// 48 bits), and blocks hold 1 ... `entriesPerBlock` entries each. In version 1 block `i` holds
/// entries `i * entriesPerBlock ..< min((i + 1) * entriesPerBlock, entryCount)`, so counts are not
/// stored. Parsing checks only the index's own size rules (O(1)); record values are checked when
/// used (`blockRange(_:)`, `entryCount(ofBlock:)`) and in full by the verifier.
@usableFromInline package struct EntryIndex: ~Escapable, Sendable {
  /// The index's counts: those of its header, and what follows from them and the sections'
  /// lengths. What an entry block's place and size are found from, with the records.
  @frozen @usableFromInline package struct Counts: Sendable {
    /// The counts of an index without entries or blocks.
    @usableFromInline package static let none = Counts(
      entryCount: 0, entriesPerBlock: 1, blockCount: 0, countedBlocks: true, dataLength: 0)

    /// The number of entries of this kind.
    @usableFromInline package let entryCount: Int
    /// The most entries in one block (version 1: the entries in every block but the last).
    @usableFromInline package let entriesPerBlock: Int
    /// The number of blocks (version 1: `ceil(entryCount / entriesPerBlock)`).
    @usableFromInline package let blockCount: Int
    /// Whether each record carries its block's entry count (version 2).
    @usableFromInline package let countedBlocks: Bool
    /// The length of the data section the offsets point into.
    @usableFromInline package let dataLength: Int
  }

  /// What the index is, without its bytes: its counts and where its records lie in the file. A
  /// reader keeps the shape and makes the index again, a view, for each use; a lookup reads the
  /// shape in place and searches the records with `EntryIndex`'s static searches.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The counts.
    @usableFromInline package let counts: Counts
    /// The top level over the records, when the file has one (`BTOP`, `ITOP`).
    @usableFromInline package internal(set) var top: TopIndex.Shape?
    /// The summary of the top level, when the file has one (`BSUM`, `ISUM`): a top index whose
    /// records are the top's samples.
    @usableFromInline package internal(set) var summary: TopIndex.Shape?
    /// The CRC-32 of each group of records the top defines, when the file has them (`BGCK`,
    /// `IGCK`, version 2.5): a reader then checks the groups a lookup reads, not the whole index.
    @usableFromInline package internal(set) var groupChecks: GroupChecks.Shape?
    /// The CRC-32 of each group of the top's samples and their group checks, when the file has
    /// them (`BSCK`, `ISCK`, version 2.5, with a summary): a reader then checks the groups of the
    /// top a lookup reads, not the whole top.
    @usableFromInline package internal(set) var summaryChecks: GroupChecks.Shape?
    /// The top's samples and their group checks in the summary's groups, when the file has them
    /// (`BTCK`, `ITCK`, version 2.6, with summary checks): a reader then searches the top and
    /// reads a group's check here, in one page, and not in the top and the group checks.
    @usableFromInline package internal(set) var checkedTop: CheckedTop.Shape?
    /// Where the records lie in the file, `blockCount * 16` bytes.
    @usableFromInline package let records: FileRange
    /// Where the index section lies in the file: errors about its records are placed there.
    @usableFromInline package let place: FilePlace

    /// The number of entries of this kind.
    @inlinable package var entryCount: Int { counts.entryCount }
    /// The number of blocks.
    @inlinable package var blockCount: Int { counts.blockCount }
    /// The records a top sample stands for; 0 when the file has no top level.
    @inlinable package var topStride: Int { top?.stride ?? 0 }
    /// The top samples a summary sample stands for; 0 when the file has no summary.
    @inlinable package var summaryStride: Int { summary?.stride ?? 0 }

    /// The top level's samples in `file`, the bytes the shape was parsed from; empty when the
    /// file has no top level.
    @inlinable @inline(__always) @_lifetime(copy file)
    package func topSamples(in file: ByteView) -> ByteView {
      if let top { return unsafe file.view(of: top.samples) }
      return unsafe file.view(of: .empty)
    }

    /// The summary's samples in `file`, the bytes the shape was parsed from; empty when the
    /// file has no summary.
    @inlinable @inline(__always) @_lifetime(copy file)
    package func summarySamples(in file: ByteView) -> ByteView {
      if let summary { return unsafe file.view(of: summary.samples) }
      return unsafe file.view(of: .empty)
    }

    /// The checked top in `file`, the bytes the shape was parsed from; empty when the file has
    /// none.
    @inlinable @inline(__always) @_lifetime(copy file)
    package func checkedTop(in file: ByteView) -> ByteView {
      if let checkedTop { return unsafe file.view(of: checkedTop.bytes) }
      return unsafe file.view(of: .empty)
    }
  }

  // The view holds its fields one by one, not a copy of its shape.

  /// The counts.
  @usableFromInline package let counts: Counts
  /// The records, `blockCount * 16` bytes.
  @usableFromInline package let records: ByteView
  /// The samples of the top level over the records (`BTOP`, `ITOP`), empty when the file has none.
  @usableFromInline package let topSamples: ByteView
  /// The records a top sample stands for; 0 when the file has no top level.
  @usableFromInline package let topStride: Int
  /// The samples of the top's summary (`BSUM`, `ISUM`), empty when the file has none.
  @usableFromInline package let summarySamples: ByteView
  /// The top samples a summary sample stands for; 0 when the file has no summary.
  @usableFromInline package let summaryStride: Int
  /// The checked top (`BTCK`, `ITCK`), empty when the file has none: the search then reads the
  /// top's samples here, not in `topSamples`.
  @usableFromInline package let checkedTop: ByteView
  /// Where the index section lies in the file: errors about its records are placed there.
  @usableFromInline package let place: FilePlace

  /// The index of `shape` over `file`, the bytes the shape was parsed from.
  /// - Complexity: O(1).
  @inlinable @inline(__always) @_lifetime(copy file)
  package init(_ shape: borrowing Shape, in file: ByteView) {
    counts = shape.counts
    records = unsafe file.view(of: shape.records)
    topSamples = shape.topSamples(in: file)
    topStride = shape.topStride
    summarySamples = shape.summarySamples(in: file)
    summaryStride = shape.summaryStride
    checkedTop = shape.checkedTop(in: file)
    place = shape.place
  }

  /// The number of entries of this kind.
  @inlinable package var entryCount: Int { counts.entryCount }
  /// The most entries in one block (version 1: the entries in every block but the last).
  @inlinable package var entriesPerBlock: Int { counts.entriesPerBlock }
  /// The number of blocks (version 1: `ceil(entryCount / entriesPerBlock)`).
  @inlinable package var blockCount: Int { counts.blockCount }
  /// Whether each record carries its block's entry count (version 2).
  @inlinable package var countedBlocks: Bool { counts.countedBlocks }
  /// The length of the data section the offsets point into.
  @inlinable package var dataLength: Int { counts.dataLength }

  /// The top level over the records, when the file has one: lookups search its samples first,
  /// then one group of records.
  @inlinable package var top: TopIndex? {
    @_lifetime(copy self) get { topStride > 0 ? TopIndex(stride: topStride, samples: topSamples) : nil }
  }

  /// The summary of the top level, when the file has one: a top index whose records are the
  /// top's samples, which lookups search before the top.
  @inlinable package var summary: TopIndex? {
    @_lifetime(copy self) get { summaryStride > 0 ? TopIndex(stride: summaryStride, samples: summarySamples) : nil }
  }
}

extension EntryIndex.Shape {
  /// Checks and wraps an index section.
  ///
  /// - Parameters:
  ///   - section: the index section's bytes.
  ///   - place: where `section` lies in the file.
  ///   - dataLength: the length of the matching data section.
  ///   - countedBlocks: whether records carry block counts (a version 2 file).
  ///   - header: the 16 bytes to read the header from and their place, when not the section's
  ///     own (its copy in `HDRS`, which a cold open finds in the first page); the section still
  ///     starts with 16.
  /// - Throws: `FormatError`, placed in the file, when the header is malformed (in the copy, for
  ///   a header read from one) or the section's length does not match its block count.
  /// - Complexity: O(1).
  package init(
    parsing section: ByteView, at place: FilePlace, dataLength: Int, countedBlocks: Bool,
    header: (bytes: ByteView, place: FilePlace)? = nil
  ) throws(FormatError) {
    guard section.count >= FormatConstants.entryIndexHeaderSize else {
      throw place.error(.truncated(needed: FormatConstants.entryIndexHeaderSize, available: section.count))
    }
    let fields: ByteView
    let fieldsPlace: FilePlace
    if let header {
      fields = header.bytes
      fieldsPlace = header.place
    } else {
      fields = section
      fieldsPlace = place
    }
    guard fields.count >= FormatConstants.entryIndexHeaderSize else {
      throw fieldsPlace.error(.truncated(needed: FormatConstants.entryIndexHeaderSize, available: fields.count))
    }
    let rawCount = unsafe fields.uncheckedUInt64LE(at: 0)
    let rawPerBlock = unsafe fields.uncheckedUInt32LE(at: 8)
    guard
      rawPerBlock >= UInt32(FormatConstants.minimumEntriesPerBlock)
        && rawPerBlock <= UInt32(FormatConstants.maximumEntriesPerBlock)
    else {
      throw fieldsPlace.error(.invalidField(field: "entries per block", value: UInt64(rawPerBlock)), at: 8)
    }
    guard unsafe fields.uncheckedUInt32LE(at: 12) == 0 else {
      throw fieldsPlace.error(.nonzeroReserved(field: "index header"), at: 12)
    }
    let perBlock = UInt64(rawPerBlock)
    // Division first: no overflow for any 64-bit count.
    let fewestBlocks = rawCount / perBlock + (rawCount % perBlock == 0 ? 0 : 1)
    let recordBytes = UInt64(section.count - FormatConstants.entryIndexHeaderSize)
    let blocks = recordBytes / UInt64(FormatConstants.entryIndexRecordSize)
    guard recordBytes % UInt64(FormatConstants.entryIndexRecordSize) == 0 else {
      throw place.error(.malformedIndex("the records take \(recordBytes) bytes, not a multiple of 16"))
    }
    if countedBlocks {
      // Every block holds 1 ... perBlock entries: the counts can add up to the total only then.
      guard blocks >= fewestBlocks, blocks <= rawCount else {
        throw place.error(
          .malformedIndex(
            "\(rawCount) entries in blocks of 1 to \(perBlock) need \(fewestBlocks) to \(rawCount) records, the section has \(blocks)"
          ))
      }
    } else if blocks != fewestBlocks {
      throw place.error(
        .malformedIndex(
          "\(rawCount) entries in blocks of \(perBlock) need \(fewestBlocks) records, the section has room for \(blocks)"))
    }
    // blocks is bounded by the section length, and entryCount by blocks * 4096: both fit in Int.
    counts = EntryIndex.Counts(
      entryCount: Int(rawCount), entriesPerBlock: Int(perBlock), blockCount: Int(blocks), countedBlocks: countedBlocks,
      dataLength: dataLength)
    records = FileRange(
      offset: place.offset &+ FormatConstants.entryIndexHeaderSize, count: section.count - FormatConstants.entryIndexHeaderSize)
    top = nil
    summary = nil
    groupChecks = nil
    summaryChecks = nil
    checkedTop = nil
    self.place = place
  }

}

extension EntryIndex {
  /// The first number of block `block`, as stored (the verifier checks it is in range).
  /// Precondition: `0 <= block < blockCount`.
  @inlinable
  package func firstNumber(ofBlock block: Int) -> UInt64 {
    Self.firstNumber(ofBlock: block, records: records)
  }

  /// `firstNumber(ofBlock:)` in `records`, an index's records.
  /// Precondition: `0 <= block`, and `records` holds more than `block` records.
  @inlinable @inline(__always)
  package static func firstNumber(ofBlock block: Int, records: ByteView) -> UInt64 {
    unsafe records.uncheckedUInt64LE(at: block &* FormatConstants.entryIndexRecordSize)  // block < blockCount: inside records
  }

  /// The number of entries in block `block`. Precondition: `0 <= block < blockCount`.
  /// - Throws: `FormatError`, placed in the index section, when a version 2 record's count
  ///   exceeds the entries per block.
  /// - Complexity: O(1).
  @inlinable
  package func entryCount(ofBlock block: Int) throws(FormatError) -> Int {
    guard countedBlocks else {
      return min(entriesPerBlock, entryCount &- block &* entriesPerBlock)  // block * perBlock < entryCount
    }
    let at = block &* FormatConstants.entryIndexRecordSize &+ 14  // block < blockCount: inside records
    let count = Int(unsafe records.uncheckedUInt16LE(at: at)) &+ 1
    guard count <= entriesPerBlock else {
      throw place.error(
        .malformedIndex("block \(block) holds \(count) entries, more than the \(entriesPerBlock) a block may"),
        at: FormatConstants.entryIndexHeaderSize &+ at)
    }
    return count
  }

  /// Block `block`'s bytes in the data section and its entry count, or `nil` when its record
  /// does not place it (`blockRange(_:)` and `entryCount(ofBlock:)` then say why).
  /// Precondition: `0 <= block < blockCount`.
  /// - Complexity: O(1), no allocation: the lookups' way to a block that has passed its checks.
  @inlinable @inline(__always)
  package func extent(ofBlock block: Int) -> (bytes: Range<Int>, entries: Int)? {
    counts.extent(ofBlock: block, records: records)
  }

  /// The stored offset of block `block` in the data section (version 2: its low 48 bits).
  @inlinable @inline(__always)
  func storedOffset(ofBlock block: Int) -> UInt64 {
    counts.storedOffset(ofBlock: block, records: records)
  }
  /// The byte range of block `block` in the data section.
  ///
  /// - Throws: `FormatError`, placed in the index section, when the block's offset or the
  ///   next block's offset is out of order or past the data section, or the block is shorter than
  ///   a block header and trailer.
  /// - Complexity: O(1).
  @usableFromInline package func blockRange(_ block: Int) throws(FormatError) -> Range<Int> {
    try BlockRanges.range(
      block, count: blockCount, dataLength: dataLength, place: place.advanced(by: FormatConstants.entryIndexHeaderSize),
      recordSize: FormatConstants.entryIndexRecordSize
    ) { storedOffset(ofBlock: $0) }
  }
}

/// Locates block `i` of a data section from the offsets stored in an index: the block runs from
/// its own offset to the next block's offset, or to the end of the section.
enum BlockRanges {
  static func range(
    _ block: Int, count: Int, dataLength: Int, place records: FilePlace, recordSize: Int, offset: (Int) -> UInt64
  ) throws(FormatError) -> Range<Int> {
    let at = block &* recordSize &+ 8  // place of the offset field, for messages
    let start = offset(block)
    let end = block &+ 1 < count ? offset(block &+ 1) : UInt64(dataLength)
    guard block > 0 || start == 0 else {
      throw records.error(.malformedIndex("the first block starts at \(start), not 0"), at: at)
    }
    guard start <= end, end <= UInt64(dataLength) else {
      throw records.error(.malformedIndex("block \(block) spans \(start)..<\(end) of a \(dataLength)-byte data section"), at: at)
    }
    guard end - start >= UInt64(FormatConstants.blockHeaderSize + FormatConstants.blockTrailerSize) else {
      throw records.error(.malformedIndex("block \(block) is only \(end - start) bytes"), at: at)
    }
    return Int(start)..<Int(end)  // both <= dataLength, an Int
  }
}

extension EntryIndex.Counts {
  /// `EntryIndex.extent(ofBlock:)` over `records`, the index's records: for a lookup that reads
  /// the reader's shape in place instead of making a view of the index.
  /// Precondition: `0 <= block < blockCount`, and `records` holds `blockCount` records.
  /// - Complexity: O(1).
  @inlinable @inline(__always)
  package func extent(ofBlock block: Int, records: ByteView) -> (bytes: Range<Int>, entries: Int)? {
    let start = storedOffset(ofBlock: block, records: records)
    let end = block &+ 1 < blockCount ? storedOffset(ofBlock: block &+ 1, records: records) : UInt64(dataLength)
    let entries =
      countedBlocks
      ? Int(unsafe records.uncheckedUInt16LE(at: block &* FormatConstants.entryIndexRecordSize &+ 14)) &+ 1
      : min(entriesPerBlock, entryCount &- block &* entriesPerBlock)
    guard start <= end, end <= UInt64(dataLength), entries <= entriesPerBlock else { return nil }
    // Both at most dataLength, an Int, and in order.
    return unsafe (Range(uncheckedBounds: (Int(truncatingIfNeeded: start), Int(truncatingIfNeeded: end))), entries)
  }

  /// The stored offset of block `block` in the data section (version 2: its low 48 bits).
  @inlinable @inline(__always)
  func storedOffset(ofBlock block: Int, records: ByteView) -> UInt64 {
    let raw = unsafe records.uncheckedUInt64LE(at: block &* FormatConstants.entryIndexRecordSize &+ 8)
    return countedBlocks ? raw & Self.offsetMask : raw
  }

  /// The bits of a version 2 record's offset field that hold the offset; the top 16 hold the count.
  @usableFromInline package static let offsetMask: UInt64 = (1 << 48) - 1
}
