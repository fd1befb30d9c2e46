import CallDirectory
import Testing

/// `CallDirectoryReader.statistics()`: the figures `calldir info` prints, through public API.
struct DirectoryStatisticsTests {
  @Test func countsRangesAndSectionsOfASmallDirectory() throws {
    var builder = DirectoryBuilder()
    builder.options.listVersion = 7
    for number: Int64 in [12_025_550_100, 12_025_550_101, 12_025_550_300] { try builder.block(number) }
    try builder.block(33_899_000_000...33_899_000_099)
    try builder.identify(12_025_550_123, label: "Acme")
    try builder.identify(12_025_550_124, label: "Acme")
    let reader = try CallDirectoryReader(bytes: try builder.encoded())
    let statistics = try reader.statistics()

    #expect(statistics.blocking.entries == 3 && statistics.blocking.blocks == 1)
    #expect(statistics.blocking.first == 12_025_550_100 && statistics.blocking.last == 12_025_550_300)
    #expect(statistics.blocking.ranges == 1 && statistics.blocking.rangeNumbers == 100)
    #expect(statistics.identification.entries == 2 && statistics.identification.ranges == 0)
    #expect(statistics.labelCount == 1 && statistics.labelBlocks == 1)
    #expect(statistics.listVersion == 7 && statistics.signer == nil)
    #expect(statistics.fileSize == reader.fileSize)
    #expect(statistics.version.major == reader.version.major && statistics.version.minor == reader.version.minor)
    // The sections lie in the file, each after the one before it.
    var end: UInt64 = 0
    for section in statistics.sections {
      #expect(section.offset >= end && section.offset + section.length <= UInt64(statistics.fileSize))
      end = section.offset + section.length
    }
    #expect(statistics.sections.contains { $0.type == "BDAT" })
  }

  @Test func anEmptyDirectoryHasNoFirstOrLastNumber() throws {
    let statistics = try CallDirectoryReader(bytes: try DirectoryBuilder().encoded()).statistics()
    for kind in [statistics.blocking, statistics.identification] {
      #expect(kind.entries == 0 && kind.blocks == 0 && kind.deflatedBlocks == 0 && kind.ranges == 0)
      #expect(kind.first == nil && kind.last == nil)
    }
    #expect(statistics.labelCount == 0)
  }
}
