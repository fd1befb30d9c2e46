import CallDirectory
import Foundation
import Testing

@Suite struct FeedCapTests {
  @Test(arguments: [1, 7, 1_000, 4_999])
  func overTheCapIsSplitAndTheLoadsTogetherAreTheWhole(cap: Int) throws {
    let feedCase = try FeedCase.random(seed: 41, items: 60, extremes: true)
    let total = feedCase.expected.blocking.count + feedCase.expected.identification.count
    print("feed case: \(feedCase), \(total) entries, cap \(cap)")
    let feed = try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes), limit: cap)
    let plan = try feed.plan()
    #expect(plan.additions == total && !plan.fits)
    let sinks = try feedInLoads(feed, cap: cap)
    #expect(sinks.count == plan.loadsNeeded)
    #expect(sinks.allSatisfy { $0.violations.isEmpty && $0.additions <= cap })
    #expect(sinks.dropLast().allSatisfy { $0.additions == cap })
    #expect(!sinks[0].isIncremental && sinks.dropFirst().allSatisfy(\.isIncremental))
    let union = Contents(blocking: sinks.flatMap(\.blocking), identification: sinks.flatMap(\.identification))
    #expect(union == feedCase.expected)
  }

  @Test(arguments: [0, 1])
  func atTheCapIsOneLoad(extra: Int) throws {
    let feedCase = try FeedCase.random(seed: 42, items: 30, extremes: false)
    let total = feedCase.expected.blocking.count + feedCase.expected.identification.count
    let feed = try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes), limit: total + extra)
    #expect(try feed.plan().fits)
    let sinks = try feedInLoads(feed, cap: total + extra)
    #expect(sinks.count == 1 && sinks[0].contents == feedCase.expected)
  }

  @Test func feedWholeRefusesOverTheCapBeforeSendingAnything() throws {
    let feedCase = try FeedCase.random(seed: 43, items: 30, extremes: false)
    let feed = try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes), limit: 10)
    var sink = RuleCheckingSink(cap: 10)
    #expect {
      try feed.feedWhole(into: &sink)
    } throws: { error in
      guard case .overLimit(let plan) = error as? FeedError<RuleCheckingSink.Violation> else { return false }
      return !plan.fits && plan.limit == 10
    }
    #expect(sink.calls == 0)
  }

  @Test func cursorSurvivesStorageAsJSON() throws {
    let feedCase = try FeedCase.random(seed: 44, items: 40, extremes: false)
    let feed = try DirectoryFeed(try CallDirectoryReader(bytes: feedCase.bytes), limit: 100)
    var sinks: [RuleCheckingSink] = []
    var stored: Data?
    repeat {
      let cursor = try stored.map { try JSONDecoder().decode(FeedCursor.self, from: $0) }
      var sink = RuleCheckingSink(isIncremental: cursor != nil, cap: 100)
      stored = try feed.feed(into: &sink, resumingFrom: cursor).map { try JSONEncoder().encode($0) }
      sinks.append(sink)
    } while stored != nil
    let union = Contents(blocking: sinks.flatMap(\.blocking), identification: sinks.flatMap(\.identification))
    #expect(union == feedCase.expected)
    let sample = FeedCursor(kind: .identification, next: Limits.maximumNumber, fingerprint: .max)
    #expect(try JSONDecoder().decode(FeedCursor.self, from: JSONEncoder().encode(sample)) == sample)
    #expect {
      try JSONDecoder().decode(FeedCursor.self, from: Data(#"{"kind":"allow","next":1,"fingerprint":0}"#.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
      return context.codingPath.last?.stringValue == "kind"
    }
  }

  @Test func cursorIsRefusedForAnotherDirectoryOrAFullLoad() throws {
    let first = try DirectoryFeed(
      try CallDirectoryReader(bytes: try FeedCase.random(seed: 45, items: 30, extremes: false).bytes), limit: 10)
    let second = try DirectoryFeed(
      try CallDirectoryReader(bytes: try FeedCase.random(seed: 46, items: 30, extremes: false).bytes), limit: 10)
    #expect(first.fingerprint != second.fingerprint)
    var sink = RuleCheckingSink(cap: 10)
    let cursor = try #require(try first.feed(into: &sink))
    var incremental = RuleCheckingSink(isIncremental: true, cap: 10)
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try second.feed(into: &incremental, resumingFrom: cursor) }
    var full = RuleCheckingSink(cap: 10)
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try first.feed(into: &full, resumingFrom: cursor) }
    var outside = cursor
    outside.next = 0
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try first.feed(into: &incremental, resumingFrom: outside) }
    #expect(incremental.calls == 0 && full.calls == 0)
  }

  /// CallKit's own cap, by default: one number over it is refused whole and split into two loads.
  @Test func defaultCapIsCallKits() throws {
    var builder = DirectoryBuilder()
    try builder.block(1...Int64(Limits.callKitMaximumEntriesPerLoad))
    try builder.identify(Limits.maximumNumber, label: "Last")
    let feed = DirectoryFeed(try CallDirectoryReader(bytes: try builder.encoded()))
    let plan = try feed.plan()
    #expect(plan.additions == 2_000_001 && !plan.fits && plan.loadsNeeded == 2)
    var refused = RuleCheckingSink()
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try feed.feedWhole(into: &refused) }
    #expect(refused.calls == 0)
    var first = RuleCheckingSink()
    first.recording = false
    let cursor = try #require(try feed.feed(into: &first))
    #expect(first.additions == 2_000_000 && first.violations == [])
    #expect(cursor.kind == .identification && cursor.next == Limits.maximumNumber)
    var second = RuleCheckingSink(isIncremental: true)
    #expect(try feed.feed(into: &second, resumingFrom: cursor) == nil)
    #expect(second.identification.map(\.0) == [Limits.maximumNumber] && second.removedAll.isEmpty)
  }

  @Test func planSaturatesAndCountsLoads() {
    let plan = FeedPlan(blockingAdditions: .max, identificationAdditions: 5, limit: 2_000_000)
    #expect(plan.additions == .max && !plan.fits)
    #expect(FeedPlan(blockingAdditions: 4_000_001, identificationAdditions: 0, limit: 2_000_000).loadsNeeded == 3)
    #expect(FeedPlan(blockingAdditions: 2_000_000, identificationAdditions: 2_000_000, limit: 2_000_000).loadsNeeded == 2)
    #expect(FeedPlan(blockingAdditions: 0, identificationAdditions: 0, limit: 2_000_000).loadsNeeded == 1)
  }
}

