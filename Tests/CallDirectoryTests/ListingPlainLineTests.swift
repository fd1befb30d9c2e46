import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

/// `PlainLine` reads a listing's common lines without the general CSV reader. Whatever it reads
/// must be what the general path reads; whatever it declines, the general path reads or refuses.
/// The general path reads an input's first record itself (it may be a header), so a line alone is
/// the reference and the same line after another is the plain lane.
@Suite("Listing plain lines")
struct ListingPlainLineTests {
  typealias Support = ListingTestSupport

  /// What parsing `lines` gives: each entry's kind, numbers, label bytes and line, or an error's
  /// line and message.
  enum Outcome: Equatable {
    case entries([Read])
    case failure(line: Int, message: String)
  }

  struct Read: Equatable {
    var kind: ListingKind
    var numbers: ClosedRange<Int64>
    var label: [UInt8]?
    var line: Int
  }

  /// The outcome of parsing `input` into records; with `lent`, of `forEachEntry`, whose labels
  /// are lent as spans (a blocking entry's empty span read as no label).
  static func outcome(
    _ input: [UInt8], identifyFile: Bool, parser: PhoneNumberParser = .formatDomain, lent: Bool = false
  ) -> Outcome {
    var reads: [Read] = []
    let collect = { (record: ListingRecord) throws(ListingError) in
      reads.append(Read(kind: record.kind, numbers: record.numbers, label: record.labelUTF8.map(Array.init), line: record.line))
    }
    let collectLent = { (entry: ListingEntry, label: Span<UInt8>) throws(ListingError) in
      var bytes: [UInt8] = []
      for index in label.indices { bytes.append(label[index]) }
      let text = entry.kind == .identification ? bytes : nil
      #expect(entry.kind == .identification || bytes.isEmpty)
      reads.append(Read(kind: entry.kind, numbers: entry.numbers, label: text, line: entry.line))
    }
    do {
      switch (identifyFile, lent) {
      case (true, false): try IdentifyCSVParser.parse(bytes: input, file: "in.csv", parser: parser, each: collect)
      case (true, true): try IdentifyCSVParser.forEachEntry(bytes: input, file: "in.csv", parser: parser, collectLent)
      case (false, false): try ListingParser.parse(bytes: input, file: "in.csv", parser: parser, each: collect)
      case (false, true): try ListingParser.forEachEntry(bytes: input, file: "in.csv", parser: parser, collectLent)
      }
      return .entries(reads)
    } catch {
      return .failure(line: error.line, message: error.message)
    }
  }

  /// The outcome of `line` alone, read by the general path, moved down one line as if a first
  /// line came before it.
  static func reference(_ line: [UInt8], identifyFile: Bool, parser: PhoneNumberParser = .formatDomain) -> Outcome {
    switch outcome(line, identifyFile: identifyFile, parser: parser) {
    case .entries(let reads): .entries(reads.map { Read(kind: $0.kind, numbers: $0.numbers, label: $0.label, line: $0.line + 1) })
    case .failure(let line, let message): .failure(line: line + 1, message: message)
    }
  }

  /// A line that is plain, or almost: each piece is drawn from the forms the plain lane reads and
  /// from their near neighbours, which it must leave to the general path.
  /// Labels of 300 bytes, of the most a label may have, and of one byte more: made once.
  static let longLabel = String(repeating: "x", count: 300)
  static let longestLabel = String(repeating: "x", count: 65_534)
  static let overlongLabel = String(repeating: "y", count: 65_535)

