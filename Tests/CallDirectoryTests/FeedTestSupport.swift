import CallDirectory
import Testing

/// A sink that enforces CallKit's rules on every call, as iOS does: a call that breaks one is
/// recorded and thrown, and a test expects none.
struct RuleCheckingSink: CallDirectorySink {
  struct Violation: Error, CustomStringConvertible {
    let description: String
  }

  let isIncremental: Bool
  /// The most additions the load may take.
  let cap: Int
  /// Whether to keep every entry (off for huge loads: the rules are still checked).
  var recording = true
  private(set) var blocking: [Int64] = []
  private(set) var identification: [(Int64, String)] = []
  private(set) var removedBlocking: [Int64] = []
  private(set) var removedIdentification: [Int64] = []
  private(set) var removedAll: [EntryKind] = []
  private(set) var additions = 0
  private(set) var calls = 0
  private(set) var violations: [String] = []
  private var lastAdded: [EntryKind: Int64] = [:]
  private var lastRemoved: [EntryKind: Int64] = [:]

  init(isIncremental: Bool = false, cap: Int = Limits.callKitMaximumEntriesPerLoad) {
    self.isIncremental = isIncremental
    self.cap = cap
  }

  private mutating func fail(_ message: String) -> Violation {
    violations.append(message)
    return Violation(description: message)
  }

  private mutating func add(_ kind: EntryKind, _ number: Int64) throws(Violation) {
    calls += 1
    guard number > 0 else { throw fail("\(kind) addition \(number) <= 0") }
    if let last = lastAdded[kind] {
      guard number != last else { throw fail("\(kind) duplicate \(number)") }
      guard number > last else { throw fail("\(kind) \(number) after \(last): not ascending") }
    }
    guard additions < cap else { throw fail("more than \(cap) additions") }
    lastAdded[kind] = number
    additions += 1
  }

  private mutating func remove(_ kind: EntryKind, _ number: Int64?) throws(Violation) {
    calls += 1
    guard isIncremental else { throw fail("\(kind) removal in a full load") }
    guard lastAdded.isEmpty else { throw fail("\(kind) removal after an addition") }
    if let number {
      guard number > 0 else { throw fail("\(kind) removal \(number) <= 0") }
      if let last = lastRemoved[kind], number <= last { throw fail("\(kind) removal \(number) after \(last)") }
      lastRemoved[kind] = number
    }
  }

  mutating func addBlockingEntry(_ number: Int64) throws(Violation) {
    try add(.blocking, number)
    if recording { blocking.append(number) }
  }

  mutating func addIdentificationEntry(_ number: Int64, label: String) throws(Violation) {
    guard Limits.isValidLabelLength(label.utf8.count) else { throw fail("label of \(label.utf8.count) bytes") }
    try add(.identification, number)
    if recording { identification.append((number, label)) }
  }

  mutating func removeBlockingEntry(_ number: Int64) throws(Violation) {
    try remove(.blocking, number)
    removedBlocking.append(number)
  }

  mutating func removeIdentificationEntry(_ number: Int64) throws(Violation) {
    try remove(.identification, number)
    removedIdentification.append(number)
  }

  mutating func removeAllBlockingEntries() throws(Violation) {
    try remove(.blocking, nil)
    removedAll.append(.blocking)
  }

  mutating func removeAllIdentificationEntries() throws(Violation) {
    try remove(.identification, nil)
    removedAll.append(.identification)
  }

  /// What the sink was given, as directory contents.
  var contents: Contents { Contents(blocking: blocking, identification: identification) }
}

/// A seeded directory: singles and ranges of each kind, some labels, optionally the extreme
/// numbers, with its expected expansion computed from the inputs, not from a reader.
struct FeedCase: CustomStringConvertible {
  let description: String
  let bytes: [UInt8]
  let expected: Contents

  static func random(seed: UInt64, items: Int, extremes: Bool, rangeShare: Int = 3) throws -> FeedCase {
    var random = SeededGenerator(seed: seed)
    var builder = DirectoryBuilder()
    var expected = Contents()
    let labels = ["Spam", "Acme Support", "Клиника", String(repeating: "x", count: Limits.maximumLabelBytes), "☎"]
    for kind in EntryKind.allCases {
      var next: Int64 = extremes ? 1 : Int64.random(in: 1...1_000_000, using: &random)
      for index in 0..<items {
        // With extremes the last item sits at Int64.max - 6 as a single, below the top entry.
        let isRange = Int.random(in: 0..<rangeShare, using: &random) == 0 && !(extremes && index == items - 1)
        let last = isRange ? next + Int64.random(in: 1...300, using: &random) : next
        let label = labels[Int.random(in: 0..<labels.count, using: &random)]
        if kind == .blocking {
          try builder.block(next...last)
          expected.blocking += Array(next...last)
        } else {
          try builder.identify(next...last, label: label)
          expected.identification += (next...last).map { ($0, label) }
        }
        // Blocking runs may touch (the writer merges them); identification gaps keep labels apart.
        if extremes && index == items - 2 {
          next = Limits.maximumNumber - 6
        } else if index < items - 1 {
          next = last + Int64.random(in: (kind == .blocking ? 1 : 2)...50_000, using: &random)
        }
      }
      if extremes {
        let top = Limits.maximumNumber
        if kind == .blocking {
          try builder.block(top)
          expected.blocking.append(top)
        } else {
          try builder.identify(top, label: "Top")
          expected.identification.append((top, "Top"))
        }
      }
    }
    return FeedCase(
      description: "seed \(seed), \(items) items\(extremes ? ", extremes" : "")", bytes: try builder.encoded(), expected: expected
    )
  }
}

/// Changes as plain runs, for feeding without a changeset file.
struct FakeChanges: ChangeSource {
  var fingerprint: UInt64 = 0
  var removals: [EntryKind: [ClosedRange<Int64>]] = [:]
  var additions: [EntryKind: [(ClosedRange<Int64>, String?)]] = [:]

  var counts: (removals: (blocking: Int, identification: Int), additions: (blocking: Int, identification: Int)) {
    (
      (removals[.blocking]?.count ?? 0, removals[.identification]?.count ?? 0),
      (additions[.blocking]?.count ?? 0, additions[.identification]?.count ?? 0)
    )
  }

  func forEachRemoval<E: Error>(_ kind: EntryKind, _ body: (ClosedRange<Int64>) throws(E) -> Void) throws(StreamError<E>) {
    for run in removals[kind] ?? [] {
      do throws(E) { try body(run) } catch { throw .consumer(error) }
    }
  }

  func forEachAddition<E: Error>(
    _ kind: EntryKind, _ body: (ClosedRange<Int64>, String?) throws(E) -> Void
  ) throws(StreamError<E>) {
    for (run, label) in additions[kind] ?? [] {
      do throws(E) { try body(run, label) } catch { throw .consumer(error) }
    }
  }
}

/// Feeds `feed` load after load, as iOS would call the extension, the first load full and the
/// rest incremental, each sink checking the rules; returns the sinks.
func feedInLoads(_ feed: DirectoryFeed, cap: Int, maximumLoads: Int = 10_000) throws -> [RuleCheckingSink] {
  var sinks: [RuleCheckingSink] = []
  var cursor: FeedCursor?
  repeat {
    var sink = RuleCheckingSink(isIncremental: !sinks.isEmpty, cap: cap)
    cursor = try feed.feed(into: &sink, resumingFrom: cursor)
    sinks.append(sink)
  } while cursor != nil && sinks.count < maximumLoads
  return sinks
}
