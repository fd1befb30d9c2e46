import CallDirectoryFormat
import CallDirectoryReader

/// Feeds a change source to CallKit in incremental loads: removals, then additions, each kind
/// ascending (blocking, then identification), ranges expanded as they are sent.
///
/// Before anything is sent, a checking pass reads every run once: it counts the numbers (the
/// plan) and checks CallKit's rules, so a broken source fails the feed, never the load. Additions
/// are capped at `limit` per load; removals are all sent in the first load, and a change with more
/// than `removalLimit` is refused before anything is sent (a changeset can remove a range of any
/// size in a few bytes, and each number removed is a call; feed the new directory whole then).
/// Memory: what the source needs to stream (one block for a changeset).
///
///     let feed = ChangeFeed(changeset)
///     let cursor = try feed.feed(into: &sink)   // nil: done
///     print(cursor == nil ? "done" : "more in the next load")
public struct ChangeFeed<Source: ChangeSource> {
  /// The changes fed.
  public let changes: Source
  /// The identity cursors of this feed carry: a cursor with another fingerprint is refused.
  public let fingerprint: UInt64
  /// The most additions one load sends.
  public let limit: Int
  /// The most removals a change may have, all sent in its first load.
  public let removalLimit: Int

  /// A feed of `changes` in loads of at most CallKit's cap of additions, refusing a change with
  /// more removals than that cap (`Limits.callKitMaximumEntriesPerLoad`).
  /// - Parameter fingerprint: the identity its cursors carry; by default the source's own
  ///   (`ChangeSource.fingerprint`). Give another only if it, too, differs for every change.
  /// - Complexity: O(1).
  public init(_ changes: Source, fingerprint: UInt64? = nil) {
    self.init(
      checked: changes, fingerprint: fingerprint, limit: Limits.callKitMaximumEntriesPerLoad,
      removalLimit: Limits.callKitMaximumEntriesPerLoad)
  }

  /// A feed of `changes` in loads of at most `limit` additions.
  ///
  ///     let feed = try ChangeFeed(changeset, limit: 100_000, removalLimit: 10_000)
  ///     print(try feed.plan().loadsNeeded)
  ///
  /// - Parameters:
  ///   - fingerprint: the identity its cursors carry; by default the source's own
  ///     (`ChangeSource.fingerprint`). Give another only if it, too, differs for every change.
  ///   - limit: the most additions a load sends, at least 1.
  ///   - removalLimit: the most removals the change may have, at least 0 (CallKit's per-load cap
  ///     by default).
  /// - Throws: `ConfigurationError` naming `limit` when it is below 1, or `removalLimit` when it
  ///   is below 0.
  /// - Complexity: O(1).
  public init(
    _ changes: Source, fingerprint: UInt64? = nil, limit: Int = Limits.callKitMaximumEntriesPerLoad,
    removalLimit: Int = Limits.callKitMaximumEntriesPerLoad
  ) throws(ConfigurationError) {
    guard limit > 0 else { throw ConfigurationError(parameter: "limit", value: "\(limit)", allowed: "1...\(Int.max)") }
    guard removalLimit >= 0 else {
      throw ConfigurationError(parameter: "removalLimit", value: "\(removalLimit)", allowed: "0...\(Int.max)")
    }
    self.init(checked: changes, fingerprint: fingerprint, limit: limit, removalLimit: removalLimit)
  }

  private init(checked changes: Source, fingerprint: UInt64?, limit: Int, removalLimit: Int) {
    self.changes = changes
    self.fingerprint = fingerprint ?? changes.fingerprint
    self.limit = limit
    self.removalLimit = removalLimit
  }

  /// Counts the changes' numbers and checks every run against CallKit's rules; sends nothing.
  /// - Throws: `FeedError.damaged` for damaged data, `.ruleBroken` for the first run out of order,
  ///   overlapping its predecessor, outside `1 ... Int64.max - 1` or with a bad label.
  /// - Complexity: O(runs).
  public func plan() throws(FeedError<Never>) -> FeedPlan {
    var plan = FeedPlan(blockingAdditions: 0, identificationAdditions: 0, limit: limit)
    for kind in EntryKind.allCases {
      var removals = RunCheck(kind: kind)
      var additions = RunCheck(kind: kind)
      do throws(StreamError<FeedError<Never>>) {
        try changes.forEachRemoval(kind) { (run) throws(FeedError<Never>) in try removals.check(run, label: nil) }
        try changes.forEachAddition(kind) { (run, label) throws(FeedError<Never>) in
          try additions.check(run, label: kind == .identification ? .some(label) : nil)
        }
      } catch {
        switch error {
        case .format(let format): throw .damaged(format)
        case .consumer(let failure): throw failure
        }
      }
      switch kind {
      case .blocking: (plan.blockingRemovals, plan.blockingAdditions) = (removals.numbers, additions.numbers)
      case .identification: (plan.identificationRemovals, plan.identificationAdditions) = (removals.numbers, additions.numbers)
      }
    }
    return plan
  }

