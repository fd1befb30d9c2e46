import Testing

@testable import CallDirectoryListing

@Suite("Phone number parser")
struct ListingPhoneNumberParserTests {
  typealias Support = ListingTestSupport

  static let international = PhoneNumberParser()
  let nanp: PhoneNumberParser
  let uk: PhoneNumberParser
  let italy: PhoneNumberParser

  init() throws {
    nanp = try PhoneNumberParser(defaultCountryCode: 1)
    uk = try PhoneNumberParser(defaultCountryCode: 44)
    italy = try PhoneNumberParser(defaultCountryCode: 39)
  }

  @Test(
    "International forms of +1 202 555 0100",
    arguments: [
      "+1 (202) 555-0100", "+1-202-555-0100", "+1.202.555.0100", "tel:+1-202-555-0100",
      "  +1 202 555 0100 ", "12025550100", "TEL:+1-202-555-0100", "tel:+1-202-555-0100;ext=123",
      "tel:+1-202-555-0100;phone-context=example.com;x=y", "\t+1 202 555 0100\t", "+1/202/555/0100",
      "+12025550100", " tel: +12025550100",
    ])
  func internationalForms(text: String) throws {
    #expect(try Self.international.parse(text) == 12_025_550_100)
    // The byte-level forms must agree with the String form.
    #expect(try Self.international.parse(utf8: Support.bytes(text)[...]) == 12_025_550_100)
    #expect(try Self.international.parse(utf8: text.utf8) == 12_025_550_100)
  }

  @Test(
    "NANP national forms under country code 1",
    arguments: [
      "(202) 555-0100", "202-555-0100", "2025550100", "1 202 555 0100", "011 1 202 555 0100",
      "+1 202 555 0100", "12025550100", "202.555.0100", "011-1-202-555-0100",
    ])
  func nanpForms(text: String) throws {
    #expect(try nanp.parse(text) == 12_025_550_100)
  }

