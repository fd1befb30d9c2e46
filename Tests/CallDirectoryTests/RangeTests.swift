import CallDirectory
import Testing

/// Range entries: storage, lookups at their edges, merging, conflicts, streaming.
@Suite struct RangeTests {
  static func reader(_ build: (inout DirectoryBuilder) throws -> Void) throws -> CallDirectoryReader {
    var builder = DirectoryBuilder()
    try build(&builder)
    return try CallDirectoryReader(bytes: try builder.encoded())
  }

  static func ranges(_ reader: CallDirectoryReader) throws -> (
    blocking: [ClosedRange<Int64>], identification: [(ClosedRange<Int64>, String)]
  ) {
    var blocking: [ClosedRange<Int64>] = []
    var identification: [(ClosedRange<Int64>, String)] = []
    try reader.forEachBlockingRange { blocking.append($0) }
    try reader.forEachIdentificationRange { identification.append(($0, $1)) }
    return (blocking, identification)
  }

  /// A range at its edges: first, last, and one outside each end; singles next to it.
  @Test(arguments: [
    33_899_000_000...33_899_999_999, 1...2, (Int64.max - 3)...(Int64.max - 1), 12_025_550_100...12_025_550_199,
  ])
  func edges(_ range: ClosedRange<Int64>) throws {
    let below = range.lowerBound - 2
    let reader = try Self.reader { builder in
      try builder.block(range)
      if below >= 1 { try builder.block(below) }
      try builder.identify(range, label: "Premium rate")
    }
    #expect(reader.version == (FormatVersion.major, FormatVersion.minor(paged: false)))
    for number in [range.lowerBound, range.upperBound, range.lowerBound + (range.upperBound - range.lowerBound) / 2] {
      #expect(try reader.isBlocked(number), "\(number)")
      #expect(try reader.label(for: number) == "Premium rate")
    }
    if range.lowerBound > 1 {
      #expect(try !reader.isBlocked(range.lowerBound - 1))
      #expect(try reader.label(for: range.lowerBound - 1) == nil)
    }
    if range.upperBound < Int64.max - 1 {
      #expect(try !reader.isBlocked(range.upperBound + 1))
      #expect(try reader.label(for: range.upperBound + 1) == nil)
    }
    if below >= 1 { #expect(try reader.isBlocked(below)) }
    #expect(
      Verifier.verify(
        try {
          var b = DirectoryBuilder()
          try b.block(range)
          return try b.encoded()
        }()
      ).isValid)
  }

  /// A whole country calling code: +33 and every number of up to 15 digits after it.
  @Test func wholeCountryCode() throws {
    let france: ClosedRange<Int64> = 330_000_000_000_000...339_999_999_999_999
    let reader = try Self.reader { try $0.block(france) }
    #expect(try reader.isBlocked(331_234_567_890_123))
    #expect(try !reader.isBlocked(340_000_000_000_000))
    #expect(reader.fileSize < 400, "a ten-trillion-number range costs bytes: \(reader.fileSize)")
  }

  @Test func blockingRangesMergeAndCoverSingles() throws {
    let reader = try Self.reader { builder in
      try builder.block(100...199)
      try builder.block(150...250)  // overlaps
      try builder.block(251...300)  // adjacent
      try builder.block(500...600)
      try builder.block(120)  // covered: dropped
      try builder.block(400)  // stays a single
      try builder.block(700...700)  // one number: a single
    }
    #expect(try Self.ranges(reader).blocking == [100...300, 500...600])
    var singles: [Int64] = []
    try reader.forEachBlocking { singles.append($0) }
    #expect(singles == [400, 700])
  }

  @Test func identificationRangesMergeSameLabelOnly() throws {
    let reader = try Self.reader { builder in
      try builder.identify(100...199, label: "A")
      try builder.identify(200...299, label: "A")  // adjacent, same label: merged
      try builder.identify(300...399, label: "B")  // adjacent, other label: kept apart
      try builder.identify(150, label: "A")  // covered with the same label: dropped
      try builder.identify(1000, label: "C")
    }
    let ranges = try Self.ranges(reader).identification
    #expect(ranges.map(\.0) == [100...299, 300...399])
    #expect(ranges.map(\.1) == ["A", "B"])
    var singles: [Int64] = []
    try reader.forEachIdentification { number, _ in singles.append(number) }
    #expect(singles == [1000])
    #expect(try reader.label(for: 299) == "A")
    #expect(try reader.label(for: 300) == "B")
  }

  @Test func conflictsAreRefusedNamingBoth() throws {
    var overlapping = DirectoryBuilder()
    try overlapping.identify(100...199, label: "Bank")
    try overlapping.identify(150...250, label: "Scam")
    #expect(throws: WriterError.overlappingRanges(first: 100...199, firstLabel: "Bank", second: 150...250, secondLabel: "Scam")) {
      try overlapping.encoded()
    }
    var same = DirectoryBuilder()
    try same.identify(100...199, label: "Bank")
    try same.identify(100...199, label: "Scam")
    #expect(throws: WriterError.overlappingRanges(first: 100...199, firstLabel: "Bank", second: 100...199, secondLabel: "Scam")) {
      try same.encoded()
    }
    var builder = DirectoryBuilder()
    #expect(throws: WriterError.invalidRange(first: 0, last: 10)) { try builder.block(0...10) }
    #expect(throws: WriterError.invalidRange(first: 1, last: Int64.max)) { try builder.block(1...Int64.max) }
  }

  @Test func filesWithoutRangesHaveSixSections() throws {
    let reader = try Self.reader { try $0.block(12_025_550_100) }
    #expect(reader.version == (FormatVersion.major, FormatVersion.minor(paged: false)))
    #expect(reader.shape.header.sections.count == 6)
  }

  /// Seeded random ranges and singles: every lookup agrees with a plain model.
  @Test func seededRangesAgreeWithAModel() throws {
    let seed: UInt64 = 0x4A_46_E5
    var random = SeededGenerator(seed: seed)
    var builder = DirectoryBuilder()
    var model: [ClosedRange<Int64>] = []
    var singles = Set<Int64>()
    for _ in 0..<200 {
      let start = Int64.random(in: 1_000_000...2_000_000, using: &random)
      let range = start...(start + Int64.random(in: 1...5_000, using: &random))
      try builder.block(range)
      model.append(range)
    }
    for _ in 0..<500 {
      let number = Int64.random(in: 999_000...2_006_000, using: &random)
      try builder.block(number)
      singles.insert(number)
    }
    let reader = try CallDirectoryReader(bytes: try builder.encoded())
    for _ in 0..<5000 {
      let probe = Int64.random(in: 998_000...2_007_000, using: &random)
      let expected = singles.contains(probe) || model.contains { $0.contains(probe) }
      #expect(try reader.isBlocked(probe) == expected, "seed \(seed) probe \(probe)")
    }
    #expect(Verifier.verify(try builder.encoded()).isValid)
  }
}
