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
      bytes: try Changeset.diff(old: try CallDirectoryReader(bytes: before.bytes), new: try CallDirectoryReader(bytes: after.bytes)))
    var model = Model(before.expected)
    for cap in [Limits.callKitMaximumEntriesPerLoad, 1_000] {
      var state = model
      let feed = ChangeFeed(changes, fingerprint: new, limit: cap)
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
