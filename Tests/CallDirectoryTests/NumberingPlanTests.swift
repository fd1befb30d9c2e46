import Foundation
import Testing

@testable import CallDirectoryListing

/// The generated numbering plan against the fixtures the generator wrote from the same source:
/// the table's facts, and numbers in every written form read as libphonenumber reads them.
@Suite struct NumberingPlanTests {
  static let fixtures = SpecVectorTests.root.appendingPathComponent("Tests/Fixtures")

  /// The lines of a fixture, its header comment first.
  static func lines(_ name: String) throws -> [Substring] {
    try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8).split(separator: "\n")
  }

  struct Row: CustomStringConvertible, Sendable {
    var region: String
    var form: String
    var text: String
    /// What libphonenumber reads, or `nil` where it refuses the text.
    var expected: Int64?
    var description: String { "\(region) \(form) \(text)" }
  }

  static func rows() throws -> [Row] {
    try lines("numbering-plan-numbers.tsv").dropFirst().map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Row(region: cells[0], form: cells[1], text: cells[2], expected: Int64(cells[3]))
    }
  }

  @Test func fixturesComeFromTheTablesSource() throws {
    for name in ["numbering-plan-numbers.tsv", "numbering-plan-regions.tsv"] {
      #expect(try Self.lines(name).first?.hasPrefix("# \(NumberingPlan.sourceVersion):") == true)
    }
    #expect(try Self.rows().count > 4000)
  }

  /// Every field of every region, as the generator wrote it beside the table.
  @Test func tableMatchesTheRegionsFixture() throws {
    let rows = try Self.lines("numbering-plan-regions.tsv").dropFirst()
    let plan = NumberingPlan.shared
    #expect(rows.count == plan.regions.count)
    for (line, region) in zip(rows, plan.regions) {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      func field(_ value: String?) -> String { value ?? "-" }
      func list(_ values: [Int]) -> String { values.isEmpty ? "-" : values.map(String.init).joined(separator: ",") }
      let fields = [
        region.name, String(region.callingCode), region.isMainRegion ? "1" : "0", field(region.nationalPrefix),
        field(region.prefixForParsing?.source), field(region.transformRule), field(region.internationalPrefix?.source),
        list(region.possibleLengths), list(region.localOnlyLengths), field(region.leadingDigits?.source),
        field(region.nationalNumberPattern?.source),
        region.emergencyNumbers.isEmpty ? "-" : region.emergencyNumbers.joined(separator: ","),
      ]
      #expect(fields == cells, "\(region.name) \(region.callingCode)")
    }
  }

  @Test func lookups() throws {
    let plan = NumberingPlan.shared
    #expect(plan.region(named: "GB")?.callingCode == 44)
    #expect(plan.mainRegion(callingCode: 1)?.name == "US")
    #expect(plan.mainRegion(callingCode: 7)?.name == "RU")
    #expect(plan.regions(callingCode: 7).map(\.name) == ["RU", "KZ"])
    #expect(plan.region(named: "ZZ") == nil)
    #expect(plan.callingCode(of: 442_079_460_958)! == (44, 10))
    #expect(plan.callingCode(of: 12_025_550_100)! == (1, 10))
    #expect(plan.hasValidLength(442_079_460_958))
    #expect(!plan.hasValidLength(4_420_794_609_581))
    #expect(!plan.hasValidLength(99_912_345))  // 999 is no calling code
  }

  /// `callingCode(of:)` against a model that reads the number's decimal digits: the first one,
  /// two or three of them that some region has, the rest national; at every magnitude from one
  /// digit to Int64.max, and for every calling code's own numbers.
  @Test func callingCodesFollowTheDigits() {
    let plan = NumberingPlan.shared
    func model(_ number: Int64) -> (code: Int, nationalDigits: Int)? {
      guard number > 0 else { return nil }
      let digits = Array(String(number))
      for length in 1...3 where length < digits.count {
        if let code = Int(String(digits[..<length])), !plan.regions(callingCode: code).isEmpty {
          return (code, digits.count - length)
        }
      }
      return nil
    }
    var random = SeededGenerator(seed: 0xC0DE)
    var numbers: [Int64] = [0, -1, 1, 9, 10, 44, 441, 999_999, Int64.max, Int64.max - 1, 1_000_000_000_000_000_000]
    for digits in 1...19 {
      let low: Int64 = digits == 1 ? 1 : (1..<digits).reduce(1) { value, _ in value * 10 }
      let high = digits == 19 ? Int64.max : low * 10 - 1
      for _ in 0..<200 { numbers.append(Int64.random(in: low...high, using: &random)) }
      numbers += [low, high]
    }
    for code in 1...999 { numbers += [Int64(code) * 10_000_000_000 + 5_550_100, Int64(code)] }
    for code in -1...1_200 { #expect(plan.isAssigned(callingCode: code) == !plan.regions(callingCode: code).isEmpty, "\(code)") }
    for number in numbers {
      let found = plan.callingCode(of: number)
      let expected = model(number)
      #expect(found?.code == expected?.code && found?.nationalDigits == expected?.nationalDigits, "\(number)")
    }
  }

  /// Each row with its region as the default, and `+` forms with no default as well.
  @Test(arguments: try rows())
  func readsAsLibphonenumber(_ row: Row) throws {
    let parser = try PhoneNumberParser(defaultRegion: row.region, digitLimits: PhoneNumberParser.formatDomainDigits)
    let read = try? parser.parse(row.text)
    #expect(read == row.expected)
    if row.text.hasPrefix("+") || row.text.hasPrefix("tel:") {
      #expect((try? PhoneNumberParser.formatDomain.parse(row.text)) == row.expected)
    }
  }
}

