import CProcessor
import CallDirectory
import Testing

@Suite struct RoundTripTests {
  @Test func emptyDirectory() throws {
    let bytes = try Contents().encoded()
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(reader.blockingCount == 0 && reader.identificationCount == 0 && reader.labelCount == 0)
    #expect(try Contents.read(reader) == Contents())
    #expect(try reader.isBlocked(12025550100) == false)
    #expect(try reader.label(for: 12025550100) == nil)
  }

  @Test func oneEntryEach() throws {
    let contents = Contents(blocking: [12025550100], identification: [(12025550123, "Acme Support")])
    let reader = try CallDirectoryReader(bytes: try contents.encoded())
    #expect(try Contents.read(reader) == contents)
    #expect(try reader.isBlocked(12025550100))
    #expect(try !reader.isBlocked(12025550101))
    #expect(try reader.label(for: 12025550123) == "Acme Support")
    #expect(try reader.label(for: 12025550100) == nil)
  }

  @Test(arguments: [1, 2, 3, 7, 64, 512, 4096])
  func seededRoundTrip(entriesPerBlock: Int) throws {
    let seed: UInt64 = 0x5EED_0000 + UInt64(entriesPerBlock)
    var random = SeededGenerator(seed: seed)
    var contents = Contents()
    let base: Int64 = 12_010_000_000
    for _ in 0..<3000 { contents.blocking.append(base + Int64.random(in: 0..<5_000_000, using: &random)) }
    let labels = ["Acme Support", "Пекарня", "東京タワー", "Spam, likely", "\"Quoted\"", "🍕 Pizza"]
    for _ in 0..<2000 {
      contents.identification.append(
        (base + Int64.random(in: 0..<5_000_000, using: &random), labels.randomElement(using: &random)!))
    }
    // One label per number: keep the last, as the canonical form does, and feed only that.
    let canonical = contents.canonical
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    let bytes = try canonical.encoded(options: options)
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(try Contents.read(reader) == canonical, "seed \(seed)")
    for number in canonical.blocking { #expect(try reader.isBlocked(number), "seed \(seed) number \(number)") }
    for (number, label) in canonical.identification { #expect(try reader.label(for: number) == label) }
    let blocked = Set(canonical.blocking)
    for _ in 0..<2000 {
      let probe = base + Int64.random(in: -10..<5_000_010, using: &random)
      #expect(try reader.isBlocked(probe) == blocked.contains(probe), "seed \(seed) probe \(probe)")
    }
    // Shuffled input gives identical bytes.
    var shuffled = canonical
    shuffled.blocking.shuffle(using: &random)
    shuffled.identification.shuffle(using: &random)
    #expect(try shuffled.encoded(options: options) == bytes)
  }

  @Test func extremes() throws {
    let contents = Contents(
      blocking: [1, 2, Int64.max / 2, Int64.max - 2, Int64.max - 1],
      identification: [(1, "one"), (Int64.max - 1, "max")])
    let reader = try CallDirectoryReader(bytes: try contents.encoded())
    #expect(try Contents.read(reader) == contents)
    for number in contents.blocking { #expect(try reader.isBlocked(number)) }
    #expect(try !reader.isBlocked(3))
    #expect(try !reader.isBlocked(Int64.max))
    #expect(try !reader.isBlocked(0))
    #expect(try !reader.isBlocked(-1))
    #expect(try !reader.isBlocked(Int64.min))
    #expect(try reader.label(for: Int64.max - 1) == "max")
  }
}

@Suite struct LayoutConstantTests {
  /// The section type codes and static names are constants; they must be the names' four ASCII bytes.
  @Test(arguments: SectionType.allCases)
  func sectionCodeMatchesName(_ type: SectionType) {
    var value: UInt32 = 0
    for (index, byte) in type.rawValue.utf8.enumerated() { value |= UInt32(byte) << (UInt32(index) * 8) }
    #expect(type.code == value)
    #expect(SectionType.name(of: type.code) == type.rawValue)
    #expect(type.name.description == type.rawValue)  // the static name errors are placed under
  }

  /// CProcessor's warm lookup (entry_find.h) reads a block's frame with its own copies of the
  /// format's constants: they are the Swift layer's.
  @Test func theWarmLookupsConstantsAreTheFormats() {
    #expect(Int(CALLDIR_BLOCK_HEADER) == FormatConstants.blockHeaderSize)
    #expect(Int(CALLDIR_BLOCK_TRAILER) == FormatConstants.blockTrailerSize)
    #expect(Int(CALLDIR_MOST_ENTRIES) == FormatConstants.maximumEntriesPerBlock)
    #expect(FormatConstants.maximumLowBits == 62 && FormatConstants.maximumLabelBits == 32)
    #expect(FormatConstants.entryIndexRecordSize == 16)
  }

  @Test func crcCheckValue() {
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }
}
