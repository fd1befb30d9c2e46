import Testing

@testable import CallDirectoryListing

@Suite("CSV reader")
struct ListingCSVReaderTests {
  typealias Support = ListingTestSupport

  static func fields(_ text: String) throws(CSVError) -> [[String]] {
    try Support.csvRecords(Support.bytes(text)).map(\.fields)
  }

  static func error(_ bytes: [UInt8]) -> CSVError? {
    do {
      _ = try Support.csvRecords(bytes)
      return nil
    } catch {
      return error
    }
  }

  @Test("Plain fields, LF and CRLF, final record without newline")
  func plain() throws {
    #expect(try Self.fields("a,b\nc,d\r\ne,f") == [["a", "b"], ["c", "d"], ["e", "f"]])
    #expect(try Self.fields("a,b\n") == [["a", "b"]])
    #expect(try Self.fields("") == [])
    #expect(try Self.fields("a,,b,\n") == [["a", "", "b", ""]])
    #expect(try Self.fields(",") == [["", ""]])
    #expect(try Self.fields(" a , b ") == [[" a ", " b "]])
  }

  @Test("Empty lines are records of one empty field, marked blank")
  func blankLines() throws {
    var reader = CSVReader(Support.bytes("a\n\n  \t\n\"\"\nb"))
    var seen: [(Int, Bool, [String])] = []
    while let record = try reader.next() {
      seen.append((record.line, record.isBlank, (0..<record.count).map { record.string(at: $0) }))
    }
    #expect(seen.map(\.0) == [1, 2, 3, 4, 5])
    // A quoted empty field is data, not a blank line.
    #expect(seen.map(\.1) == [false, true, true, false, false])
    #expect(seen.map(\.2) == [["a"], [""], ["  \t"], [""], ["b"]])
  }

  @Test("Quoted fields: commas, doubled quotes, CR, LF and CRLF inside")
  func quoted() throws {
    #expect(try Self.fields("\"a,b\",c") == [["a,b", "c"]])
    #expect(try Self.fields("\"say \"\"hi\"\"\",x") == [["say \"hi\"", "x"]])
    #expect(try Self.fields("\"\"\"\"") == [["\""]])
    #expect(try Self.fields("\"\"\"a\"\"\",\"b\"\"\"") == [["\"a\"", "b\""]])
    #expect(try Self.fields("\"line1\nline2\",x\r\n\"a\r\nb\"\r\n") == [["line1\nline2", "x"], ["a\r\nb"]])
    #expect(try Self.fields("\"\",\"\"") == [["", ""]])
  }

  @Test("Several unescaped fields in one record do not overlap in the buffer")
  func severalUnescapedFields() throws {
    #expect(try Self.fields("\"a\"\"\",\"b\"\"c\",\"\"\"d\"\n\"e\"\"\"") == [["a\"", "b\"c", "\"d"], ["e\""]])
  }

  @Test("Record lines count newlines inside quoted fields")
  func lineNumbers() throws {
    let records = try Support.csvRecords(Support.bytes("a\n\"b\nc\nd\",e\nf\r\ng"))
    #expect(records.map(\.line) == [1, 2, 5, 6])
  }

