import CallDirectoryFormat

/// A model of what CallKit's Call Directory store does for one extension, for tests: it holds the
/// entries of every load that succeeded, and refuses what CallKit refuses.
///
/// The rules, as Apple documents them and as they are observed:
/// - within one load, each kind's additions are strictly ascending, with no duplicates;
/// - one load adds at most `cap` numbers, both kinds together (2,000,000 by default);
/// - a full load starts from an empty store; the next load is incremental only after a load
///   succeeded, and only incremental loads may remove (removing an absent number is harmless);
/// - labels have 1 to 65,534 UTF-8 bytes, numbers lie in `1 ... Int64.max - 1`;
/// - any failure (a broken rule, a cancelled request, the extension killed mid-load) deletes
///   every entry and makes the next load full;
/// - the user turning the extension off deletes its entries, and after turning it on the next
///   load is full.
///
/// The model is stricter than CallKit in one place, where CallKit's behaviour is not documented:
/// an incremental load may not add a number the store already holds (remove it first, as for a
/// new label). Code that passes the model therefore works under either reading.
///
///     var store = CallKitModel()
///     var load = try store.beginLoad()          // the first load is full
///     try DirectoryFeed(reader).feedWhole(into: &load)
///     try store.complete(load)                  // now store.blocking holds the directory's numbers
public struct CallKitModel: Sendable {
  /// The most additions one load may send.
  public let cap: Int
  /// The blocked numbers CallKit holds.
  public private(set) var blocking: Set<Int64> = []
  /// The identified numbers CallKit holds, with their labels.
  public private(set) var identification: [Int64: String] = [:]
  /// Whether the user has the extension turned on in Settings.
  public private(set) var isEnabled = true
  /// Whether the next load is incremental: a load succeeded since the store was last emptied.
  public private(set) var nextLoadIsIncremental = false
  /// Every load begun, in order, with what it sent and how it ended.
  public private(set) var history: [LoadRecord] = []
  /// The load running, if any (its index in `history`).
  private var running: Int?

  /// What one load did.
  public struct LoadRecord: Sendable, Hashable {
    /// Whether the load was incremental.
    public var isIncremental: Bool
    /// Numbers added, both kinds.
    public var additions = 0
    /// Numbers removed one by one, both kinds (a removal of everything counts as one).
    public var removals = 0
    /// How it ended, or `.running`.
    public var outcome = Outcome.running

    /// Whether the load completed.
    public var succeeded: Bool { outcome == .completed }
  }

  /// How a load ended.
  public enum Outcome: Sendable, Hashable {
    /// Not ended yet.
    case running
    /// Completed: its entries are the store's.
    case completed
    /// Failed: the store was emptied.
    case failed(CallKitModelError)
  }

  /// An empty store of an enabled extension, whose first load will be full.
  /// - Parameter cap: the most additions a load may send, at least 1 (CallKit's 2,000,000 by
  ///   default; tests use small caps to split loads cheaply).
  /// - Complexity: O(1).
  public init(cap: Int = Limits.callKitMaximumEntriesPerLoad) {
    self.cap = max(cap, 1)
  }

  /// Starts a load, as iOS does when the app calls `reloadExtension` or the user turns the
  /// extension on: full unless the last load succeeded.
  /// - Returns: the load, a sink the feed sends into; give it back to `complete(_:)`,
  ///   `cancel(_:reason:)` or `interrupt(_:)`.
  /// - Throws: `.extensionDisabled` while the user has the extension off; `.currentlyLoading`
  ///   while another load runs.
  /// - Complexity: O(1); the load's first change copies the store (O(n)) when it is incremental.
  public mutating func beginLoad() throws(CallKitModelError) -> CallKitModelLoad {
    guard isEnabled else { throw .extensionDisabled }
    guard running == nil else { throw .currentlyLoading }
    let incremental = nextLoadIsIncremental
    running = history.count
    history.append(LoadRecord(isIncremental: incremental))
    return CallKitModelLoad(
      id: history.count - 1, isIncremental: incremental, cap: cap,
      blocking: incremental ? blocking : [], identification: incremental ? identification : [:])
  }

  /// Completes `load` (`completeRequest()`): its entries become the store's, unless it broke a
  /// rule, in which case every entry is deleted.
  /// - Throws: the first rule the load broke (the store is then empty and the next load full), or
  ///   `.loadingInterrupted` for a load that is not the one running.
  /// - Complexity: O(1).
  public mutating func complete(_ load: CallKitModelLoad) throws(CallKitModelError) {
    guard running == load.id else { throw .loadingInterrupted }
    if let failure = load.failure { return try fail(load, failure) }
    blocking = load.blocking
    identification = load.identification
    nextLoadIsIncremental = true
    finish(load, .completed)
  }

  /// Ends `load` as `cancelRequest(withError:)` does: a failed load.
  /// - Throws: `.cancelled(reason)` always, after emptying the store.
  public mutating func cancel(_ load: CallKitModelLoad, reason: String) throws(CallKitModelError) {
    guard running == load.id else { throw .loadingInterrupted }
    try fail(load, .cancelled(reason))
  }

  /// Ends `load` as if the extension were killed before completing it: a failed load.
  /// - Throws: `.loadingInterrupted` always, after emptying the store.
  public mutating func interrupt(_ load: CallKitModelLoad) throws(CallKitModelError) {
    guard running == load.id else { throw .loadingInterrupted }
    try fail(load, .loadingInterrupted)
  }

  /// The user turns the extension off (`false`) or on (`true`) in Settings. Turning it off
  /// interrupts a running load and deletes every entry; the load after turning it on is full.
  /// - Complexity: O(1).
  public mutating func setEnabled(_ enabled: Bool) {
    guard enabled != isEnabled else { return }
    isEnabled = enabled
    if !enabled {
      if let running { history[running].outcome = .failed(.extensionDisabled) }
      running = nil
      reset()
    }
  }

  /// iOS chooses a full load next for reasons of its own (a restore from backup, a system
  /// update): the entries stay until that load completes, and go if it fails.
  /// - Complexity: O(1).
  public mutating func offerFullLoadNext() { nextLoadIsIncremental = false }

  /// Whether a load is running.
  public var isLoading: Bool { running != nil }

  private mutating func fail(_ load: CallKitModelLoad, _ failure: CallKitModelError) throws(CallKitModelError) {
    finish(load, .failed(failure))
    reset()
    throw failure
  }

  private mutating func finish(_ load: CallKitModelLoad, _ outcome: Outcome) {
    history[load.id].additions = load.additions
    history[load.id].removals = load.removals
    history[load.id].outcome = outcome
    running = nil
  }

  private mutating func reset() {
    blocking = []
    identification = [:]
    nextLoadIsIncremental = false
  }
}
