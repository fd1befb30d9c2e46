import CallDirectory
import Testing

/// A directory file taken apart into its sections, to patch fields and put back together with the
/// section checksums and the header checksum recomputed, so that a hostile value gets past the
/// checksums and reaches the checks behind them.
struct CraftedFile {
  struct Section {
    var type: UInt32
    var flags: UInt32
    var bytes: [UInt8]
  }

  var sections: [Section]
  /// The version the file is written with: that of the file taken apart, so a version 1 file
  /// (the invalid vectors of Spec/vectors/invalid were made from one) stays one.
  var version: (major: UInt16, minor: UInt16)

  init(sections: [Section], version: (major: UInt16, minor: UInt16) = (FormatVersion.major, FormatVersion.minor)) {
    self.sections = sections
    self.version = version
  }

  /// The sections of a file the reader opens.
  init(_ file: [UInt8]) throws {
    let header = try CallDirectoryReader(bytes: file).shape.header
    version = (header.major, header.minor)
    sections = header.sections.map { entry in
      Section(type: entry.type, flags: entry.flags, bytes: Array(file[Int(entry.offset)..<Int(entry.offset + entry.length)]))
    }
  }

  /// The file: header and table with fresh checksums, then the sections in order.
  var bytes: [UInt8] {
    var offset = UInt64(FileHeader.size(sectionCount: sections.count))
    var table: [SectionEntry] = []
    for section in sections {
      table.append(
        SectionEntry(
          type: section.type, flags: section.flags, offset: offset, length: UInt64(section.bytes.count),
          checksum: CRC32.checksum(section.bytes)))
      offset += UInt64(section.bytes.count)
    }
    var file = FileHeader(major: version.major, minor: version.minor, fileLength: offset, sections: table).encoded()
    for section in sections { file.append(contentsOf: section.bytes) }
    return file
  }

  /// The bytes of the section of `type`.
  subscript(type: SectionType) -> [UInt8] {
    get { sections.first { $0.type == type.code }?.bytes ?? [] }
    set {
      if let index = sections.firstIndex(where: { $0.type == type.code }) { sections[index].bytes = newValue }
    }
  }

  /// The file offset where the section of `type` starts.
  func offset(of type: SectionType) -> Int {
    var offset = FileHeader.size(sectionCount: sections.count)
    for section in sections {
      if section.type == type.code { return offset }
      offset += section.bytes.count
    }
    return offset
  }

  /// The blocks' ranges in `kind`'s data section, as its (undamaged) index gives them.
  func blockRanges(_ kind: EntryKind) -> [Range<Int>] {
    let index = self[kind.sections.index]
    let blocks = (index.count - FormatConstants.entryIndexHeaderSize) / FormatConstants.entryIndexRecordSize
    return Self.ranges(
      (0..<blocks).map {
        // Version 2 keeps the block's entry count in the offset field's top 16 bits.
        let stored = index.uint64LE(at: FormatConstants.entryIndexHeaderSize + $0 * FormatConstants.entryIndexRecordSize + 8)
        return Int(version.major >= 2 ? stored & (1 << 48 - 1) : stored)
      },
      end: self[kind.sections.data].count)
  }

  /// The section that holds the label blocks: `LPFX` when the file has one, else `LDAT`.
  var labelSection: SectionType {
    sections.contains { $0.type == SectionType.labelPrefixData.code } ? .labelPrefixData : .labelData
  }

  /// The label blocks' ranges in the label data section.
  func labelBlockRanges() -> [Range<Int>] {
    let index = self[.labelIndex]
    let blocks = Int(index.uint32LE(at: 4))
    return Self.ranges(
      (0..<blocks).map {
        Int(index.uint64LE(at: FormatConstants.labelIndexHeaderSize + $0 * FormatConstants.labelIndexRecordSize + 8))
      },
      end: self[labelSection].count)
  }

  private static func ranges(_ starts: [Int], end: Int) -> [Range<Int>] {
    starts.indices.map { starts[$0]..<($0 + 1 < starts.count ? starts[$0 + 1] : end) }
  }

  /// Recomputes the trailing CRC-32 of the block at `range` of section `type`.
  mutating func resealBlock(in type: SectionType, _ range: Range<Int>) {
    var data = self[type]
    data.setUInt32LE(CRC32.checksum(Array(data[range.lowerBound..<(range.upperBound - 4)])), at: range.upperBound - 4)
    self[type] = data
  }

  /// Overwrites bytes of section `type` starting at `offset`.
  mutating func patch(_ type: SectionType, at offset: Int, _ bytes: [UInt8]) {
    var data = self[type]
    data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    self[type] = data
  }

  /// Overwrites a little-endian `UInt64` of section `type`.
  mutating func patch(_ type: SectionType, at offset: Int, uint64 value: UInt64) {
    var bytes: [UInt8] = []
    bytes.appendUInt64LE(value)
    patch(type, at: offset, bytes)
  }

  /// Overwrites a little-endian `UInt32` of section `type`.
  mutating func patch(_ type: SectionType, at offset: Int, uint32 value: UInt32) {
    var bytes: [UInt8] = []
    bytes.appendUInt32LE(value)
    patch(type, at: offset, bytes)
  }
}

