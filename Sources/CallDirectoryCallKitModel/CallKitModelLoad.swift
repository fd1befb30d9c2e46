import CallDirectoryFeed
import CallDirectoryFormat

/// One load of the model of CallKit: a sink the feed sends into, which checks CallKit's rules on
/// every call.
///
/// The first call that breaks a rule is recorded and thrown, so the feed stops; completing the
/// load then fails it and empties the store, as iOS does. The load works on its own copy of the
/// store's entries (empty for a full load) and changes the store only when it completes.
///
///     var load = try store.beginLoad()
///     try load.addBlockingEntry(14_155_550_100)
///     try store.complete(load)
public struct CallKitModelLoad: CallDirectorySink, Sendable {
  /// What the model throws.
  public typealias Failure = CallKitModelError

  /// The load's index in the store's history, so that a stale load cannot complete.
  let id: Int
  /// Whether CallKit offered an incremental load.
  public let isIncremental: Bool
  /// The most additions this load may send.
  public let cap: Int
  /// The entries the store will hold if the load completes.
  private(set) var blocking: Set<Int64>
  private(set) var identification: [Int64: String]
  /// Numbers added so far, both kinds.
  public private(set) var additions = 0
  /// Removal calls so far, both kinds.
  public private(set) var removals = 0
  /// The first rule broken, which fails the load when it completes.
  public private(set) var failure: CallKitModelError?
  /// The last number added of each kind in this load (0: none yet; no valid number is 0).
  private var lastBlocking: Int64 = 0
  private var lastIdentification: Int64 = 0
  /// Calls left before the extension is killed, for tests of a kill mid-load; `nil`: never.
  public var callsBeforeKill: Int?

  init(id: Int, isIncremental: Bool, cap: Int, blocking: Set<Int64>, identification: [Int64: String]) {
    self.id = id
    self.isIncremental = isIncremental
    self.cap = cap
    self.blocking = blocking
    self.identification = identification
  }

  /// Adds a number to block.
  /// - Throws: `.entriesOutOfOrder`, `.duplicateEntries`, `.maximumEntriesExceeded`,
  ///   `.numberOutOfRange`, or the failure already recorded.
  /// - Complexity: O(1) amortised.
  public mutating func addBlockingEntry(_ number: Int64) throws(CallKitModelError) {
    try check(.blocking, number, previous: lastBlocking)
    guard blocking.insert(number).inserted else { throw record(.duplicateEntries(kind: .blocking, number: number)) }
    lastBlocking = number
    additions += 1
  }

  /// Adds a number to identify with `label`.
  /// - Throws: `.invalidLabel`, and what `addBlockingEntry(_:)` throws.
  /// - Complexity: O(1) amortised.
  public mutating func addIdentificationEntry(_ number: Int64, label: String) throws(CallKitModelError) {
    try check(.identification, number, previous: lastIdentification)
    guard Limits.isValidLabelLength(label.utf8.count) else {
      throw record(.invalidLabel(number: number, bytes: label.utf8.count))
    }
    guard identification[number] == nil else { throw record(.duplicateEntries(kind: .identification, number: number)) }
    identification[number] = label
    lastIdentification = number
    additions += 1
  }

  /// Removes a blocked number; an absent one is harmless.
  /// - Throws: `.unexpectedIncrementalRemoval` in a full load, or the failure already recorded.
  public mutating func removeBlockingEntry(_ number: Int64) throws(CallKitModelError) {
    try checkRemoval(.blocking)
    blocking.remove(number)
  }

  /// Removes an identified number; an absent one is harmless.
  /// - Throws: `.unexpectedIncrementalRemoval` in a full load, or the failure already recorded.
  public mutating func removeIdentificationEntry(_ number: Int64) throws(CallKitModelError) {
    try checkRemoval(.identification)
    identification[number] = nil
  }

  /// Removes every blocked number.
  /// - Throws: `.unexpectedIncrementalRemoval` in a full load, or the failure already recorded.
  public mutating func removeAllBlockingEntries() throws(CallKitModelError) {
    try checkRemoval(.blocking)
    blocking = []
  }

  /// Removes every identified number.
  /// - Throws: `.unexpectedIncrementalRemoval` in a full load, or the failure already recorded.
  public mutating func removeAllIdentificationEntries() throws(CallKitModelError) {
    try checkRemoval(.identification)
    identification = [:]
  }

  /// The checks every call makes: no earlier failure, and the extension still alive.
  private mutating func call() throws(CallKitModelError) {
    if let failure { throw failure }
    if let left = callsBeforeKill {
      guard left > 0 else { throw record(.loadingInterrupted) }
      callsBeforeKill = left - 1
    }
  }

  private mutating func check(_ kind: EntryKind, _ number: Int64, previous: Int64) throws(CallKitModelError) {
    try call()
    guard Limits.isValidNumber(number) else { throw record(.numberOutOfRange(kind: kind, number: number)) }
    guard number != previous else { throw record(.duplicateEntries(kind: kind, number: number)) }
    guard number > previous else { throw record(.entriesOutOfOrder(kind: kind, previous: previous, number: number)) }
    guard additions < cap else { throw record(.maximumEntriesExceeded(cap: cap)) }
  }

  private mutating func checkRemoval(_ kind: EntryKind) throws(CallKitModelError) {
    try call()
    guard isIncremental else { throw record(.unexpectedIncrementalRemoval(kind: kind)) }
    removals += 1
  }

  private mutating func record(_ error: CallKitModelError) -> CallKitModelError {
    failure = error
    return error
  }
}
