import CallDirectory
import Testing

@Suite struct FeedChangeTests {
  private var changes: FakeChanges {
    var changes = FakeChanges()
    changes.removals[.blocking] = [1...3, 10...10, 100...104]
    changes.removals[.identification] = [7...7, Limits.maximumNumber...Limits.maximumNumber]
    changes.additions[.blocking] = [(5...6, nil), (50...52, nil), ((Limits.maximumNumber - 1)...Limits.maximumNumber, nil)]
    changes.additions[.identification] = [(7...7, "Acme"), (20...24, "Spam")]
    return changes
  }

  @Test func removalsThenAdditionsEachKindAscending() throws {
    let feed = ChangeFeed(changes)
    let plan = try feed.plan()
    #expect(plan.blockingRemovals == 9 && plan.identificationRemovals == 2)
    #expect(plan.blockingAdditions == 7 && plan.identificationAdditions == 6)
    var sink = RuleCheckingSink(isIncremental: true)
    #expect(try feed.feed(into: &sink) == nil)
    #expect(sink.violations == [])
    #expect(sink.removedBlocking == [1, 2, 3, 10, 100, 101, 102, 103, 104])
    #expect(sink.removedIdentification == [7, Limits.maximumNumber])
    #expect(sink.blocking == [5, 6, 50, 51, 52, Limits.maximumNumber - 1, Limits.maximumNumber])
    #expect(sink.identification.map(\.0) == [7, 20, 21, 22, 23, 24])
    #expect(sink.identification.map(\.1) == ["Acme", "Spam", "Spam", "Spam", "Spam", "Spam"])
  }

  @Test func changesNeedAnIncrementalLoad() {
    var sink = RuleCheckingSink()
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try ChangeFeed(changes).feed(into: &sink) }
    #expect(sink.calls == 0)
  }

  @Test(arguments: [1, 2, 5, 12, 13])
  func additionsOverTheCapAreSplitWithRemovalsInTheFirstLoad(cap: Int) throws {
    let feed = try ChangeFeed(changes, fingerprint: 77, limit: cap)
    var sinks: [RuleCheckingSink] = []
    var cursor: FeedCursor?
    repeat {
      var sink = RuleCheckingSink(isIncremental: true, cap: cap)
      cursor = try feed.feed(into: &sink, resumingFrom: cursor)
      #expect(cursor == nil || cursor?.fingerprint == 77)
      sinks.append(sink)
    } while cursor != nil && sinks.count < 100
    #expect(sinks.count == (try feed.plan()).loadsNeeded)
    #expect(sinks.allSatisfy { $0.violations.isEmpty })
    #expect(sinks.dropFirst().allSatisfy { $0.removedBlocking.isEmpty && $0.removedIdentification.isEmpty })
    #expect(sinks.flatMap(\.blocking) == [5, 6, 50, 51, 52, Limits.maximumNumber - 1, Limits.maximumNumber])
    #expect(sinks.flatMap(\.identification).map(\.0) == [7, 20, 21, 22, 23, 24])
    var other = RuleCheckingSink(isIncremental: true, cap: cap)
    let foreign = FeedCursor(kind: .blocking, next: 6, fingerprint: 78)
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try feed.feed(into: &other, resumingFrom: foreign) }
  }

  static let broken: [(String, FakeChanges)] = {
    var descending = FakeChanges()
    descending.additions[.blocking] = [(10...12, nil), (5...6, nil)]
    var overlapping = FakeChanges()
    overlapping.removals[.identification] = [1...5, 5...9]
    var zero = FakeChanges()
    zero.additions[.blocking] = [(0...3, nil)]
    var tooLarge = FakeChanges()
    tooLarge.removals[.blocking] = [(Limits.maximumNumber - 1)...Int64.max]
    var emptyLabel = FakeChanges()
    emptyLabel.additions[.identification] = [(4...4, "")]
    var longLabel = FakeChanges()
    longLabel.additions[.identification] = [(4...4, String(repeating: "é", count: 32_768))]
    var missingLabel = FakeChanges()
    missingLabel.additions[.identification] = [(4...4, nil)]
    var lateBreak = FakeChanges()
    lateBreak.removals[.blocking] = [1...1]
    lateBreak.additions[.identification] = [(8...9, "Fine"), (9...9, "Again")]
    return [
      ("descending", descending), ("overlapping", overlapping), ("zero", zero), ("too large", tooLarge),
      ("empty label", emptyLabel), ("long label", longLabel), ("missing label", missingLabel), ("late break", lateBreak),
    ]
  }()

  @Test(arguments: broken)
  func brokenChangesAreRefusedBeforeAnythingIsSent(name: String, changes: FakeChanges) {
    var sink = RuleCheckingSink(isIncremental: true)
    #expect {
      try ChangeFeed(changes).feed(into: &sink)
    } throws: { error in
      guard case .ruleBroken = error as? FeedError<RuleCheckingSink.Violation> else { return false }
      return true
    }
    #expect(sink.calls == 0, "\(name)")
  }

  @Test func largestLabelIsAccepted() throws {
    var changes = FakeChanges()
    changes.additions[.identification] = [(4...4, String(repeating: "é", count: 32_767))]
    var sink = RuleCheckingSink(isIncremental: true)
    _ = try ChangeFeed(changes).feed(into: &sink)
    #expect(sink.identification.count == 1 && sink.violations == [])
  }
}
