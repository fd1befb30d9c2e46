import CallDirectory
import Foundation
import Testing

/// Extracts of real numbering data (`Samples/datasets/make` writes the whole sets): the French
/// regulator's telemarketing ranges and libphonenumber's nested carrier prefixes for UK mobiles,
/// in two releases.
@Suite struct RealDataTests {
  static func fixture(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: SpecVectorTests.root.appendingPathComponent("Tests/Fixtures/\(name)")))
  }

  static func telemarketing() throws -> CallDirectoryReader {
    var builder = DirectoryBuilder()
    let records = try BlockListParser.parse(
      bytes: try fixture("fr-telemarketing.txt"), file: "fr-telemarketing.txt", parser: PhoneNumberParser())
    for record in records { try builder.block(record.numbers) }
    return try CallDirectoryReader(bytes: try builder.encoded())
  }

  /// The 12 telemarketing prefixes' allocations hold more numbers than one CallKit load takes:
  /// the feed plans two loads, and the two, the second incremental from the first's cursor, send
  /// every number once, ascending.
  @Test func telemarketingNeedsTwoLoads() throws {
    let reader = try Self.telemarketing()
    let feed = DirectoryFeed(reader)
    let plan = try feed.plan()
    #expect(plan.blockingAdditions == 2_269_000)
    #expect(plan.loadsNeeded == 2)
    var first = RuleCheckingSink()
    first.recording = false
    let cursor = try #require(try feed.feed(into: &first))
    #expect(first.additions == Limits.callKitMaximumEntriesPerLoad && first.violations.isEmpty)
    var second = RuleCheckingSink(isIncremental: true)
    second.recording = false
    #expect(try feed.feed(into: &second, resumingFrom: cursor) == nil)
    #expect(second.violations.isEmpty)
    #expect(first.additions + second.additions == 2_269_000)
    for number: Int64 in [33_162_000_000, 33_162_999_999, 33_948_999_999, 33_949_000_000, 33_170_000_000] {
      let listed = try Self.listed(number)
      #expect(try reader.isBlocked(number) == listed, "+\(number)")
    }
  }

  /// Whether a number lies in one of the fixture's ranges, read from the text alone.
  static func listed(_ number: Int64) throws -> Bool {
    let text = String(decoding: try fixture("fr-telemarketing.txt"), as: UTF8.self)
    return text.split(separator: "\n").contains { line in
      guard !line.hasPrefix("#") else { return false }
      let ends = line.split(separator: "..").map { Int64($0.dropFirst())! }
      return ends[0] <= number && number <= ends[ends.count - 1]
    }
  }

  /// A prefix listing's ranges, and the answer of the longest prefix (the narrowest range)
  /// holding a number: how libphonenumber reads its own tables.
  struct PrefixModel {
    var ranges: [(numbers: ClosedRange<Int64>, label: String)] = []

    func answer(_ number: Int64) -> String? {
      ranges.filter { $0.numbers.contains(number) }.min { $0.numbers.count < $1.numbers.count }?.label
    }
  }

  static func carrier(_ version: String) throws -> (listing: [UInt8], records: [ListingRecord]) {
    let listing = try fixture("carrier-gb-mobile-\(version).csv")
    return (listing, try ListingParser.parse(bytes: listing, file: "carrier", parser: .formatDomain))
  }

  /// The carrier prefixes nest (a six-digit prefix for one carrier inside a five-digit one for
  /// another): they pack as published, and every range boundary answers as the longest prefix.
  @Test(arguments: ["8.12.57", "9.0.43"])
  func carrierPrefixesNest(version: String) throws {
    let (listing, records) = try Self.carrier(version)
    let model = PrefixModel(ranges: records.map { ($0.numbers, $0.label!) })
    let nested = model.ranges.filter { inner in
      model.ranges.contains {
        $0.label != inner.label && $0.numbers != inner.numbers && $0.numbers.contains(inner.numbers.lowerBound)
      }
    }
    #expect(nested.count > 50, "the extract must nest to test nesting")
    let bytes = try SpecVectorTests.pack(listing: listing, entriesPerBlock: 512)
    let reader = try CallDirectoryReader(bytes: bytes)
    for range in model.ranges {
      for number in [
        range.numbers.lowerBound - 1, range.numbers.lowerBound, range.numbers.upperBound, range.numbers.upperBound + 1,
      ] {
        #expect(try reader.label(for: number) == model.answer(number), "+\(number)")
      }
    }
    #expect(Verifier.verify(bytes).isValid)
    #expect(try NestingTests.repacked(reader) == bytes)
  }

  /// The real churn between two releases as a changeset: it patches the old file into the new.
  @Test func carrierChurnBetweenReleases() throws {
    let old = try CallDirectoryReader(
      bytes: try SpecVectorTests.pack(listing: try Self.carrier("8.12.57").listing, entriesPerBlock: 512))
    let newBytes = try SpecVectorTests.pack(listing: try Self.carrier("9.0.43").listing, entriesPerBlock: 512)
    let changes = try Changeset.diff(old: old, new: try CallDirectoryReader(bytes: newBytes))
    #expect(changes.count < newBytes.count)
    #expect(try Changeset.patched(old: old, changes: try ChangesetReader(bytes: changes)) == newBytes)
  }
}
