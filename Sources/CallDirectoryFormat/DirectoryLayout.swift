/// One kind of entry in a directory.
///
///     let kind = EntryKind(rawValue: "block") ?? .identification
///     print(kind == .blocking)  // true
///     for each in EntryKind.allCases { print(each.rawValue) }  // "block", "identify"
public enum EntryKind: String, Sendable, CaseIterable {
  /// Numbers to block.
  case blocking = "block"
  /// Numbers to identify, each with a label.
  case identification = "identify"

  /// The kind's data and index sections.
  @usableFromInline package var sections: (data: SectionType, index: SectionType) {
    switch self {
    case .blocking: (.blockingData, .blockingIndex)
    case .identification: (.identificationData, .identificationIndex)
    }
  }

  /// The kind's sections over its index: the top, the top's summary, the group checks, the
  /// summary checks and the checked top.
  @usableFromInline package var levelSections:
    (
      top: SectionType, summary: SectionType, groupChecks: SectionType, summaryChecks: SectionType,
      checkedTop: SectionType
    )
  {
    self == .blocking
      ? (.blockingTop, .blockingTopSummary, .blockingGroupChecks, .blockingSummaryChecks, .blockingCheckedTop)
      : (
        .identificationTop, .identificationTopSummary, .identificationGroupChecks, .identificationSummaryChecks,
        .identificationCheckedTop
      )
  }

  /// The kind's fixed range section.
  @usableFromInline package var rangeSection: SectionType { self == .blocking ? .blockingRanges : .identificationRanges }

  /// The kind's range sections: the fixed one, and the range index and data of range blocks.
  @usableFromInline package var rangeSections: (fixed: SectionType, blockIndex: SectionType, blockData: SectionType) {
    self == .blocking
      ? (.blockingRanges, .blockingRangeIndex, .blockingRangeData)
      : (.identificationRanges, .identificationRangeIndex, .identificationRangeData)
  }
}

