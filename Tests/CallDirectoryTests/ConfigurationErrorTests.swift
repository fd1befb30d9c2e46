import CallDirectory
import Testing

/// A value outside what an initializer accepts is thrown as a `ConfigurationError` naming the
/// parameter, the value and the values allowed; the edges of each range are accepted.
@Suite struct ConfigurationErrorTests {
  static func countryCode(_ code: Int) -> ConfigurationError {
    ConfigurationError(parameter: "defaultCountryCode", value: "\(code)", allowed: "1...999")
  }

  static func digitLimits(_ limits: ClosedRange<Int>) -> ConfigurationError {
    ConfigurationError(parameter: "digitLimits", value: "\(limits)", allowed: "1...19")
  }

  @Test(arguments: [Int.min, -1, 0, 1_000, Int.max])
  func parserRefusesACountryCodeOutsideTheRange(code: Int) {
    #expect(throws: Self.countryCode(code)) { try PhoneNumberParser(defaultCountryCode: code) }
  }

  @Test(arguments: [0...15, 1...20, 0...0, 20...20])
  func parserRefusesDigitLimitsOutsideTheFormatsDomain(limits: ClosedRange<Int>) {
    #expect(throws: Self.digitLimits(limits)) { try PhoneNumberParser(digitLimits: limits) }
  }

  @Test func parserAcceptsTheEdges() throws {
    #expect(try PhoneNumberParser(defaultCountryCode: 1).defaultCountryCode == 1)
    #expect(try PhoneNumberParser(defaultCountryCode: 999).defaultCountryCode == 999)
    #expect(try PhoneNumberParser(digitLimits: 1...19).digitLimits == 1...19)
    #expect(try PhoneNumberParser(digitLimits: 19...19).digitLimits == 19...19)
  }

  @Test func resolverRefusesWhatTheParserRefuses() throws {
    #expect(throws: Self.countryCode(0)) { try Resolver(sources: [], defaultCountryCode: 0) }
    #expect(throws: Self.digitLimits(1...20)) { try Resolver(sources: [], digitLimits: 1...20) }
    #expect(try Resolver(sources: [], defaultCountryCode: 44).defaultCountryCode == 44)
  }

  @Test(arguments: [Int.min, -1, 0])
  func directoryFeedRefusesALimitBelowOne(limit: Int) throws {
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    let reader = try CallDirectoryReader(bytes: try builder.encoded())
    #expect(throws: ConfigurationError(parameter: "limit", value: "\(limit)", allowed: "1...\(Int.max)")) {
      try DirectoryFeed(reader, limit: limit)
    }
    #expect(try DirectoryFeed(reader, limit: 1).limit == 1)
    #expect(DirectoryFeed(reader).limit == Limits.callKitMaximumEntriesPerLoad)
  }

  @Test(arguments: [Int.min, -1, 0])
  func changeFeedRefusesALimitBelowOne(limit: Int) throws {
    #expect(throws: ConfigurationError(parameter: "limit", value: "\(limit)", allowed: "1...\(Int.max)")) {
      try ChangeFeed(FakeChanges(), limit: limit)
    }
    #expect(try ChangeFeed(FakeChanges(), limit: 1).limit == 1)
  }

  @Test(arguments: [Int.min, -1])
  func changeFeedRefusesARemovalLimitBelowZero(removalLimit: Int) throws {
    #expect(throws: ConfigurationError(parameter: "removalLimit", value: "\(removalLimit)", allowed: "0...\(Int.max)")) {
      try ChangeFeed(FakeChanges(), removalLimit: removalLimit)
    }
    #expect(try ChangeFeed(FakeChanges(), removalLimit: 0).removalLimit == 0)
  }

  @Test func theMessageNamesParameterValueAndRange() {
    #expect(Self.countryCode(1_000).description == "defaultCountryCode 1000 is not in 1...999")
  }
}