  static func randomLine(identifyFile: Bool, using generator: inout Support.SplitMix64) -> [UInt8] {
    // Each piece is plain seven times in eight, so that about half of the lines are plain.
    func pick<T>(_ plain: [T], else near: [T]) -> T {
      let choices = generator.next() % 8 == 0 ? near : plain
      return choices[Int(generator.next() % UInt64(choices.count))]
    }
    let count = pick(Array(1...18), else: [0, 19, 20])
    let digits = (0..<count).map { _ in String(generator.next() % 10) }.joined()
    let number =
      pick(["+"], else: ["", " +", "+0", "tel:+", "++"]) + digits + pick([""], else: ["..+19", "#", "X", ";ext=1", " ", "-1"])
    let label = pick(
      ["Acme", "Strömtonélaburg School", "東京 Trading", "مكتبة", "\u{1F600} Fun", Self.longLabel],
      else: [
        "", "a,b", "\"Quoted\"", "say \"hi\"", "\"Smith, Jones\"", "\"a,b,c,\"", "\"x\"\"y\"", "\"open", "\"a\"b", "\"\"",
        "\"two\nlines\"", "\"cr\r\"", "\"Café, Zoë\"", " spaced ", Self.longestLabel, Self.overlongLabel, "\u{FEFF}bom",
      ])
    var bytes = Array(label.utf8)
    // Not UTF-8, as it is or in quotes.
    bytes = pick(
      [bytes],
      else: [bytes + [0xFF], [0xC3] + bytes, [0xE0, 0x80, 0x80], bytes + [0xED, 0xA0, 0x80], [0x22, 0x41, 0xFF, 0x2C, 0x22]])
    let kind = pick(["identify", "block"], else: ["Block", "identif", "blocks", "\"block\"", ""])
    var fields: [[UInt8]] = identifyFile ? [] : [Array(kind.utf8)]
    fields.append(Array(number.utf8))
    fields += pick([[bytes], [bytes], [[]], []], else: [[bytes, Array("extra".utf8)], [[], []]])
    var line = Array(fields.joined(separator: [0x2C]))
    line += pick([[0x0A], []], else: [[0x0D, 0x0A], [0x0D], [0x0A, 0x0A]])
    return line
  }

  @Test("Plain lanes, and the lent form, read every line as the general path does", arguments: [false, true])
  func agreesWithTheGeneralPath(identifyFile: Bool) {
    let seed: UInt64 = identifyFile ? 0x1D3_5EED : 0x115_5EED
    var generator = Support.SplitMix64(seed: seed)
    let first = Array((identifyFile ? "+15550000000,First\n" : "block,+15550000000\n").utf8)
    let firstRead = Read(
      kind: identifyFile ? .identification : .blocking, numbers: 15_550_000_000...15_550_000_000,
      label: identifyFile ? Array("First".utf8) : nil, line: 1)
    var plainCount = 0
    for _ in 0..<3_000 {
      let line = Self.randomLine(identifyFile: identifyFile, using: &generator)
      let expected: Outcome =
        switch Self.reference(line, identifyFile: identifyFile) {
        case .entries(let reads): .entries([firstRead] + reads)
        case let failure: failure
        }
      let shown = String(decoding: line.prefix(80), as: UTF8.self).debugDescription
      #expect(Self.outcome(first + line, identifyFile: identifyFile) == expected, "seed \(seed): \(shown)")
      #expect(Self.outcome(first + line, identifyFile: identifyFile, lent: true) == expected, "lent, seed \(seed): \(shown)")
      let entry =
        identifyFile
        ? PlainLine.identification(line, at: 0, parser: .formatDomain) : PlainLine.listing(line, at: 0, parser: .formatDomain)
      if entry != nil { plainCount += 1 }
    }
    // The generator reaches both lanes often.
    #expect(plainCount > 450 && plainCount < 2_400, "plain lines: \(plainCount)")
  }