  /// Feeds one incremental load: without a cursor, every removal and then additions up to
  /// `limit`; with one, the additions from it. Returns where the next load resumes, or `nil`.
  /// - Parameters:
  ///   - sink: an incremental load's sink.
  ///   - cursor: what an earlier load of these changes returned, or `nil` to start.
  /// - Returns: the cursor for the next load, or `nil` when done.
  /// - Throws: before anything is sent: `FeedError.needsIncrementalLoad`, `.cursorMismatch`,
  ///   `.overLimit` for more removals than `removalLimit`, or what `plan()` throws; later: `.damaged`
  ///   when the source changed under the feed, `.sink`.
  /// - Complexity: O(runs) for the checking pass, plus the numbers sent.
  @inlinable
  public func feed<S: CallDirectorySink>(
    into sink: inout S, resumingFrom cursor: FeedCursor? = nil
  ) throws(FeedError<S.Failure>) -> FeedCursor? {
    guard sink.isIncremental else { throw .needsIncrementalLoad }
    if let cursor {
      guard cursor.fingerprint == fingerprint, Limits.isValidNumber(cursor.next) else { throw .cursorMismatch(cursor) }
    }
    let counts: FeedPlan
    do throws(FeedError<Never>) { counts = try plan() } catch { throw error.rebased() }
    // Removals are not split across loads; each is a call, so their count must be bounded.
    if cursor == nil && counts.removals > removalLimit { throw .overLimit(counts) }
    typealias Stop = AdditionWindow.Interruption<S.Failure>
    var window = AdditionWindow(limit: limit, start: cursor, fingerprint: fingerprint)
    do throws(StreamError<Stop>) {
      if cursor == nil {
        for kind in EntryKind.allCases {
          try changes.forEachRemoval(kind) { (run) throws(Stop) in
            do throws(S.Failure) {
              // The checking pass proved every run lies in 1 ... Int64.max - 1.
              for number in run {
                if kind == .blocking { try sink.removeBlockingEntry(number) } else { try sink.removeIdentificationEntry(number) }
              }
            } catch { throw .failed(.sink(error)) }
          }
        }
      }
      for kind in EntryKind.allCases where !(kind == .blocking && cursor?.kind == .identification) {
        try changes.forEachAddition(kind) { (run, label) throws(Stop) in try window.send(kind, run, label: label, to: &sink) }
      }
    } catch {
      switch error {
      case .format(let format): throw .damaged(format)
      case .consumer(.full): return window.stop
      case .consumer(.failed(let failure)): throw failure
      }
    }
    return nil
  }
}

/// The checking pass's state for one part (removals or additions) of one kind.
struct RunCheck {
  let kind: EntryKind
  /// Numbers in the runs so far, saturating.
  private(set) var numbers = 0
  private var last: Int64 = 0

  init(kind: EntryKind) { self.kind = kind }

  /// Checks `run` follows the last one and lies in the number domain; `label` is `nil` when the
  /// part has no labels and `.some` (maybe a missing label) when it must have one.
  mutating func check(_ run: ClosedRange<Int64>, label: String??) throws(FeedError<Never>) {
    // last starts at 0, so this also proves lowerBound >= 1.
    guard run.lowerBound > last, run.upperBound <= Limits.maximumNumber else {
      throw .ruleBroken(kind: kind, numbers: run, reason: "not ascending, overlapping, or outside 1 ... Int64.max - 1")
    }
    if let label {
      guard let label, Limits.isValidLabelLength(label.utf8.count) else {
        throw .ruleBroken(kind: kind, numbers: run, reason: "label missing or not 1 to 65,534 UTF-8 bytes")
      }
    }
    last = run.upperBound
    numbers = Saturating.add(numbers, Saturating.count(run))
  }
}

/// A feed holds its source and three integers: it can cross threads when its source can.
extension ChangeFeed: Sendable where Source: Sendable {}
