import Testing

@testable import CallDirectoryListing

/// The small regular-expression dialect of libphonenumber's metadata.
@Suite struct DigitPatternTests {
  static func digits(_ text: String) -> ArraySlice<UInt8> { ArraySlice(text.utf8.map { $0 - 0x30 }) }

  @Test func leftmostFirstCaptures() throws {
    // Argentina: the optional area code and 15 are captured, the 0 is not.
    let argentina = try DigitPattern("0?(?:(11|2(?:2(?:02?|[13]))?)15)?")
    let match = try #require(argentina.prefixMatch(Self.digits("0111523456789")))
    #expect(match[0] == 0..<5)
    #expect(match[1] == 1..<3)
    // A group that took no part is nil.
    let bare = try #require(argentina.prefixMatch(Self.digits("0123")))
    #expect(bare[0] == 0..<1)
    #expect(bare[1] == nil)
  }

  @Test func wholeAndAnchoredMatches() throws {
    let pattern = try DigitPattern("[2-9]\\d{9}|1\\d{2,3}")
    #expect(pattern.wholeMatch(Self.digits("2025550100")))
    #expect(!pattern.wholeMatch(Self.digits("20255501001")))
    #expect(pattern.wholeMatch(Self.digits("1234")))
    #expect(!pattern.wholeMatch(Self.digits("12345")))
    let sanMarino = try DigitPattern("([89]\\d{5})$")
    #expect(sanMarino.prefixMatch(Self.digits("886377"))?[1] == 0..<6)
    #expect(sanMarino.prefixMatch(Self.digits("8863770")) == nil)
  }

  /// Alternatives inside repeats backtrack exponentially without the memo; with it the run ends
  /// after at most instructions × positions steps.
  @Test func pathologicalPatternEndsQuickly() throws {
    let pattern = try DigitPattern("(?:\\d|\\d\\d|\\d\\d\\d){1,40}5")
    let ones = ArraySlice([UInt8](repeating: 1, count: DigitPattern.maximumDigits))
    #expect(pattern.prefixMatch(ones) == nil)
    #expect(!pattern.wholeMatch(ones))
  }

  @Test(arguments: ["(", "[9-1]", "\\w", "a", "1{3", "(?=1)", "((((1))))", "1{2,1}", "[]"])
  func outsideTheDialect(pattern: String) {
    #expect(throws: DigitPattern.SyntaxError.self) { try DigitPattern(pattern) }
  }

  @Test func longInputNeverMatches() throws {
    let pattern = try DigitPattern("\\d{1,50}")
    #expect(!pattern.wholeMatch(ArraySlice([UInt8](repeating: 1, count: DigitPattern.maximumDigits + 1))))
  }
}