  @Test("A block list reads + and digits in place as the general scan reads them", arguments: [false, true])
  func blockListNumbers(countryCode: Bool) throws {
    let parser = countryCode ? try PhoneNumberParser(defaultCountryCode: 44) : PhoneNumberParser.formatDomain
    var generator = Support.SplitMix64(seed: countryCode ? 0xB10C_44 : 0xB10C_00)
    for _ in 0..<3_000 {
      let count = Int(generator.next() % 21)
      let digits = (0..<count).map { _ in String(generator.next() % 10) }.joined()
      let prefixes = ["+", "+", "", " +", "+0", "0", "tel:+", "++"]
      let suffixes = ["", "", " ", "\t", "..+19", "#", "-1"]
      let text = prefixes[Int(generator.next() % 8)] + digits + suffixes[Int(generator.next() % 7)]
      // A block list reads the line without the spaces and tabs around it.
      let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
      let field = String(text.trimmingPrefix(while: blank).reversed().trimmingPrefix(while: blank).reversed())
      let expected: Result<ClosedRange<Int64>, PhoneNumberError> = Result { () throws(PhoneNumberError) in
        try parser.parseEntry(utf8: Array(field.utf8)[...])
      }
      let read = Result { () throws(ListingError) in
        try BlockListParser.parse(bytes: Array((text + "\n").utf8), file: "list.txt", parser: parser)
      }
      switch (read, expected) {
      case (.success(let records), _) where field.isEmpty || field.first == "#":
        #expect(records.isEmpty, "\(text.debugDescription)")  // blank or a comment: skipped
      case (.success(let records), .success(let numbers)):
        #expect(records.map(\.numbers) == [numbers], "\(text.debugDescription)")
      case (.failure(let error), .failure(let failure)):
        #expect(error.message == failure.description, "\(text.debugDescription)")
      default:
        Issue.record("\(text.debugDescription): \(read) against \(expected)")
      }
    }
  }

  @Test("Plain lines end at LF or the input's end; CR, quotes, commas and ranges go to the general reader")
  func shapes() throws {
    func listing(_ text: String) -> PlainLine.Entry? { PlainLine.listing(Array(text.utf8), at: 0, parser: .formatDomain) }
    let entry = try #require(listing("identify,+12025550100,Acme Support\nblock,+1\n"))
    #expect(entry.kind == .identification && entry.number == 12_025_550_100 && entry.label == 22..<34 && entry.next == 35)
    #expect(listing("identify,+12025550100,Acme")?.next == 26)
    #expect(listing("identify,+12025550100,\"Acme, Inc.\"\nblock,+1\n")?.label == 23..<33)  // commas in quotes
    #expect(listing("identify,+12025550100,\"A,B\"")?.next == 27)
    #expect(listing("block,+1")?.number == 1)  // the shortest line it reads: eight bytes
    #expect(listing("block,+12,")?.next == 10)
    #expect(listing("block,+12,\n")?.next == 11)
    #expect(listing("block,+999999999999999999\n")?.number == 999_999_999_999_999_999)  // 18 digits
    for declined in [
      "block,1", "block,+1234567890123456789\n", "block,+12,x\n", "block,+12\r\n", "identify,+12,Acme\r\n",
      "identify,+12,\"Ac\"\"me\"\n", "identify,+12,\"Acme\"\r\n", "identify,+12,\"Acme\"x\n", "identify,+12,\"Acme\n",
      "identify,+12,\"Ac\nme\"\n", "identify,+12,\"\"\n", "identify,+12,Ac\"me\n", "identify,+12,A,B\n", "identify,+12,\n",
      "identify,+12\n",
      "identify,+1..+2,A\n", "identify,+1 2,A\n", "identify,+012,A\n", "block,+", "Block,+12\n", "identify;+12,A\n",
    ] {
      #expect(listing(declined) == nil, "\(declined.debugDescription)")
    }
    // Offsets inside a larger input, and a start at the end.
    let bytes = Array("xx\nblock,+7\n".utf8)
    #expect(PlainLine.listing(bytes, at: 3, parser: .formatDomain)?.next == bytes.count)
    #expect(PlainLine.listing(bytes, at: bytes.count, parser: .formatDomain) == nil)
    #expect(PlainLine.identification(bytes, at: bytes.count, parser: .formatDomain) == nil)
    #expect(PlainLine.identification(Array("+1,A".utf8), at: 0, parser: .formatDomain)?.label == 3..<4)
  }