/// Numbers in a national style with no default country are refused, not read as international.
@Suite struct NationalStyleTests {
  @Test(arguments: ["(818) 470-0711", "818-470-0711", "818 470 0711", "0818 4700711", "02079460958", "(1)2025550100"])
  func refusedWithoutCountry(text: String) {
    #expect(throws: PhoneNumberError(kind: .nationalStyleWithoutCountry, input: text)) {
      try PhoneNumberParser().parse(text)
    }
  }

  @Test(arguments: ["12025550100", " 12025550100 ", "+1 (818) 470-0711", "tel:+1-818-470-0711"])
  func internationalFormsStillRead(text: String) throws {
    #expect(try PhoneNumberParser().parse(text) > 0)
  }

  @Test func zeroInParenthesesNeedsATrunkPrefixZero() throws {
    #expect(try PhoneNumberParser().parse("+44 (0) 20 7946 0958") == 442_079_460_958)
    #expect(try PhoneNumberParser().parse("+49 (0)30 123456") == 4_930_123_456)
    #expect(throws: PhoneNumberError(kind: .trunkPrefixAfterCountryCode, input: "+7 (0) 912 345 6789")) {
      try PhoneNumberParser().parse("+7 (0) 912 345 6789")
    }
    #expect(throws: PhoneNumberError(kind: .trunkPrefixAfterCountryCode, input: "+39 (0) 6 6988 0000")) {
      try PhoneNumberParser().parse("+39 (0) 6 6988 0000")
    }
  }

  @Test(arguments: [
    ("RU", "8 (912) 345-67-89", 79_123_456_789 as Int64), ("KZ", "8 (771) 000 9998", 77_710_009_998),
    ("HU", "06 20 123 4567", 36_201_234_567), ("BY", "8 029 491-19-11", 375_294_911_911),
    ("TM", "8 12 345678", 99_312_345_678), ("BJ", "01 97 12 34 56", 2_290_197_123_456),
    ("CI", "01 23 45 67 89", 2_250_123_456_789), ("GA", "06 03 12 34", 24_106_031_234),
    ("CG", "06 123 4567", 242_061_234_567), ("AR", "011 15-2345-6789", 5_491_123_456_789),
    ("IT", "06 6988 0000", 390_669_880_000), ("US", "1 (202) 555-0100", 12_025_550_100),
    ("US", "011 44 20 7946 0958", 442_079_460_958), ("RU", "8 10 44 20 7946 0958", 442_079_460_958),
  ])
  func trunkRules(region: String, text: String, expected: Int64) throws {
    #expect(try PhoneNumberParser(defaultRegion: region).parse(text) == expected)
  }
}