extension CraftedFile {
  /// The file without its sections of `types`.
  func without(_ types: SectionType...) -> CraftedFile {
    var copy = self
    copy.sections.removeAll { section in types.contains { $0.code == section.type } }
    return copy
  }

  /// The file with section `type`'s last `count` bytes dropped.
  func shortened(_ type: SectionType, by count: Int) -> CraftedFile {
    var copy = self
    copy[type] = Array(copy[type].dropLast(count))
    return copy
  }

  /// Expects the file to be refused at open with `kind`, placed at the start of section `type`.
  func expectRefusedAtOpen(_ kind: FormatError.Kind, at type: SectionType, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = FormatError(kind, at: offset(of: type), section: type.rawValue)
    #expect(throws: expected, sourceLocation: sourceLocation) { try CallDirectoryReader(bytes: bytes) }
  }
}

extension Array where Element == UInt8 {
  /// The little-endian `UInt32` at `offset`.
  func uint32LE(at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * UInt32($1)) }
  }

  /// The little-endian `UInt64` at `offset`.
  func uint64LE(at offset: Int) -> UInt64 {
    (0..<8).reduce(0) { $0 | UInt64(self[offset + $1]) << (8 * UInt64($1)) }
  }
}

/// Small files for the damage tests, with what they hold.
enum VerifierSamples {
  static let labels = ["Acme Support", String(repeating: "Spam call ", count: 12), "Z", "Пекарня", "🍕 Pizza"]

  /// 256 consecutive numbers (their block deflates), then three clusters of 20 random numbers a
  /// billion apart, in blocks of at most 256: the gaps between clusters end their blocks, so the
  /// kind has four blocks.
  static let blocking: [Int64] = {
    var random = SeededGenerator(seed: 0x5EED_B10C)
    let dense = (0..<256).map { 12_000_000_000 + Int64($0) }
    var scattered = Set<Int64>()
    for cluster in 0..<3 {
      let base = 13_000_000_000 + Int64(cluster) * 1_000_000_000
      var numbers = Set<Int64>()
      while numbers.count < 20 { numbers.insert(base + Int64.random(in: 0..<100_000, using: &random)) }
      scattered.formUnion(numbers)
    }
    return (dense + scattered).sorted()
  }()

  /// Ten numbers in blocks of 4; the first names the last label, so its block's ids are 3 bits wide.
  static let identification: [(Int64, String)] = (0..<10).map { entry in
    (13_000_000_000 + Int64(entry) * 7919, labels[(4 + entry) % labels.count])
  }

  /// The contents the small file holds.
  static var contents: Contents {
    Contents(blocking: blocking, identification: identification).canonical
  }

  /// A few hundred bytes with several blocks of each kind, one deflated entry block and one
  /// deflated label block: blocking sections from a writer with 256 entries per block, the rest
  /// from one with 4 and small label blocks. The label blocks are in `LDAT`, whose offset tables
  /// the hostile tests patch, unless `prefixCoded` (`LPFX`, as the canonical writer makes them).
  static func smallFile(prefixCoded: Bool = false) throws -> [UInt8] {
    var blockingOptions = DirectoryBuilder.Options()
    blockingOptions.entriesPerBlock = 256
    let blockingFile = try CraftedFile(Contents(blocking: blocking).encoded(options: blockingOptions))
    var otherOptions = DirectoryBuilder.Options()
    otherOptions.entriesPerBlock = 4
    otherOptions.labelBlockTarget = 64
    otherOptions.prefixCodedLabels = prefixCoded
    var file = try CraftedFile(Contents(identification: identification).encoded(options: otherOptions))
    file[.blockingData] = blockingFile[.blockingData]
    file[.blockingIndex] = blockingFile[.blockingIndex]
    return file.bytes
  }

  /// Numbers worth looking up in the small file: present ones of each kind and absent ones.
  static var probes: [Int64] {
    [blocking[0], blocking[5], blocking[40], blocking[blocking.count - 1], identification[0].0, identification[9].0]
      + [1, 12_000_000_256, 13_000_000_000, 14_000_050_000, Int64.max - 1]
  }
}

/// Uses a possibly damaged file every way a reader can: open, stream both kinds, pull a cursor
/// past a thrown error, look up numbers and labels. Errors are expected; a trap fails the test run.
func exerciseReader(_ bytes: [UInt8], probes: [Int64]) {
  guard let reader = try? CallDirectoryReader(bytes: bytes) else { return }
  _ = try? reader.forEachBlocking { _ in }
  _ = try? reader.forEachIdentification { _, _ in }
  _ = try? reader.forEachBlockingRange { _ in }
  _ = try? reader.forEachIdentificationRange { _, _ in }
  for kind in EntryKind.allCases {
    var cursor = reader.cursor(kind)
    // Bounded: a damaged count must not make this loop long.
    for _ in 0..<min(reader.layout.index(kind).entryCount + 2, 200) { _ = try? cursor.next() }
  }
  for number in probes { _ = try? reader.lookup(number) }
  for id in [0, 1, 2, reader.labelCount - 1, reader.labelCount, Int(UInt32.max)] { _ = try? reader.label(id: id) }
}