  /// A national number of a length the region dials only within an area has no area code: an
  /// error that says so, never a number read from the digits there are.
  @Test(arguments: [("555-0100", "US", 7), ("430 1234", "US", 7), ("020 794", "GB", 6), ("020 79", "GB", 5)])
  func localNumbersAreRefused(text: String, region: String, digits: Int) throws {
    let parser = region == "US" ? nanp : uk
    #expect(throws: PhoneNumberError(kind: .localNumber(digits: digits, region: region), input: text)) {
      try parser.parse(text)
    }
  }

  @Test("NANP examples from the rules")
  func nanpExamples() throws {
    #expect(try nanp.parse("(201) 555-0123") == 12_015_550_123)
    #expect(try nanp.parse("1 201 555 0123") == 12_015_550_123)
    // 011 dials out of North America: the rest is another country's number.
    #expect(try nanp.parse("011 44 20 7946 0958") == 442_079_460_958)
  }

  @Test(
    "UK national and international forms under country code 44",
    arguments: [
      ("020 7946 0958", 442_079_460_958 as Int64), ("+44 20 7946 0958", 442_079_460_958),
      ("0044 20 7946 0958", 442_079_460_958), ("20 7946 0958", 442_079_460_958),
      ("07700 900123", 447_700_900_123), ("00 1 202 555 0100", 12_025_550_100),
      ("020 7946 0958 123", 442_079_460_958_123),
    ])
  func ukForms(text: String, expected: Int64) throws {
    #expect(try uk.parse(text) == expected)
  }

  @Test("+44 20 7946 0958 without a default country")
  func ukInternational() throws {
    #expect(try Self.international.parse("+44 20 7946 0958") == 442_079_460_958)
  }

  @Test("Italy keeps the leading 0 of its national numbers")
  func italyKeepsZero() throws {
    #expect(try italy.parse("06 6988 0000") == 390_669_880_000)
    #expect(try italy.parse("+39 06 6988 0000") == 390_669_880_000)
    #expect(try italy.parse("0039 06 6988 0000") == 390_669_880_000)
    #expect(try PhoneNumberParser(defaultCountryCode: 378).parse("0549 882 000") == 3_780_549_882_000)
  }

  @Test("Three-digit country codes are prefixed whole")
  func threeDigitCountryCode() throws {
    // Saint Helena, +290: 4-digit national numbers give the shortest E.164 numbers, 7 digits.
    #expect(try PhoneNumberParser(defaultCountryCode: 290).parse("8999") == 2_908_999)
    // Saint Helena has no trunk prefix: a leading 0 stays, as libphonenumber reads it.
    #expect(try PhoneNumberParser(defaultCountryCode: 290).parse("0 8999") == 29_008_999)
    // Ireland's trunk prefix 0 goes.
    #expect(try PhoneNumberParser(defaultCountryCode: 353).parse("01 234 5678") == 35_312_345_678)
  }

  @Test("Digit limits are inclusive: 7 and 15 digits pass")
  func digitLimitBoundaries() throws {
    #expect(try Self.international.parse("+290 8999") == 2_908_999)
    #expect(try Self.international.parse("+123 456 789 012 345") == 123_456_789_012_345)
  }

  @Test(
    "Errors",
    arguments: [
      ("", PhoneNumberError.Kind.empty),
      ("   \t ", .empty),
      ("+1 202 55x 0100", .invalidCharacter("x", offset: 9)),
      ("+1 202 555 0100 ext 5", .invalidCharacter("e", offset: 16)),
      ("*67 202 555 0100", .invalidCharacter("*", offset: 0)),
      ("#31#2025550100", .invalidCharacter("#", offset: 0)),
      ("+1 202 555 0100 # spam", .invalidCharacter("#", offset: 16)),
      ("+1 202\t555 0100", .invalidCharacter("\t", offset: 6)),
      ("+1 202 555 01é", .invalidCharacter("é", offset: 13)),
      ("+1;ext=2", .invalidCharacter(";", offset: 2)),
      ("++12025550100", .misplacedPlus(offset: 1)),
      ("1+2025550100", .misplacedPlus(offset: 1)),
      ("(+1) 202 555 0100", .misplacedPlus(offset: 1)),
      ("+1 202 555 0100+", .misplacedPlus(offset: 15)),
      ("+1234567890123456", .tooManyDigits(found: 16, maximum: 15)),
      ("+99999999999999999999", .tooManyDigits(found: 20, maximum: 15)),
      ("+1 202", .tooFewDigits(found: 4, minimum: 7)),
      ("+0 202 555 0100", .leadingZero),
      ("02025550100", .nationalStyleWithoutCountry),
      ("2025550100", .nationalStyleWithoutCountry),
      (" 8184700711 ", .nationalStyleWithoutCountry),
      ("-", .noDigits),
      ("+", .noDigits),
      ("( ) - . /", .noDigits),
      ("tel:", .noDigits),
      ("tel:+", .noDigits),
      ("tel:;ext=1", .noDigits),
      ("tel:2025550100", .localTelURI),
      ("tel:7042;phone-context=example.com", .localTelURI),
      ("tel:+1-202-555-01x0;ext=1", .invalidCharacter("x", offset: 17)),
      ("tel:++1-202-555-0100", .misplacedPlus(offset: 5)),
    ])
  func errors(text: String, expected: PhoneNumberError.Kind) {
    let kind = Support.phoneErrorKind { () throws(PhoneNumberError) in try Self.international.parse(text) }
    #expect(kind == expected)
  }

  /// Ten bare digits are international unless they have a North American number's national
  /// shape (first and fourth digits 2 to 9, refused above); with `+` they always are, and so are
  /// other lengths. The quick path of plain digits and the general scan agree.
  @Test(
    arguments: [
      ("3221234567", 3_221_234_567), ("2021555010", 2_021_555_010), ("+2025550100", 2_025_550_100),
      ("12025550100", 12_025_550_100), ("202555010", 202_555_010),
    ] as [(String, Int64)])
  func bareDigitsOfAnotherShapeAreInternational(text: String, number: Int64) throws {
    #expect(try Self.international.parse(text) == number)
    #expect(try Self.international.parse(utf8: Array(text.utf8)[...]) == number)
  }

  /// libphonenumber reads these, though no plan has such numbers: pack reports them as
  /// invalid, and refuses them only when asked to.
  @Test(
    "Numbers outside the North American plan are read as libphonenumber reads them",
    arguments: [
      ("0202 555 0100", 102_025_550_100 as Int64),
      ("120 2555 0100 9", 120_255_501_009), ("102 555 0100", 11_025_550_100),
      ("002 555 0100", 10_025_550_100), ("011 0 20 7946 0958", 101_102_079_460_958),
    ])
  func nanpInvalid(text: String, expected: Int64) throws {
    #expect(try nanp.parse(text) == expected)
  }

  @Test(
    "Errors under country code 1",
    arguments: [
      ("011", PhoneNumberError.Kind.tooFewDigits(found: 0, minimum: 7)),
      ("011 44 1234 5678 9012 34", .tooManyDigits(found: 16, maximum: 15)),
    ])
  func nanpErrors(text: String, expected: PhoneNumberError.Kind) {
    let kind = Support.phoneErrorKind { () throws(PhoneNumberError) in try nanp.parse(text) }
    #expect(kind == expected)
  }

  @Test(
    "Errors under country code 44",
    arguments: [
      ("0", PhoneNumberError.Kind.tooFewDigits(found: 3, minimum: 7)),
      ("00", .tooFewDigits(found: 0, minimum: 7)),
      // 00 followed by 0 is no international prefix (no calling code begins with 0).
      ("000 44 20 7946 0958", .tooManyDigits(found: 16, maximum: 15)),
      ("020 7946 0958 1234", .tooManyDigits(found: 16, maximum: 15)),
    ])
  func ukErrors(text: String, expected: PhoneNumberError.Kind) {
    let kind = Support.phoneErrorKind { () throws(PhoneNumberError) in try uk.parse(text) }
    #expect(kind == expected)
  }

  @Test("Format domain: every storable number, and nothing beyond")
  func formatDomain() throws {
    let parser = PhoneNumberParser.formatDomain
    #expect(try parser.parse("+1") == 1)
    #expect(try parser.parse("+9223372036854775806") == Int64.max - 1)
    #expect(try parser.parse("9223372036854775806") == Int64.max - 1)
    #expect(
      Support.phoneErrorKind { () throws(PhoneNumberError) in try parser.parse("+9223372036854775807") }
        == .outOfRange)
    #expect(
      Support.phoneErrorKind { () throws(PhoneNumberError) in try parser.parse("+9999999999999999999") }
        == .outOfRange)
    #expect(
      Support.phoneErrorKind { () throws(PhoneNumberError) in try parser.parse("+99999999999999999999") }
        == .tooManyDigits(found: 20, maximum: 19))
    #expect(
      Support.phoneErrorKind { () throws(PhoneNumberError) in try parser.parse("+184467440737095516160") }
        == .tooManyDigits(found: 21, maximum: 19))
  }

  @Test("Overflow while prefixing a country code is reported, not trapped")
  func overflowWithCountryCode() throws {
    let parser = try PhoneNumberParser(defaultCountryCode: 999, digitLimits: PhoneNumberParser.formatDomainDigits)
    // 999 followed by 16 nines has 19 digits but exceeds Int64.max.
    let kind = Support.phoneErrorKind { () throws(PhoneNumberError) in try parser.parse("9999999999999999") }
    #expect(kind == .outOfRange)
    #expect(try parser.parse("1") == 9991)
  }

  @Test("Invalid UTF-8 in the byte form is reported as U+FFFD")
  func invalidUTF8Bytes() {
    let bytes: [UInt8] = [0x2B, 0x31, 0xC3, 0x28]
    let kind = Support.phoneErrorKind { () throws(PhoneNumberError) in try Self.international.parse(utf8: bytes[...]) }
    #expect(kind == .invalidCharacter("\u{FFFD}", offset: 2))
  }

  @Test("The error keeps the input as given")
  func errorInput() {
    do {
      _ = try Self.international.parse(" +1 202 55x 0100")
      Issue.record("expected an error")
    } catch {
      #expect(error.input == " +1 202 55x 0100")
    }
  }

  @Test("Byte slices with a non-zero start index parse the slice only")
  func sliceIndices() throws {
    let bytes = Support.bytes("xx+1 202 555 0100yy")
    #expect(try Self.international.parse(utf8: bytes[2..<17]) == 12_025_550_100)
  }

  @Test("Configuration is kept")
  func configuration() {
    #expect(PhoneNumberParser.e164Digits == 7...15)
    #expect(PhoneNumberParser.formatDomainDigits == 1...19)
    #expect(uk.defaultCountryCode == 44)
    #expect(Self.international.defaultCountryCode == nil)
    #expect(PhoneNumberParser.formatDomain.digitLimits == 1...19)
  }

  @Test("formatInternational")
  func formatting() {
    #expect(formatInternational(12_025_550_100) == "+12025550100")
    #expect(formatInternational(1) == "+1")
    #expect(formatInternational(Int64.max - 1) == "+9223372036854775806")
  }

  @Test("Seeded random numbers round-trip through formatInternational")
  func randomRoundTrip() throws {
    let seed: UInt64 = 0x5EED_0001
    var generator = Support.SplitMix64(seed: seed)
    for _ in 0..<2_000 {
      let number =
        Int64.random(in: 1...(Int64.max - 1), using: &generator) >> Int64.random(in: 0...62, using: &generator)
      let value = max(number, 1)
      #expect(try PhoneNumberParser.formatDomain.parse(formatInternational(value)) == value, "seed \(seed)")
    }
  }
}