  @Test("A leading byte order mark is skipped, a later one is data")
  func byteOrderMark() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    #expect(try Support.csvRecords(bom + Support.bytes("a,b")).map(\.fields) == [["a", "b"]])
    #expect(try Support.csvRecords(bom).map(\.fields) == [])
    #expect(try Support.csvRecords(Support.bytes("x\n") + bom).map(\.fields) == [["x"], ["\u{FEFF}"]])
  }

  @Test("Unterminated quoted field is reported at the line it began")
  func unterminated() {
    #expect(
      Self.error(Support.bytes("a,b\nc,\"open\nmore\nstill")) == CSVError(kind: .unterminatedQuotedField, line: 2))
    #expect(Self.error(Support.bytes("\"")) == CSVError(kind: .unterminatedQuotedField, line: 1))
    #expect(
      Self.error(Support.bytes("\"ends with escaped quote\"\"")) == CSVError(kind: .unterminatedQuotedField, line: 1))
  }

  @Test("Quote inside an unquoted field")
  func quoteInUnquoted() {
    #expect(Self.error(Support.bytes("ok\nab\"c\",d")) == CSVError(kind: .quoteInUnquotedField, line: 2))
    #expect(Self.error(Support.bytes("a, \"b\"")) == CSVError(kind: .quoteInUnquotedField, line: 1))
  }

  @Test("Only a comma or a line end may follow a closing quote")
  func afterClosingQuote() {
    #expect(Self.error(Support.bytes("\"a\"b")) == CSVError(kind: .characterAfterClosingQuote(0x62), line: 1))
    #expect(Self.error(Support.bytes("x\n\"a\n\" ,b")) == CSVError(kind: .characterAfterClosingQuote(0x20), line: 3))
    #expect(Self.error(Support.bytes("\"a\"\r")) == CSVError(kind: .characterAfterClosingQuote(0x0D), line: 1))
  }

  @Test("A carriage return outside quotes must start CRLF")
  func bareCarriageReturn() {
    #expect(Self.error(Support.bytes("a\rb")) == CSVError(kind: .bareCarriageReturn, line: 1))
    #expect(Self.error(Support.bytes("a\n\r")) == CSVError(kind: .bareCarriageReturn, line: 2))
  }

  @Test("Invalid UTF-8 is reported with the line of the bad byte")
  func invalidUTF8() {
    #expect(
      Self.error(Support.bytes("a,b\nc,") + [0xC3, 0x28] + Support.bytes("\n")) == CSVError(kind: .invalidUTF8, line: 2)
    )
    #expect(
      Self.error(Support.bytes("\"x\ny\n") + [0xC3, 0x28] + Support.bytes("\""))
        == CSVError(kind: .invalidUTF8, line: 3))
    #expect(Self.error([0xFF]) == CSVError(kind: .invalidUTF8, line: 1))
  }

  @Test(
    "UTF-8 validation follows Unicode table 3-7",
    arguments: [
      ([0xC3, 0xA9], true), ([0xE2, 0x82, 0xAC], true), ([0xF0, 0x9F, 0x98, 0x80], true),
      ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xED, 0x9F, 0xBF], true),
      ([0xC0, 0xAF], false), ([0xC1, 0xBF], false), ([0xE0, 0x80, 0xAF], false), ([0xED, 0xA0, 0x80], false),
      ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false), ([0xC3], false),
      ([0xE2, 0x82], false), ([0x80], false), ([0xE2, 0x28, 0xAC], false), ([0xF0, 0x9F, 0x98, 0x28], false),
    ] as [([UInt8], Bool)])
  func utf8Validation(bytes: [UInt8], valid: Bool) {
    let padded = [0x61] + bytes + [0x62]
    #expect((padded.firstInvalidUTF8Index(in: 0..<padded.count) == nil) == valid)
    if !valid { #expect(padded.firstInvalidUTF8Index(in: 0..<padded.count) == 1) }
    // The validator must agree with the standard library.
    #expect((String(validating: padded, as: UTF8.self) != nil) == valid)
  }

  @Test("Non-ASCII fields are passed through")
  func unicode() throws {
    #expect(try Self.fields("电话,Привет,\"😀,🇺🇸\"") == [["电话", "Привет", "😀,🇺🇸"]])
  }

  @Test("Field slices index into the record")
  func slices() throws {
    var reader = CSVReader(Support.bytes("ab,\"c\"\"d\""))
    let record = try #require(try reader.next())
    #expect(record.count == 2)
    #expect(Array(record[0]) == Support.bytes("ab"))
    #expect(Array(record[1]) == Support.bytes("c\"d"))
    #expect(try reader.next() == nil)
    #expect(try reader.next() == nil)
  }

  @Test("Messages carry the line")
  func messages() {
    #expect(
      CSVError(kind: .unterminatedQuotedField, line: 4).description
        == "line 4: the quoted field opened on this line is never closed")
    #expect(CSVError(kind: .characterAfterClosingQuote(0x78), line: 2).message.hasPrefix("'x' after a closing quote"))
    #expect(CSVError(kind: .characterAfterClosingQuote(0x09), line: 2).message.hasPrefix("byte 0x9 after"))
  }
  /// The word-at-a-time scan stops where a byte-by-byte one does: at every stop byte placed at
  /// every position of a word and near the end, among text that shares bits with the stop bytes
  /// (0x2B, 0x2D, 0x0B, 0x7F), and after a stop byte where a borrow could mark the byte above;
  /// and it sees a byte past ASCII before the stop exactly when there is one, not after it.
  @Test("The field scan stops at the first stop byte")
  func fieldScanAgreesWithAByteByByteScan() {
    let stops: Set<UInt8> = [0x2C, 0x22, 0x0A, 0x0D]
    func naive(_ bytes: [UInt8], _ start: Int, _ end: Int) -> (index: Int, pastASCII: Bool) {
      let stop = (start..<end).first { stops.contains(bytes[$0]) } ?? end
      return (stop, bytes[start..<stop].contains { $0 >= 0x80 })
    }
    var random = SeededGenerator(seed: 0xF5CA)
    let text: [UInt8] = [0x2B, 0x2D, 0x0B, 0x7F, 0x00, 0x01, 0x61, 0x39, 0x20, 0x2C, 0x22, 0x0A, 0x0D, 0x80, 0xC3, 0xFF]
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &random)
      // Mostly plain text, a stop byte now and then.
      let bytes = (0..<count).map { _ in text[Int.random(in: 0..<(Bool.random(using: &random) ? 9 : text.count), using: &random)]
      }
      let start = Int.random(in: 0...count, using: &random)
      let end = Int.random(in: start...count, using: &random)
      #expect(FieldScan.firstStop(in: bytes, from: start, to: end) == naive(bytes, start, end), "\(bytes) \(start)..<\(end)")
    }
  }
}