/// Where everything is in a directory file, over the file's bytes: the parsed header and the
/// located sections and indexes (`Spec/FORMAT.md`, "File layout").
///
/// A layout is a view: it depends on the bytes it was parsed from, and so does every index, table
/// and block it hands out. What outlives it is its `Shape`, offsets without pointers, which a
/// reader keeps and lays over its bytes again (`init(_:file:)`, O(1)) for each use.
@usableFromInline package struct DirectoryLayout: ~Escapable, Sendable {
  /// The parsed header and the places of the sections and indexes, without the file's bytes.
  ///
  /// Making one is the whole of opening a file: O(section count) work, independent of the number
  /// of entries. Nothing is decompressed and no checksum but the header's is computed; blocks are
  /// checked as they are used.
  @usableFromInline package struct Shape: Sendable {
    /// The header and section table.
    @usableFromInline package let header: FileHeader
    /// The blocking index.
    @usableFromInline package let blockingIndex: EntryIndex.Shape
    /// The identification index.
    @usableFromInline package let identificationIndex: EntryIndex.Shape
    /// The label index.
    @usableFromInline package let labelIndex: LabelIndex.Shape
    /// How the label blocks hold their labels: in `LDAT` or, from version 2.3, in `LPFX`.
    @usableFromInline package let labelCoding: LabelCoding
    /// The blocking ranges (empty when the file has no `BRNG` section).
    @usableFromInline package let blockingRanges: RangeTable.Shape
    /// The identification ranges (empty when the file has no `IRNG` section).
    @usableFromInline package let identificationRanges: RangeTable.Shape
    /// The provider's list version (section `VERS`), 0 for a file without one.
    @usableFromInline package let listVersion: UInt64
    /// The signature section, when the file is signed; whether it verifies is the reader's question.
    @usableFromInline package let signature: SignatureSection?
    /// The file offsets of the data sections, where blocks are located and their errors placed.
    @usableFromInline package let dataOffsets: (blocking: Int, identification: Int, labels: Int)
    /// The file's length.
    @usableFromInline package let fileLength: Int

    /// The index of `kind`.
    @inlinable
    package func index(_ kind: EntryKind) -> EntryIndex.Shape {
      kind == .blocking ? blockingIndex : identificationIndex
    }

    /// The ranges of `kind`.
    @inlinable
    package func ranges(_ kind: EntryKind) -> RangeTable.Shape {
      kind == .blocking ? blockingRanges : identificationRanges
    }

    /// Parses the header, locates the sections and checks the indexes' headers.
    ///
    /// - Throws: `FormatError` with file offsets: a bad header or table, a missing version 1
    ///   section, an unknown section marked required, or a malformed index header.
    /// - Complexity: O(section count).
    @usableFromInline package init(parsing file: ByteView) throws(FormatError) {
      let header = try FileHeader(parsing: file)
      for (position, entry) in header.sections.enumerated() {
        let at = FormatConstants.headerSize + position * FormatConstants.sectionEntrySize
        // Types are four printable ASCII bytes, so that every type can be named in a message.
        for shift in stride(from: 0, to: 32, by: 8) where !(0x21...0x7E).contains((entry.type >> UInt32(shift)) & 0xFF) {
          throw FormatError(
            .invalidField(field: "section type byte", value: UInt64((entry.type >> UInt32(shift)) & 0xFF)), at: at)
        }
        let required = entry.flags & SectionFlags.required != 0
        if let type = SectionType(rawValue: entry.typeName) {
          // A reader that did not know a type would skip it or refuse the file as the flag says:
          // each known type has the one flag the spec gives it.
          if required != type.isRequired {
            let rule = type.isRequired ? "must be required" : "must be optional"
            throw FormatError(
              .invalidField(field: "flags of section \(entry.typeName) (\(rule))", value: UInt64(entry.flags)), at: at &+ 4)
          }
          if type == .signature && position != header.sections.count - 1 {
            throw FormatError(.sectionLayout("the signature section must be the last section"), at: at, section: entry.typeName)
          }
        } else if required {
          throw FormatError(.unknownRequiredSection(entry.typeName), at: Int(entry.offset))
        }
      }
      // Each section's place and bytes: every parser below places its own errors in the file.
      // (The ranges are checked here, the views made where they are parsed: a local function
      // that returned a view would tie it to this one's captures.)
      func locate(_ type: SectionType) throws(FormatError) -> (range: FileRange, place: FilePlace) {
        guard let entry = header.section(type) else { throw FormatError(unplaced: .missingSection(type.rawValue)) }
        // The header parser proved every section lies inside the file.
        let place = FilePlace(type, at: Int(entry.offset))
        _ = try file.slice(offset: Int(entry.offset), length: Int(entry.length), in: place)
        return (FileRange(offset: Int(entry.offset), count: Int(entry.length)), place)
      }
      // An optional section parsed, or nil when the file has none.
      func optional<T>(_ type: SectionType, _ parse: (ByteView, FilePlace) throws(FormatError) -> T) throws(FormatError) -> T? {
        guard header.section(type) != nil else { return nil }
        let section = try locate(type)
        return try parse(unsafe file.view(of: section.range), section.place)
      }
      let blockingData = try locate(.blockingData)
      let identificationData = try locate(.identificationData)
      // The label blocks are in one of two sections, never both (`Spec/FORMAT.md` 9.1).
      if header.section(.labelData) != nil && header.section(.labelPrefixData) != nil {
        throw FormatError(unplaced: .sectionLayout("both LDAT and LPFX hold label blocks"))
      }
      labelCoding = header.section(.labelPrefixData) != nil ? .prefixed : .offsets
      let labelData = try locate(labelCoding.section)
      fileLength = file.count
      self.header = header
      let counted = header.major >= 2
      // The copies of the index headers, when the file has them, are read instead of the headers
      // themselves: they lie in the first page, the headers of long indexes do not. A fault in a
      // copied field is placed in the copy.
      let copies = try optional(.indexHeaders) { (bytes, place) throws(FormatError) in
        try IndexHeadersSection(parsing: bytes, at: place)
      }
      func entryIndex(_ kind: EntryKind, data: FileRange) throws(FormatError) -> EntryIndex.Shape {
        let (top, summary, groupChecks, summaryChecks, checkedTop) = kind.levelSections
        let section = try locate(kind.sections.index)
        let fields = copies?.header(of: kind.sections.index) ?? section
        var parsed = try EntryIndex.Shape(
          parsing: unsafe file.view(of: section.range), at: section.place, dataLength: data.count, countedBlocks: counted,
          header: (unsafe file.view(of: fields.range), fields.place))
        parsed.top = try optional(top) { (bytes, place) throws(FormatError) in
          try TopIndex.Shape(parsing: bytes, at: place, blockCount: parsed.blockCount)
        }
        // A summary stands for a top's samples: without the top it stands for nothing.
        let samples = parsed.top?.count
        parsed.summary = try optional(summary) { (bytes, place) throws(FormatError) in
          guard let samples else { throw place.error(.sectionLayout("\(summary.rawValue) summarises no \(top.rawValue)")) }
          return try TopIndex.Shape(parsing: bytes, at: place, blockCount: samples, summary: true)
        }
        // Group checks are over the groups a top defines: without the top there are none.
        let groups = parsed.top
        parsed.groupChecks = try optional(groupChecks) { (bytes, place) throws(FormatError) in
          guard let groups else {
            throw place.error(.sectionLayout("\(groupChecks.rawValue) checks groups of no \(top.rawValue)"))
          }
          return try GroupChecks.Shape(parsing: bytes, at: place, stride: groups.stride, groups: groups.count)
        }
        // Summary checks are over the groups a summary defines, and cover the group checks too.
        let (summaryGroups, checked) = (parsed.summary, parsed.groupChecks != nil)
        parsed.summaryChecks = try optional(summaryChecks) { (bytes, place) throws(FormatError) in
          guard let summaryGroups, checked else {
            let missing = summaryGroups == nil ? summary : groupChecks
            throw place.error(.sectionLayout("\(summaryChecks.rawValue) checks groups of no \(missing.rawValue)"))
          }
          return try GroupChecks.Shape(
            parsing: bytes, at: place, stride: summaryGroups.stride, groups: summaryGroups.count, summary: true)
        }
        // A checked top copies the top and its group checks in the summary's groups, which its
        // summary checks check: without all four it copies nothing a reader could check.
        let (checkedGroups, sampleCount) = (parsed.summaryChecks, parsed.top?.count)
        parsed.checkedTop = try optional(checkedTop) { (bytes, place) throws(FormatError) in
          guard let checkedGroups, let sampleCount else {
            throw place.error(.sectionLayout("\(checkedTop.rawValue) copies a top without \(summaryChecks.rawValue)"))
          }
          return try CheckedTop.Shape(parsing: bytes, at: place, stride: checkedGroups.stride, samples: sampleCount)
        }
        return parsed
      }
      blockingIndex = try entryIndex(.blocking, data: blockingData.range)
      identificationIndex = try entryIndex(.identification, data: identificationData.range)
      let labelSection = try locate(.labelIndex)
      let labelFields = copies?.header(of: .labelIndex) ?? labelSection
      labelIndex = try LabelIndex.Shape(
        parsing: unsafe file.view(of: labelSection.range), at: labelSection.place, dataLength: labelData.range.count,
        header: (unsafe file.view(of: labelFields.range), labelFields.place))
      // A kind's ranges are in fixed records or in range blocks (index and data together), never both.
      func ranges(_ kind: EntryKind) throws(FormatError) -> RangeTable.Shape {
        let labelled = kind == .identification
        let (fixed, blockIndex, blockData) = kind.rangeSections
        let present = [fixed, blockIndex, blockData].map { header.section($0) != nil }
        guard present[1] || present[2] else {
          return try optional(fixed) { (bytes, place) throws(FormatError) in
            try RangeTable.Shape(parsing: bytes, at: place, labelled: labelled)
          } ?? RangeTable.Shape(labelled: labelled)
        }
        guard !present[0] else {
          throw FormatError(unplaced: .sectionLayout("both \(fixed.rawValue) and range blocks hold \(kind) ranges"))
        }
        guard present[1] && present[2] else {
          throw FormatError(unplaced: .missingSection(present[1] ? blockData.rawValue : blockIndex.rawValue))
        }
        let index = try locate(blockIndex)
        let data = try locate(blockData)
        return RangeTable.Shape(
          blocks: try RangeBlocks.Shape(
            index: unsafe file.view(of: index.range), at: index.place, data: unsafe file.view(of: data.range), at: data.place,
            labelled: labelled))
      }
      blockingRanges = try ranges(.blocking)
      identificationRanges = try ranges(.identification)
      listVersion =
        try optional(.listVersion) { (bytes, place) throws(FormatError) in
          try ListVersionSection(parsing: bytes, at: place).version
        } ?? 0
      signature = try optional(.signature) { (bytes, place) throws(FormatError) in try SignatureSection(parsing: bytes, at: place)
      }
      dataOffsets = (blockingData.place.offset, identificationData.place.offset, labelData.place.offset)
    }
  }

  /// The whole file.
  @usableFromInline package let file: ByteView
  /// The parsed header and the places of the sections and indexes.
  @usableFromInline package let shape: Shape

  /// Parses the header, locates the sections and checks the indexes' headers.
  /// - Throws: `FormatError` as `Shape.init(parsing:)`.
  /// - Complexity: O(section count).
  @inlinable @_lifetime(copy file)
  package init(parsing file: ByteView) throws(FormatError) {
    shape = try Shape(parsing: file)
    self.file = file
  }

  /// The layout of `shape` over `file`, the bytes the shape was parsed from.
  /// - Complexity: O(1).
  @inlinable @inline(__always) @_lifetime(copy file)
  package init(_ shape: Shape, file: ByteView) {
    self.shape = shape
    self.file = file
  }

  /// The header and section table.
  @inlinable package var header: FileHeader { shape.header }
  /// How the label blocks hold their labels.
  @inlinable package var labelCoding: LabelCoding { shape.labelCoding }
  /// The provider's list version (section `VERS`), 0 for a file without one.
  @inlinable package var listVersion: UInt64 { shape.listVersion }
  /// The signature section, when the file is signed.
  @inlinable package var signature: SignatureSection? { shape.signature }
  /// The file offsets of the data sections.
  @inlinable package var dataOffsets: (blocking: Int, identification: Int, labels: Int) { shape.dataOffsets }
  /// The blocking index.
  @inlinable package var blockingIndex: EntryIndex { @_lifetime(copy self) get { EntryIndex(shape.blockingIndex, in: file) } }
  /// The identification index.
  @inlinable package var identificationIndex: EntryIndex {
    @_lifetime(copy self) get { EntryIndex(shape.identificationIndex, in: file) }
  }
  /// The label index.
  @inlinable package var labelIndex: LabelIndex { @_lifetime(copy self) get { LabelIndex(shape.labelIndex, in: file) } }
  /// The blocking ranges (empty when the file has no `BRNG` section or range blocks).
  @inlinable package var blockingRanges: RangeTable { @_lifetime(copy self) get { RangeTable(shape.blockingRanges, in: file) } }
  /// The identification ranges.
  @inlinable package var identificationRanges: RangeTable {
    @_lifetime(copy self) get { RangeTable(shape.identificationRanges, in: file) }
  }

  /// The ranges of `kind`.
  @inlinable @_lifetime(copy self)
  package func ranges(_ kind: EntryKind) -> RangeTable {
    RangeTable(shape.ranges(kind), in: file)
  }

  /// The index of `kind`.
  @inlinable @_lifetime(copy self)
  package func index(_ kind: EntryKind) -> EntryIndex {
    EntryIndex(shape.index(kind), in: file)
  }

  /// The section table entry of `type` (present: the parser checked).
  @usableFromInline package func section(_ type: SectionType) -> SectionEntry {
    header.section(type) ?? SectionEntry(type: type.code, flags: 0, offset: 0, length: 0, checksum: 0)
  }

  /// Checks the CRC-32 of section `type`, if the file has one, against the section table: for a
  /// reader about to rely on a whole section that open does not read (a stream over an index,
  /// whose records give each block's first number; a range table).
  /// - Throws: `FormatError.sectionChecksumMismatch` at the section's offset.
  /// - Complexity: O(section length).
  @usableFromInline package func checkChecksum(of type: SectionType) throws(FormatError) {
    guard let entry = header.section(type) else { return }
    // The header parser proved every section lies inside the file.
    let bytes = file.sliceOrEmpty(offset: Int(entry.offset), length: Int(entry.length))
    let computed = CRC32.checksum(bytes)
    guard computed == entry.checksum else {
      throw FormatError(
        .sectionChecksumMismatch(stored: entry.checksum, computed: computed), at: Int(entry.offset), section: type.rawValue)
    }
  }

  /// Entry block `number` of `kind`, its frame and header checked (not its checksum).
  ///
  /// - Parameter prefetching: give a prefetch hint for the block's first `prefetchBytes` bytes
  ///   before reading its frame, for a search whose later reads (the high bits at the block's
  ///   end, then one low part) each depend on the one before: the lines then arrive together.
  /// - Throws: `FormatError` with file offsets.
  /// - Complexity: O(1).
  @usableFromInline @_lifetime(copy self)
  package func entryBlock(_ kind: EntryKind, _ number: Int, prefetching: Bool = false) throws(FormatError)
    -> EntryBlock
  {
    let index = index(kind)
    let data = kind == .blocking ? dataOffsets.blocking : dataOffsets.identification
    let range = try index.blockRange(number)
    let entryCount = try index.entryCount(ofBlock: number)
    let place = FilePlace(kind.sections.data, at: data &+ range.lowerBound)
    let bytes = try file.slice(offset: place.offset, length: range.count, in: place)
    if prefetching { bytes.prefetch(offset: 0, length: min(bytes.count, Self.prefetchBytes)) }
    return try EntryBlock(
      parsing: bytes, at: place, number: number, entryCount: entryCount, identification: kind == .identification)
  }

  /// The most bytes of a block `entryBlock(_:_:prefetching:)` asks for: a block of 512 entries
  /// at 13 bits an entry is under 1 KiB, and a long deflated one is inflated anyway.
  @usableFromInline package static let prefetchBytes = 2048

  /// The file offset of entry block `number` of `kind` (0 when the index record is damaged).
  @usableFromInline package func blockOffset(_ kind: EntryKind, _ number: Int) -> Int {
    let base = kind == .blocking ? dataOffsets.blocking : dataOffsets.identification
    return base &+ ((try? index(kind).blockRange(number).lowerBound) ?? 0)
  }

  /// The file offset of label block `number` (0 when the index record is damaged).
  @usableFromInline package func labelBlockOffset(_ number: Int) -> Int {
    dataOffsets.labels &+ ((try? labelIndex.blockRange(number).lowerBound) ?? 0)
  }

  /// Label block `number`, its frame and header checked (not its checksum).
  /// - Throws: `FormatError` with file offsets.
  @usableFromInline @_lifetime(copy self)
  package func labelBlock(_ number: Int, labelCount: Int) throws(FormatError) -> LabelBlock {
    let range = try labelIndex.blockRange(number)
    let place = FilePlace(labelCoding.section, at: dataOffsets.labels &+ range.lowerBound)
    return try LabelBlock(
      parsing: try file.slice(offset: place.offset, length: range.count, in: place), at: place, number: number,
      labelCount: labelCount, coding: labelCoding)
  }
}
