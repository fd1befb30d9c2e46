import CallDirectoryFormat

/// The part of a load's additions one load sends: from a cursor, at most a limit, checked
/// against CallKit's rules just before each call so that no source, however broken, makes a
/// failing load.
///
/// Runs are expanded number by number as they are sent: a range of a billion numbers costs the
/// same memory as one number. Inlinable so that a client's feed is specialised for its sink:
/// unspecialised, every entry paid for generic metadata lookups, and the feed ran at a fifth of
/// its specialised speed.
@usableFromInline
struct AdditionWindow {
  /// The most additions this load sends.
  @usableFromInline let limit: Int
  /// Where this load starts, or `nil` at the very beginning.
  @usableFromInline let start: FeedCursor?
  /// The fingerprint a cursor this window returns carries.
  @usableFromInline let fingerprint: UInt64
  /// Additions sent so far.
  @usableFromInline var sent = 0
  /// Where the load stopped when the limit was reached.
  @usableFromInline var stop: FeedCursor?
  @usableFromInline var lastKind: EntryKind?
  @usableFromInline var last: Int64 = 0

  @inlinable
  init(limit: Int, start: FeedCursor?, fingerprint: UInt64) {
    self.limit = limit
    self.start = start
    self.fingerprint = fingerprint
  }

  /// Why a stream was interrupted from inside its closure.
  @usableFromInline
  enum Interruption<F: Error>: Error {
    /// The load reached its limit: stop streaming, nothing is wrong.
    case full
    /// The feed failed.
    case failed(FeedError<F>)
  }

  /// Sends the numbers of `run` this load covers.
  /// - Throws: `.full` when the limit is reached (the stop is recorded), `.failed` when the run
  ///   breaks a rule or the sink throws.
  @inlinable
  mutating func send<S: CallDirectorySink>(
    _ kind: EntryKind, _ run: ClosedRange<Int64>, label: String?, to sink: inout S
  ) throws(Interruption<S.Failure>) {
    var lower = run.lowerBound
    if let start {
      if start.kind == .identification && kind == .blocking { return }
      if start.kind == kind {
        guard run.upperBound >= start.next else { return }
        lower = max(lower, start.next)
      }
    }
    if lastKind != kind {
      lastKind = kind
      last = 0
    }
    // Ascending and > 0 in one test: last starts at 0 for each kind.
    guard lower > last, run.upperBound <= Limits.maximumNumber else {
      throw .failed(.ruleBroken(kind: kind, numbers: run, reason: "not ascending or outside 1 ... Int64.max - 1"))
    }
    var text = ""
    if kind == .identification {
      guard let label, Limits.isValidLabelLength(label.utf8.count) else {
        throw .failed(.ruleBroken(kind: kind, numbers: run, reason: "label missing or not 1 to 65,534 UTF-8 bytes"))
      }
      text = label
    }
    try expand(lower, run.upperBound, kind, label: text, to: &sink)
  }

  /// Sends `lower ... upper` of `kind`, stopping at the limit; the sink is called directly, so a
  /// specialised feed has nothing between the loop and the sink's method.
  @inlinable
  mutating func expand<S: CallDirectorySink>(
    _ lower: Int64, _ upper: Int64, _ kind: EntryKind, label: String, to sink: inout S
  ) throws(Interruption<S.Failure>) {
    let identification = kind == .identification
    var number = lower
    while true {
      guard sent < limit else {
        stop = FeedCursor(kind: kind, next: number, fingerprint: fingerprint)
        throw .full
      }
      do throws(S.Failure) {
        if identification { try sink.addIdentificationEntry(number, label: label) } else { try sink.addBlockingEntry(number) }
      } catch { throw .failed(.sink(error)) }
      sent += 1
      last = number
      if number == upper { return }
      number += 1  // number < upper <= Int64.max - 1: cannot wrap
    }
  }
}
