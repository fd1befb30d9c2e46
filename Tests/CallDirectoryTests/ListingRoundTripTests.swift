import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

@Suite("Listing round trip")
struct ListingRoundTripTests {
  typealias Support = ListingTestSupport

  /// Label pieces chosen to exercise quoting and multi-byte UTF-8.
  static let pieces = [
    "Acme", "电话客服", "Служба поддержки", "😀", "🇺🇸", "é", ",", "\"", "\n", "\r\n", "\r", " ", "\t", "a,b",
    "say \"hi\"", "#", "kind,number,label", "block", "\u{FEFF}", "ﬁ", "\u{0301}", "x",
  ]

  static func randomLabel(using generator: inout Support.SplitMix64) -> String {
    var label = ""
    for _ in 0..<Int.random(in: 1...6, using: &generator) {
      label += pieces.randomElement(using: &generator)!
    }
    return label
  }

  static func randomNumber(using generator: inout Support.SplitMix64) -> Int64 {
    switch Int.random(in: 0..<8, using: &generator) {
    case 0: return 1
    case 1: return Int64.max - 1
    case 2: return Int64.random(in: 1...999, using: &generator)
    default:
      // Spread over every magnitude, not just the 19-digit values a uniform draw favours.
      let digits = Int.random(in: 1...18, using: &generator)
      var upper: Int64 = 1
      for _ in 0..<digits { upper *= 10 }
      return Int64.random(in: (upper / 10)...(upper - 1), using: &generator)
    }
  }

  @Test("Seeded random records survive writing and reading back", arguments: [0x0C0F_FEE0 as UInt64, 42, 0xDEAD_BEEF])
  func randomRoundTrip(seed: UInt64) throws {
    var generator = Support.SplitMix64(seed: seed)
    var records: [ListingRecord] = []
    var line = 2  // after the header
    for _ in 0..<3_000 {
      let number = Self.randomNumber(using: &generator)
      if Bool.random(using: &generator) {
        records.append(.block(number, line: line))
        line += 1
      } else {
        let label = Self.randomLabel(using: &generator)
        records.append(.identify(number, label: label, line: line))
        // Line breaks inside a quoted label move the next record down.
        line += 1 + label.utf8.filter { $0 == 0x0A }.count
      }
    }
    let bytes = try ListingWriter.render(records)
    let parsed = try ListingParser.parse(bytes: bytes, file: "round-trip-\(seed).csv", parser: .formatDomain)
    #expect(parsed.count == records.count, "seed \(seed)")
    for (written, read) in zip(records, parsed) where written != read {
      Issue.record("seed \(seed): wrote \(written), read \(read)")
      break
    }
  }

  @Test("As TSV, seeded random records survive; a label TSV cannot carry is refused, the buffer kept")
  func randomTabSeparatedRoundTrip() throws {
    var generator = Support.SplitMix64(seed: 0x75F)
    var writer = ListingWriter(format: .tsv)
    var written: [ListingRecord] = []
    var refused = 0
    for _ in 0..<3_000 {
      let number = Self.randomNumber(using: &generator)
      let line = written.count + 2  // one line a record, after the header
      guard Bool.random(using: &generator) else {
        try writer.appendBlock(number)
        written.append(.block(number, line: line))
        continue
      }
      let label = Self.randomLabel(using: &generator)
      let utf8 = Array(label.utf8)
      let carried =
        !utf8.contains { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        && ![0x20, 0x09].contains(utf8.first!) && ![0x20, 0x09].contains(utf8.last!)
      if carried {
        try writer.appendIdentification(number, label: label)
        written.append(.identify(number, label: label, line: line))
      } else {
        let before = writer.bytes
        #expect(throws: ListingRowError.labelNotTabSeparable(numbers: number...number)) {
          try writer.appendIdentification(number, label: label)
        }
        #expect(writer.bytes == before)
        refused += 1
      }
    }
    #expect(refused > 100 && written.count > 2_000)
    let parsed = try ListingParser.parse(bytes: writer.bytes, file: "round-trip.tsv", parser: .formatDomain, format: .tsv)
    #expect(parsed == written)
    #expect(
      writer.bytes.starts(with: Array("kind\tnumber\tlabel\nblock\t+".utf8))
        || writer.bytes.starts(with: Array("kind\tnumber\tlabel\nidentify\t+".utf8)))
  }

  @Test("Labels at the length limit round-trip")
  func longLabels() throws {
    let longest = String(repeating: "\"", count: Limits.maximumLabelBytes)
    let records: [ListingRecord] = [
      .identify(1, label: longest, line: 2), .identify(Int64.max - 1, label: "😀", line: 3),
    ]
    let parsed = try ListingParser.parse(bytes: ListingWriter.render(records), file: "x", parser: .formatDomain)
    #expect(parsed == records)
  }

  @Test("Listings written in chunks read back like one buffer")
  func chunkedWrite() throws {
    var generator = Support.SplitMix64(seed: 7)
    var writer = ListingWriter()
    var output: [UInt8] = []
    var records: [ListingRecord] = []
    for _ in 0..<20_000 {
      let record = ListingRecord.identify(
        Self.randomNumber(using: &generator), label: Self.randomLabel(using: &generator))
      records.append(record)
      try writer.append(record)
      writer.flushIfFull { output += $0 }
    }
    writer.flush { output += $0 }
    let parsed = try ListingParser.parse(bytes: output, file: "x", parser: .formatDomain)
    #expect(parsed.map(\.label) == records.map(\.label))
    #expect(parsed.map(\.number) == records.map(\.number))
  }
}
