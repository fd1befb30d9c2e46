import CallDirectoryFormat
import Testing

@testable import CallDirectoryListing

@Suite("Identify CSV parser")
struct ListingIdentifyCSVParserTests {
  typealias Support = ListingTestSupport

  static func parse(_ bytes: [UInt8], parser: PhoneNumberParser = PhoneNumberParser()) throws(ListingError)
    -> [ListingRecord]
  {
    try IdentifyCSVParser.parse(bytes: bytes, file: "ids.csv", parser: parser)
  }

  static func error(_ bytes: [UInt8]) -> ListingError? {
    do {
      _ = try parse(bytes)
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "Records with and without the header", arguments: ["number,label\n", "NUMBER,Label\r\n", "\n\nnumber,label\n", ""])
  func header(prefix: String) throws {
    let records = try Self.parse(Support.bytes(prefix + "+1 202 555 0100,Acme Support\n12025550101,\"Acme, Inc.\"\n"))
    let offset = prefix.filter { $0 == "\n" || $0 == "\r\n" }.count
    #expect(
      records == [
        .identify(12_025_550_100, label: "Acme Support", line: offset + 1),
        .identify(12_025_550_101, label: "Acme, Inc.", line: offset + 2),
      ])
  }

  @Test("Only the first record may be the header")
  func laterHeaderIsData() {
    let error = Self.error(Support.bytes("+12025550100,Acme\nnumber,label\n"))
    #expect(error?.line == 2)
    #expect(error?.message.contains("\"number\"") == true)
  }

  @Test("Quoted labels are verbatim, unquoted ones trimmed; blank lines are skipped")
  func verbatimLabels() throws {
    let text =
      "+12025550100,  padded \t\n\n+12025550101,\"two\nlines\"\n+12025550102,\"say \"\"hi\"\"\"\n+12025550103,\" kept \"\n"
    let records = try Self.parse(Support.bytes(text))
    #expect(records.map(\.label) == ["padded", "two\nlines", "say \"hi\"", " kept "])
    #expect(records.map(\.line) == [1, 3, 5, 6])
  }

  @Test("Wrong field counts")
  func fieldCounts() {
    let three = Self.error(Support.bytes("+12025550100,Acme, Inc.\n"))
    #expect(
      three
        == ListingError(
          file: "ids.csv", line: 1,
          message: "expected 2 fields (number,label), found 3; quote labels that contain commas"))
    #expect(Self.error(Support.bytes("number,label\n+12025550100\n"))?.line == 2)
    // TSV has no quotes: a third field is a tab in a label, which TSV cannot carry.
    let tabbed = ListingError(
      file: "ids.tsv", line: 1, message: "expected 2 fields (number,label), found 3; a label cannot contain a tab")
    #expect(throws: tabbed) {
      try IdentifyCSVParser.parse(
        bytes: Array("+12025550100\tAcme\tx\n".utf8), file: "ids.tsv", parser: .formatDomain, format: .tsv
      ) { _ in }
    }
  }

  @Test("Empty label is an error naming its line")
  func emptyLabel() {
    let error = Self.error(Support.bytes("number,label\n+12025550100,A\n+12025550101,\n"))
    #expect(error?.line == 3)
    #expect(error?.message.hasPrefix("empty label") == true)
    #expect(Self.error(Support.bytes("+12025550101,\"\"\n"))?.message.hasPrefix("empty label") == true)
  }

  @Test("Label length limit: 65,534 bytes pass, 65,535 fail")
  func labelLength() throws {
    let longest = String(repeating: "é", count: Limits.maximumLabelBytes / 2)
    #expect(longest.utf8.count == Limits.maximumLabelBytes)
    let records = try Self.parse(Support.bytes("+12025550100,\(longest)\n"))
    #expect(records.first?.label == longest)

    let tooLong = longest + "x"
    let error = Self.error(Support.bytes("+12025550100,A\n\n+12025550101,\(tooLong)\n"))
    #expect(
      error == ListingError(file: "ids.csv", line: 3, message: "label of 65535 UTF-8 bytes is too long (at most 65534)")
    )
  }

  @Test("Invalid UTF-8 in a label names its line")
  func invalidUTF8() {
    let bytes = Support.bytes("+12025550100,A\n+12025550101,B") + [0xC3, 0x28] + Support.bytes("\n")
    #expect(
      Self.error(bytes)
        == ListingError(file: "ids.csv", line: 2, message: CSVError(kind: .invalidUTF8, line: 2).message))
    #expect(Self.error(bytes)?.message.hasPrefix("invalid UTF-8 (inputs are UTF-8") == true)
  }

  @Test("CSV errors are located")
  func csvErrors() {
    let error = Self.error(Support.bytes("+12025550100,A\n+12025550101,\"open\n\n"))
    #expect(error?.description == "ids.csv:2: the quoted field opened on this line is never closed")
  }

  @Test("Number errors are located and quote the number")
  func numberErrors() {
    let error = Self.error(Support.bytes("number,label\n+1 202 55x 0100,A\n"))
    #expect(error?.description == "ids.csv:2: invalid character 'x' in number \"+1 202 55x 0100\"")
  }

  /// A first record whose label is `Label` and whose number the parser refuses is data with a
  /// bad number, not a header with an unknown column.
  @Test("A bad number beside the label Label gets the number's error")
  func badNumberBesideLabelWord() {
    let error = Self.error(Support.bytes("12345,Label\n"))
    #expect(error?.line == 1)
    #expect(error?.message.contains("number \"12345\"") == true)
    #expect(error?.message.contains("column") == false)
    // A header that names an unknown column is still told so.
    #expect(Self.error(Support.bytes("number,label,email\n"))?.message.contains("unknown column \"email\"") == true)
  }

  @Test("Default country codes apply to the number column")
  func defaultCountry() throws {
    let records = try Self.parse(
      Support.bytes("020 7946 0958,London office\n"), parser: try PhoneNumberParser(defaultCountryCode: 44))
    #expect(records == [.identify(442_079_460_958, label: "London office", line: 1)])
  }
}
