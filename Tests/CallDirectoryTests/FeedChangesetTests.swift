import CallDirectory
import Testing

@Suite struct FeedChangesetTests {
  /// What CallKit holds for an extension: the entries of every load applied in turn.
  struct Model: Equatable {
    var blocking: Set<Int64> = []
    var identification: [Int64: String] = [:]

    init(_ contents: Contents) {
      blocking = Set(contents.blocking)
      for (number, label) in contents.identification { identification[number] = label }
    }

    mutating func apply(_ sink: RuleCheckingSink) {
      if !sink.isIncremental || sink.removedAll.contains(.blocking) { blocking = [] }
      if !sink.isIncremental || sink.removedAll.contains(.identification) { identification = [:] }
      for number in sink.removedBlocking { blocking.remove(number) }
      for number in sink.removedIdentification { identification[number] = nil }
      blocking.formUnion(sink.blocking)
      for (number, label) in sink.identification { identification[number] = label }
    }
  }

  static let pairs: [(old: UInt64, oldItems: Int, new: UInt64, newItems: Int)] = [
    (1, 0, 2, 80), (3, 80, 4, 0), (5, 120, 5, 140), (6, 60, 7, 60), (8, 100, 8, 100),
  ]

  @Test(arguments: pairs)
  func changesetFeedTurnsTheOldEntriesIntoTheNew(old: UInt64, oldItems: Int, new: UInt64, newItems: Int) throws {
    let before = try FeedCase.random(seed: old, items: oldItems, extremes: oldItems > 2)
    let after = try FeedCase.random(seed: new, items: newItems, extremes: newItems > 2)
    print("changeset from \(before) to \(after)")
    let changes = try ChangesetReader(
      bytes: try Changeset.diff(
        old: try CallDirectoryReader(bytes: before.bytes), new: try CallDirectoryReader(bytes: after.bytes)))
    var model = Model(before.expected)
    for cap in [Limits.callKitMaximumEntriesPerLoad, 1_000] {
      var state = model
      let feed = try ChangeFeed(changes, fingerprint: new, limit: cap)
      var cursor: FeedCursor?
      var loads = 0
      repeat {
        var sink = RuleCheckingSink(isIncremental: true, cap: cap)
        cursor = try feed.feed(into: &sink, resumingFrom: cursor)
        #expect(sink.violations == [])
        state.apply(sink)
        loads += 1
      } while cursor != nil && loads < 10_000
      #expect(loads == (try feed.plan()).loadsNeeded)
      #expect(state == Model(after.expected), "cap \(cap)")
      model = Model(before.expected)
    }
  }
}

/// What a changeset feed refuses before it sends anything: another changeset's cursor, and more
/// removals than it may send in one load.
@Suite struct FeedChangesetRefusalTests {
  static func directory(_ blocking: [ClosedRange<Int64>]) throws -> CallDirectoryReader {
    var builder = DirectoryBuilder()
    for run in blocking { try builder.block(run) }
    return try CallDirectoryReader(bytes: try builder.encoded())
  }

  static func changes(_ old: [ClosedRange<Int64>], _ new: [ClosedRange<Int64>]) throws -> ChangesetReader {
    try ChangesetReader(bytes: try Changeset.diff(old: try directory(old), new: try directory(new)))
  }

  /// A cursor of changeset A, given to a feed of changeset B from the same base, would skip B's
  /// removals and start its additions at A's place: with the default fingerprints it is refused.
  @Test func anotherChangesetsCursorIsRefused() throws {
    let base: [ClosedRange<Int64>] = [1...1, 50...60]
    let a = try Self.changes(base, base + [100...110])
    let b = try Self.changes(base, [1...1, 70...80])
    var first = RuleCheckingSink(isIncremental: true, cap: 3)
    let cursor = try #require(try ChangeFeed(a, limit: 3).feed(into: &first))
    #expect(cursor.fingerprint == a.fingerprint)
    var second = RuleCheckingSink(isIncremental: true, cap: 3)
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) {
      try ChangeFeed(b, limit: 3).feed(into: &second, resumingFrom: cursor)
    }
    #expect(second.calls == 0)
    // The same result from another base, and the change back, have fingerprints of their own.
    let sameResult = try Self.changes([1...1], base + [100...110])
    let back = try Self.changes(base + [100...110], base)
    #expect(Set([a.fingerprint, b.fingerprint, sameResult.fingerprint, back.fingerprint]).count == 4)
    // A feed given its own fingerprint carries that one.
    #expect(ChangeFeed(a, fingerprint: 42).fingerprint == 42)
  }

  /// A changeset of a few bytes can remove a range of 9 x 10^18 numbers, each a call to the
  /// sink: more than the removal limit is refused before the first, and the limit itself passes.
  @Test func removalsOverTheLimitAreRefused() throws {
    let flood = try Self.changes([1...Limits.maximumNumber], [5...5])
    #expect(flood.size < 1_000)
    let plan = try ChangeFeed(flood).plan()
    #expect(plan.blockingRemovals == Int(Limits.maximumNumber))
    var sink = RuleCheckingSink(isIncremental: true)
    do {
      _ = try ChangeFeed(flood).feed(into: &sink)
      Issue.record("expected overLimit")
    } catch {
      guard case .overLimit(let refused) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(refused.removals == Int(Limits.maximumNumber))
    }
    #expect(sink.calls == 0)

    let eleven = try Self.changes([1...10, 20...20], [30...30])
    var under = RuleCheckingSink(isIncremental: true)
    #expect(try ChangeFeed(eleven, removalLimit: 11).feed(into: &under) == nil)
    #expect(under.removedBlocking == Array(1...10) + [20])
    var over = RuleCheckingSink(isIncremental: true)
    #expect(throws: FeedError<RuleCheckingSink.Violation>.self) { try ChangeFeed(eleven, removalLimit: 10).feed(into: &over) }
    #expect(over.calls == 0)
  }
}
