import CallDirectory
import Testing

@Suite struct FeedDirectoryTests {
  static let cases: [(seed: UInt64, items: Int, extremes: Bool)] = [
    (1, 0, false), (2, 1, false), (3, 2, true), (4, 50, false), (5, 400, true), (6, 1_000, false), (7, 300, true),
  ]

  @Test(arguments: cases)
  func fullLoadDeliversExactlyTheEntriesWithinTheRules(seed: UInt64, items: Int, extremes: Bool) throws {
    let feedCase = try FeedCase.random(seed: seed, items: items, extremes: extremes)
    print("feed case: \(feedCase)")
    #expect(Verifier.verify(feedCase.bytes).isValid)
    let feed = DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes))
    let plan = try feed.plan()
    #expect(plan.blockingAdditions == feedCase.expected.blocking.count)
    #expect(plan.identificationAdditions == feedCase.expected.identification.count)
    #expect(plan.fits && plan.loadsNeeded == 1)
    var sink = RuleCheckingSink()
    try feed.feedWhole(into: &sink)
    #expect(sink.violations == [])
    #expect(sink.contents == feedCase.expected)
    #expect(sink.removedAll.isEmpty)
  }

  @Test func extremesOneAndTheLargestNumberAreSent() throws {
    let feedCase = try FeedCase.random(seed: 11, items: 5, extremes: true)
    var sink = RuleCheckingSink()
    try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes)).feedWhole(into: &sink)
    #expect(sink.blocking.first == 1 && sink.blocking.last == Limits.maximumNumber)
    #expect(sink.identification.first?.0 == 1 && sink.identification.last?.0 == Limits.maximumNumber)
    #expect(sink.violations == [])
  }

  @Test func emptyDirectorySendsNothing() throws {
    let feed = DirectoryFeed(try CallDirectoryReader(bytes: try DirectoryBuilder().encoded()))
    #expect(try feed.plan() == FeedPlan(blockingAdditions: 0, identificationAdditions: 0, limit: 2_000_000))
    var sink = RuleCheckingSink()
    #expect(try feed.feed(into: &sink) == nil)
    #expect(sink.calls == 0)
  }

  @Test func incrementalLoadWithoutCursorStartsByRemovingEverything() throws {
    let feedCase = try FeedCase.random(seed: 21, items: 40, extremes: false)
    var sink = RuleCheckingSink(isIncremental: true)
    try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes)).feedWhole(into: &sink)
    #expect(sink.removedAll == [.blocking, .identification])
    #expect(sink.contents == feedCase.expected)
    #expect(sink.violations == [])
  }

  @Test func damagedBlockStopsTheFeedAndVerifyFindsItFirst() throws {
    let feedCase = try FeedCase.random(seed: 31, items: 3_000, extremes: false, rangeShare: 1_000)
    var bytes = feedCase.bytes
    let crafted = try CraftedFile(bytes)
    let blocks = crafted.blockRanges(.blocking)
    #expect(blocks.count > 1)
    let target = try #require(blocks.last)
    bytes[crafted.offset(of: .blockingData) + target.lowerBound + 9] ^= 1
    #expect(!Verifier.verify(bytes).isValid)
    let feed = DirectoryFeed(try CallDirectoryReader(bytes: bytes))
    var sink = RuleCheckingSink()
    #expect {
      try feed.feed(into: &sink)
    } throws: { error in
      guard case .damaged = error as? FeedError<RuleCheckingSink.Violation> else { return false }
      return true
    }
    // What was sent before the damaged block was still within the rules.
    #expect(sink.violations == [])
    #expect(sink.blocking.count < feedCase.expected.blocking.count)
  }
}