/// The array fast path (`+` and digits) against the full scan, which the generic form always takes.
@Suite struct PhoneNumberFastPathTests {
  @Test(arguments: [
    PhoneNumberParser.formatDomain, PhoneNumberParser(), try PhoneNumberParser(defaultCountryCode: 1),
    try PhoneNumberParser(defaultCountryCode: 44), try PhoneNumberParser(defaultCountryCode: 39, digitLimits: 3...12),
  ])
  func fastPathAgreesWithTheScan(parser: PhoneNumberParser) {
    let seed: UInt64 = 0xFA57
    var random = SeededGenerator(seed: seed)
    // Mostly digits, so that many draws take the fast path; the rest send it to the scan.
    let alphabet = Array("0123456789012345678901234567890123456789+ -x".utf8)
    var disagreements: [String] = []
    for _ in 0..<20_000 {
      var bytes: [UInt8] = Bool.random(using: &random) ? [0x2B] : []
      for _ in 0..<Int.random(in: 0...21, using: &random) { bytes.append(alphabet.randomElement(using: &random)!) }
      let fast = Result { () throws(PhoneNumberError) in try parser.parse(utf8: bytes[...]) }
      let scanned = Result { () throws(PhoneNumberError) in try parser.parse(utf8: bytes.lazy.map { $0 }) }
      if fast != scanned { disagreements.append(String(decoding: bytes, as: UTF8.self)) }
    }
    #expect(disagreements.isEmpty, "seed \(seed): \(disagreements.prefix(5))")
    // The edges: 18 and 19 digits, Int64's last numbers, and a leading zero.
    for text in ["+999999999999999999", "+9223372036854775806", "+9223372036854775807", "+0123", "+1", "1", ""] {
      let bytes = Array(text.utf8)
      let fast = Result { () throws(PhoneNumberError) in try parser.parse(utf8: bytes[...]) }
      let scanned = Result { () throws(PhoneNumberError) in try parser.parse(utf8: bytes.lazy.map { $0 }) }
      #expect(fast == scanned, "\(text)")
    }
  }
}
