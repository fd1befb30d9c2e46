import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

@Suite("Listing writer")
struct ListingWriterTests {
  typealias Support = ListingTestSupport

  static func text(_ records: [ListingRecord]) throws -> String {
    String(decoding: try ListingWriter.render(records), as: UTF8.self)
  }

  @Test("Header, block rows with a trailing comma, identify rows")
  func rows() throws {
    #expect(
      try Self.text([.block(12_025_550_100), .identify(12_025_550_101, label: "Acme Support")])
        == "kind,number,label\nblock,+12025550100,\nidentify,+12025550101,Acme Support\n")
    #expect(try Self.text([]) == "kind,number,label\n")
    var writer = ListingWriter(header: false)
    try writer.appendBlock(1)
    #expect(writer.bytes == Support.bytes("block,+1,\n"))
  }

  @Test("A block record's label is not written")
  func blockLabelDropped() throws {
    #expect(
      try Self.text([ListingRecord(kind: .blocking, number: 5_550_100, label: "ignored")])
        == "kind,number,label\nblock,+5550100,\n")
  }

  @Test(
    "Quoting rules",
    arguments: [
      ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("a\nb", "\"a\nb\""),
      ("a\rb", "\"a\rb\""), (" lead", "\" lead\""), ("trail ", "\"trail \""), ("\ttab", "\"\ttab\""),
      ("tab\t", "\"tab\t\""), ("in side", "in side"), ("\"", "\"\"\"\""), ("电话", "电话"), ("#1", "#1"),
    ] as [(String, String)])
  func quoting(label: String, field: String) throws {
    #expect(
      try Self.text([.identify(12_025_550_100, label: label)]) == "kind,number,label\nidentify,+12025550100,\(field)\n")
  }

  @Test("Numbers at both ends of the domain")
  func numberDigits() throws {
    #expect(
      try Self.text([.block(1), .block(Int64.max - 1), .block(10), .block(1_000_000_000_000_000_000)])
        == "kind,number,label\nblock,+1,\nblock,+9223372036854775806,\nblock,+10,\nblock,+1000000000000000000,\n")
  }

  @Test("Flushing hands over the buffer and empties it, in either form", arguments: ["csv", "jsonl"])
  func flushing(form: String) throws {
    if form == "csv" {
      try Self.checkFlushing(ListingWriter())
    } else {
      try Self.checkFlushing(ListingJSONLines.Writer())
    }
  }

  /// Writes 10,000 rows through `writer`, flushing when full, and compares what the sink got
  /// with the same rows written unflushed.
  static func checkFlushing<Output: ListingOutput>(_ writer: Output) throws {
    var writer = writer
    var expected = writer
    var flushed: [UInt8] = []
    var flushes = 0
    let sink = { (chunk: [UInt8]) in
      flushed += chunk
      flushes += 1
    }
    for index in 0..<10_000 {
      let record = ListingRecord.identify(Int64(12_025_550_000 + index), label: "Label number \(index)")
      try writer.append(record)
      try expected.append(record)
      if index % 2 == 0 {
        try writer.appendBlock(Int64(index + 1))
        try expected.appendBlock(Int64(index + 1))
      }
      writer.flushIfFull(to: sink)
      #expect(writer.bytes.count < ListingWriter.flushThreshold + 100)
    }
    #expect(flushes > 1)
    writer.flush(to: sink)
    #expect(writer.bytes.isEmpty)
    #expect(flushed == expected.bytes)
    let before = flushes
    writer.flush(to: sink)
    #expect(flushes == before)
  }

  @Test("A failing sink keeps the buffer")
  func failingSink() throws {
    struct Failure: Error, Equatable {}
    var writer = ListingWriter()
    try writer.appendIdentification(12_025_550_100, label: "A")
    let before = writer.bytes
    #expect(throws: Failure()) {
      try writer.flush { (_: [UInt8]) throws(Failure) in throw Failure() }
    }
    #expect(writer.bytes == before)
  }
}

@Suite("Listing kinds")
struct ListingKindTests {
  @Test("The kind column uses the format's EntryKind raw values")
  func rawValues() throws {
    #expect(EntryKind.blocking.rawValue == "block")
    #expect(EntryKind.identification.rawValue == "identify")
    let records = try ListingParser.parse(
      bytes: Array("block,+12025550100,\nidentify,+12025550101,A\n".utf8), file: "k", parser: .formatDomain)
    #expect(records.map(\.kind) == [.blocking, .identification])
  }
}

/// A row no directory can hold is refused with the error naming it, and leaves the buffer as it
/// was, in either form.
@Suite struct ListingRowErrorTests {
  static func check<Output: ListingOutput>(_ empty: Output) throws {
    var writer = empty
    try writer.appendBlock(12_025_550_100)
    let before = writer.bytes
    #expect(throws: ListingRowError.numberOutOfRange(0...0)) { try writer.appendBlock(0) }
    #expect(throws: ListingRowError.numberOutOfRange(Int64.max...Int64.max)) { try writer.appendBlock(Int64.max) }
    #expect(throws: ListingRowError.numberOutOfRange(-5...7)) { try writer.appendBlock(-5...7) }
    #expect(throws: ListingRowError.numberOutOfRange(1...Int64.max)) {
      try writer.appendIdentification(1...Int64.max, label: "Acme")
    }
    #expect(throws: ListingRowError.badLabelLength(numbers: 5...5, length: 0)) { try writer.appendIdentification(5, label: "") }
    let long = String(repeating: "é", count: 32_768)
    #expect(throws: ListingRowError.badLabelLength(numbers: 5...9, length: 65_536)) {
      try writer.appendIdentification(5...9, label: long)
    }
    #expect(throws: ListingRowError.missingLabel(numbers: 5...5)) {
      try writer.append(ListingRecord(kind: .identification, numbers: 5...5, line: 1))
    }
    #expect(writer.bytes == before)
    // The edges are written.
    try writer.appendBlock(1...Limits.maximumNumber)
    try writer.appendIdentification(7, label: String(repeating: "x", count: Limits.maximumLabelBytes))
    #expect(writer.bytes.count > before.count + Limits.maximumLabelBytes)
  }

  @Test func csvRefusesWhatNoDirectoryHolds() throws { try Self.check(ListingWriter()) }
  @Test func jsonLinesRefusesWhatNoDirectoryHolds() throws { try Self.check(ListingJSONLines.Writer()) }
  @Test func tsvRefusesWhatNoDirectoryHolds() throws { try Self.check(ListingWriter(format: .tsv)) }

  @Test func theMessageNamesTheRun() {
    #expect(ListingRowError.numberOutOfRange(0...3).description == "number +0..+3 is outside 1...\(Limits.maximumNumber)")
    #expect(ListingRowError.missingLabel(numbers: 5...5).description == "identification entry +5 has no label")
  }
}