  @Test("The kind words compared a word at a time are the kinds' own")
  func kindWords() {
    func word(_ text: String) -> UInt64 {
      Array(text.utf8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }
    #expect(PlainLine.identifyWord == word(EntryKind.identification.rawValue))
    #expect(PlainLine.blockWord == word(EntryKind.blocking.rawValue + ","))
  }

  @Test("A header in the listing's own order keeps the plain lane; another order reads by name")
  func headers() {
    let rows = "block,+12025550100\nidentify,+12025550101,Acme\n"
    let reordered = "label,kind,number\n,block,+12025550100\nAcme,identify,+12025550101\n"
    let expected = Outcome.entries([
      Read(kind: .blocking, numbers: 12_025_550_100...12_025_550_100, label: nil, line: 2),
      Read(kind: .identification, numbers: 12_025_550_101...12_025_550_101, label: Array("Acme".utf8), line: 3),
    ])
    #expect(Self.outcome(Support.bytes("kind,number,label\n" + rows), identifyFile: false) == expected)
    #expect(Self.outcome(Support.bytes(reordered), identifyFile: false) == expected)
    // A header without a label column: an identify row has a field too many, plain or not.
    if case .failure(let line, let message) = Self.outcome(Support.bytes("kind,number\n" + rows), identifyFile: false) {
      #expect(line == 3 && message.contains("expected 2 fields"))
    } else {
      Issue.record("a row with more fields than the header names was read")
    }
    // An identify file's header in the other order.
    #expect(
      Self.outcome(Support.bytes("label,number\nAcme,+12025550101\n"), identifyFile: true)
        == .entries([Read(kind: .identification, numbers: 12_025_550_101...12_025_550_101, label: Array("Acme".utf8), line: 2)]))
  }

  @Test("A default country code leaves + numbers as they are and national ones to the general path")
  func countryCode() throws {
    let parser = try PhoneNumberParser(defaultCountryCode: 44)
    let input = Support.bytes("+441234567,A\n+15550000000,B\n02079460958,C\n")
    #expect(
      Self.outcome(input, identifyFile: true, parser: parser)
        == .entries([
          Read(kind: .identification, numbers: 441_234_567...441_234_567, label: Array("A".utf8), line: 1),
          Read(kind: .identification, numbers: 15_550_000_000...15_550_000_000, label: Array("B".utf8), line: 2),
          Read(kind: .identification, numbers: 442_079_460_958...442_079_460_958, label: Array("C".utf8), line: 3),
        ]))
    #expect(PlainLine.identification(Support.bytes("02079460958,C\n"), at: 0, parser: parser) == nil)
  }
}

/// Digits a word at a time against a byte at a time.
@Suite struct DigitWordsTests {
  static func word(_ bytes: [UInt8]) -> UInt64 {
    bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
  }

  @Test func nonDigitsMarkExactlyTheBytesThatAreNotDigits() {
    // Every byte value at every position, among digits.
    for position in 0..<8 {
      for value in 0...255 {
        var bytes = Array("31415926".utf8)
        bytes[position] = UInt8(value)
        let marks = DigitWords.nonDigits(Self.word(bytes))
        let isDigit = value >= 0x30 && value <= 0x39
        #expect((marks == 0) == isDigit, "byte \(value) at \(position)")
        if !isDigit { #expect(marks.trailingZeroBitCount >> 3 == position) }
      }
    }
  }

  @Test func eightDigitsHaveTheirValue() {
    var generator = SeededGenerator(seed: 0xD161_7500)
    var samples: [UInt64] = [0, 1, 9, 10, 99_999_999, 10_000_000, 12_345_678, 90_000_009]
    for _ in 0..<5_000 { samples.append(generator.next() % 100_000_000) }
    for value in samples {
      let text = String(value)
      let padded = String(repeating: "0", count: 8 - text.count) + text
      #expect(DigitWords.value(of: Self.word(Array(padded.utf8))) == value, "\(padded)")
    }
  }
}
