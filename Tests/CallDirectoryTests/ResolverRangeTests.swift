import CallDirectory
import Testing

/// The resolver over directories with ranges: edges, a user's allow entry inside a provider's
/// blocked range, a labelled range.
@Suite struct ResolverRangeTests {
  static func directory(_ build: (inout DirectoryBuilder) throws -> Void) throws -> CallDirectoryReader {
    var builder = DirectoryBuilder()
    try build(&builder)
    return try CallDirectoryReader(bytes: try builder.encoded())
  }

  @Test func rangesAtTheirEdgesAndAllowListsInsideThem() throws {
    let premium: ClosedRange<Int64> = 33_899_000_000...33_899_999_999
    let provider = try Self.directory { builder in
      try builder.block(premium)
      try builder.identify(premium, label: "Premium rate")
    }
    let contacts = try Self.directory { try $0.identify(33_899_123_456, label: "Plumber") }
    let businesses = try Self.directory { try $0.identify(33_140_000_000...33_140_009_999, label: "Mairie de Paris") }
    let resolver = try Resolver(sources: [
      .init(name: "contacts", role: .allowList, provider: contacts), .init(name: "provider", provider: provider),
      .init(name: "businesses", provider: businesses),
    ])
    for edge in [premium.lowerBound, premium.upperBound] {
      let answer = try resolver.resolve(edge)
      #expect(answer.action == .block && answer.label == "Premium rate" && answer.directory?.name == "provider")
    }
    for outside in [premium.lowerBound - 1, premium.upperBound + 1] {
      #expect(try resolver.resolve(outside).reason == .notListed)
    }
    let plumber = try resolver.resolve(caller: "+33 8 99 12 34 56")
    #expect(plumber.action == .allow && plumber.reason == .allowListed && plumber.label == "Plumber")
    let mairie = try resolver.resolve(caller: "+33 1 40 00 50 00")
    #expect(mairie.action == .identify && mairie.label == "Mairie de Paris" && mairie.directory?.name == "businesses")
  }
}