/// What a feed's error says in a log: one line with the figures, for every case, and no trap on a
/// run at the ends of Int64 (a broken source can hand over anything).
@Suite struct FeedErrorDescriptionTests {
  struct SinkDown: Error, CustomStringConvertible { var description: String { "CallKit went away" } }

  @Test func everyCaseSaysWhatStoppedTheFeed() {
    let plan = FeedPlan(blockingAdditions: 1_500_000, identificationAdditions: 700_000, blockingRemovals: 3, limit: 2_000_000)
    let cases: [(FeedError<SinkDown>, String)] = [
      (.damaged(FormatError(.badMagic, at: 0)), "the directory is damaged: not a call directory file (bad magic) at byte 0"),
      (
        .ruleBroken(kind: .blocking, numbers: Int64.min...Int64.max, reason: "out of range"),
        "block +\(Int64.min)..+\(Int64.max) breaks CallKit's rules: out of range"
      ),
      (
        .ruleBroken(kind: .identification, numbers: 5...5, reason: "empty label"),
        "identify +5 breaks CallKit's rules: empty label"
      ),
      (.overLimit(plan), "the load has 2200000 additions and 3 removals, over the limit of 2000000 additions"),
      (.needsIncrementalLoad, "CallKit asked for a full load"),
      (
        .cursorMismatch(FeedCursor(kind: .identification, next: 12_025_550_100, fingerprint: 42)),
        "the cursor (identify from +12025550100, fingerprint 42) belongs to another directory or changeset"
      ),
      (.sink(SinkDown()), "the sink failed: CallKit went away"),
    ]
    for (error, words) in cases {
      #expect("\(error)".contains(words), "\(error)")
      #expect(!"\(error)".contains("\n"))
    }
  }
}
