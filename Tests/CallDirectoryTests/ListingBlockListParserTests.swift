import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

@Suite("Block list parser")
struct ListingBlockListParserTests {
  typealias Support = ListingTestSupport

  static func parse(_ text: String, parser: PhoneNumberParser = PhoneNumberParser(), file: String = "block.txt")
    throws(ListingError) -> [ListingRecord]
  {
    try BlockListParser.parse(bytes: Support.bytes(text), file: file, parser: parser)
  }

  static func error(_ text: String, parser: PhoneNumberParser = PhoneNumberParser(), file: String = "block.txt")
    -> ListingError?
  {
    do {
      _ = try parse(text, parser: parser, file: file)
      return nil
    } catch {
      return error
    }
  }

  @Test("One number a line; blanks, comments, whitespace and CRLF handled")
  func basic() throws {
    let text =
      "# spam callers\n+1 202 555 0100\n\n   \n\t# indented comment\n  12025550101  \r\n+44 20 7946 0958\r\n+1-202-555-0102"
    let records = try Self.parse(text)
    #expect(
      records == [
        .block(12_025_550_100, line: 2), .block(12_025_550_101, line: 6), .block(442_079_460_958, line: 7),
        .block(12_025_550_102, line: 8),
      ])
    #expect(records.allSatisfy { $0.kind == .blocking && $0.label == nil })
  }

  @Test("Entries, the form a pack reads, are the records without a label, bad lines skipped alike")
  func entriesAreTheRecords() throws {
    let text = "# spam\n+1 202 555 0100\n\nnot a number\n+1 202 555 01##\n  12025550101  \r\n+1 202 555 0100 # note\n"
    var entries: [ListingEntry] = []
    var entryErrors: [Int] = []
    let skipped = try BlockListParser.forEachEntry(
      bytes: Support.bytes(text), file: "b", parser: PhoneNumberParser(),
      onBadLine: { (error, _, _) throws(ListingError) in entryErrors.append(error.line) }
    ) { (entry) throws(ListingError) in entries.append(entry) }
    var records: [ListingRecord] = []
    var recordErrors: [Int] = []
    let recordSkipped = try BlockListParser.parse(
      bytes: Support.bytes(text), file: "b", parser: PhoneNumberParser(),
      onBadLine: { (error, _, _) throws(ListingError) in recordErrors.append(error.line) }
    ) { records.append($0) }
    #expect(entries.map(\.line) == [2, 5, 6])
    #expect(entries.allSatisfy { $0.kind == .blocking })
    #expect(records == entries.map { ListingRecord(kind: .blocking, numbers: $0.numbers, labelUTF8: nil, line: $0.line) })
    #expect(entries[1].numbers == 12_025_550_100...12_025_550_199)
    #expect(entryErrors == [4, 7] && recordErrors == entryErrors)
    #expect(skipped == 2 && recordSkipped == skipped)
  }

  @Test("The parser's default country applies")
  func defaultCountry() throws {
    #expect(
      try Self.parse("(202) 555-0100\n", parser: try PhoneNumberParser(defaultCountryCode: 1)) == [
        .block(12_025_550_100, line: 1)
      ])
  }

  @Test("Empty input and a leading byte order mark")
  func emptyAndBOM() throws {
    #expect(try Self.parse("") == [])
    #expect(try Self.parse("\n\n") == [])
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Support.bytes("+12025550100\n")
    #expect(
      try BlockListParser.parse(bytes: bytes, file: "x", parser: PhoneNumberParser()) == [
        .block(12_025_550_100, line: 1)
      ])
  }

  @Test("Errors name the file, the line and the text")
  func errors() throws {
    let error = try #require(Self.error("+12025550100\n\n+1 202 55x 0100\n"))
    #expect(error.file == "block.txt")
    #expect(error.line == 3)
    #expect(error.description == "block.txt:3: invalid character 'x' in number \"+1 202 55x 0100\"")
  }

  @Test("Standard input is shown as <stdin>")
  func standardInput() throws {
    let error = try #require(Self.error("++1\n", file: "-"))
    #expect(error.file == "-")
    #expect(error.description.hasPrefix("<stdin>:1: misplaced '+'"))
  }

  @Test("A trailing comment is not a comment; a bare CR is an invalid character, at the end too")
  func strictness() throws {
    // `#` is a wildcard: a pattern of ten numbers, or an error that quotes the line as written.
    #expect(
      try Self.parse("+12025550100 #\n") == [ListingRecord(kind: .blocking, numbers: 120_255_501_000...120_255_501_009, line: 1)])
    let comment = try #require(Self.error("+12025550100 # office\n"))
    #expect(comment.line == 1)
    #expect(comment.message == "invalid character 'o' in number \"+12025550100 # office\"")
    #expect(Self.error("+12025550100\r+12025550101\n")?.message.contains("invalid character '\\r'") == true)
    // A CR ends a line only before an LF: at the very end of the input it is text.
    #expect(Self.error("+12025550100\r")?.message.contains("invalid character '\\r'") == true)
    #expect(try Self.parse("+12025550100\r\n") == [.block(12_025_550_100, line: 1)])
    let tsv = Support.bytes("+12025550100\tAcme\r")
    #expect(throws: ListingError(file: "id.tsv", line: 1, message: "carriage return not followed by a line feed")) {
      try IdentifyCSVParser.parse(bytes: tsv, file: "id.tsv", parser: PhoneNumberParser(), format: .tsv)
    }
  }

  @Test("Invalid UTF-8 in a number line names the line; in a comment it is ignored")
  func invalidUTF8() throws {
    let bad: [UInt8] = Support.bytes("+12025550100\n+1") + [0xC3, 0x28] + Support.bytes("\n")
    do {
      _ = try BlockListParser.parse(bytes: bad, file: "b", parser: PhoneNumberParser())
      Issue.record("expected an error")
    } catch {
      #expect(error.line == 2)
    }
    let comment: [UInt8] = Support.bytes("# ") + [0xC3, 0x28] + Support.bytes("\n+12025550100")
    #expect(
      try BlockListParser.parse(bytes: comment, file: "b", parser: PhoneNumberParser()) == [
        .block(12_025_550_100, line: 2)
      ])
  }

  @Test("The callback can stop parsing with its own error")
  func callbackError() {
    var seen = 0
    do {
      try BlockListParser.parse(
        bytes: Support.bytes("+12025550100\n+12025550101\n+12025550102"), file: "f", parser: PhoneNumberParser()
      ) {
        (record: ListingRecord) throws(ListingError) in
        seen += 1
        if record.line == 2 { throw ListingError(file: "f", line: record.line, message: "duplicate") }
      }
      Issue.record("expected an error")
    } catch {
      #expect(error == ListingError(file: "f", line: 2, message: "duplicate"))
    }
    #expect(seen == 2)
  }
}
