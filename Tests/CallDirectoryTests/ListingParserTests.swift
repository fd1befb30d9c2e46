import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

@Suite("Listing parser")
struct ListingParserTests {
  typealias Support = ListingTestSupport

  static func parse(_ text: String, parser: PhoneNumberParser = .formatDomain) throws(ListingError) -> [ListingRecord] {
    try ListingParser.parse(bytes: Support.bytes(text), file: "listing.csv", parser: parser)
  }

  static func error(_ text: String, parser: PhoneNumberParser = .formatDomain) -> ListingError? {
    do {
      _ = try parse(text, parser: parser)
      return nil
    } catch {
      return error
    }
  }

  @Test("Block and identify rows, with and without the header")
  func rows() throws {
    let body = "block,+12025550100,\nidentify,+12025550101,Acme Support\nblock,+12025550102\n"
    let expected: [ListingRecord] = [
      .block(12_025_550_100, line: 2), .identify(12_025_550_101, label: "Acme Support", line: 3),
      .block(12_025_550_102, line: 4),
    ]
    #expect(try Self.parse("kind,number,label\n" + body) == expected)
    #expect(try Self.parse("KIND,Number,LABEL\r\n" + body) == expected)
    #expect(try Self.parse("\n" + body) == expected)
    // Quoted fields compare as their contents, doubled quotes included.
    #expect(
      try Self.parse("\"block\",\"+12025550100\",\"\"\n\"identify\",+12025550101,\"Acme \"\"X\"\"\"\n") == [
        .block(12_025_550_100, line: 1), .identify(12_025_550_101, label: "Acme \"X\"", line: 2),
      ])
  }

  @Test("Numbers at both ends of the format's domain")
  func domainEnds() throws {
    let records = try Self.parse("block,+1,\nidentify,+9223372036854775806,Max\n")
    #expect(records == [.block(1, line: 1), .identify(Int64.max - 1, label: "Max", line: 2)])
    #expect(Self.error("block,+9223372036854775807,\n")?.message.contains("out of range") == true)
    #expect(Self.error("block,+0,\n")?.message.contains("country code that starts with 0") == true)
  }

  @Test("The parser passed in decides the digit limits")
  func parserDecides() {
    #expect(Self.error("block,+1,\n", parser: PhoneNumberParser())?.message.contains("too few digits") == true)
  }

  @Test(
    "Row errors name the line",
    arguments: [
      (
        "kind,number,label\nblock,+12025550100,\nallow,+12025550101,Partner\n", 3,
        "allow entry has a label (leave the label field empty)"
      ),
      ("Block,+12025550100,\n", 1, "unknown kind \"Block\" (expected \"block\", \"identify\" or \"allow\")"),
      ("block,+12025550100,Spam\n", 1, "block entry has a label (leave the label field empty)"),
      ("\"blo\"\"ck\",+12025550100,\n", 1, "unknown kind \"blo\"ck\" (expected \"block\", \"identify\" or \"allow\")"),
      ("\"block\",+12025550100,\"\"\"\"\n", 1, "block entry has a label (leave the label field empty)"),
      ("identify,+12025550100\n", 1, "identify entry has no label field"),
      ("block,+12025550100,\nidentify,+12025550100,\n", 2, "empty label (labels need 1 to 65534 UTF-8 bytes)"),
      ("block\n", 1, "expected 3 fields (kind,number,label), found 1"),
      ("block,+1,,\n", 1, "expected 3 fields (kind,number,label), found 4"),
      ("identify,+1 202 55x 0100,A\n", 1, "invalid character 'x' in number \"+1 202 55x 0100\""),
      (
        "kind,number,label\n\"identify\",+1,\"a\"b\n", 2,
        "'b' after a closing quote (expected ',' or the end of the line)"
      ),
    ] as [(String, Int, String)])
  func rowErrors(text: String, line: Int, message: String) {
    #expect(Self.error(text) == ListingError(file: "listing.csv", line: line, message: message))
  }

  @Test("Over-long identify label")
  func longLabel() {
    let label = String(repeating: "a", count: Limits.maximumLabelBytes + 1)
    #expect(Self.error("block,+1,\nidentify,+2,\(label)\n")?.line == 2)
  }

  @Test("Quoted fields anywhere in a row")
  func quotedFields() throws {
    #expect(
      try Self.parse("\"identify\",\"+12025550100\",\"a,b\"\n") == [.identify(12_025_550_100, label: "a,b", line: 1)])
    #expect(try Self.parse("block,+12025550100,\"\"\n") == [.block(12_025_550_100, line: 1)])
  }

  @Test("ListingError formatting")
  func errorFormatting() {
    #expect(ListingError(file: "a.csv", line: 7, message: "bad").description == "a.csv:7: bad")
    #expect(ListingError(file: "-", line: 1, message: "bad").description == "<stdin>:1: bad")
    #expect(ListingError(file: "-", line: 1, message: "bad").displayFile == "<stdin>")
  }
}
