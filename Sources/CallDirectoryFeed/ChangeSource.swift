import CallDirectoryFormat
import CallDirectoryReader

/// The changes between two versions of a directory, as an incremental load needs them: for each
/// kind, removals and additions as ascending runs of numbers.
///
/// A changeset reader conforms with its fingerprint the only code of its own; tests conform a
/// list of runs. The feed
/// checks every run it is given (ascending, disjoint, numbers in `1 ... Int64.max - 1`, labels of
/// allowed length) in a first pass before sending anything, so a source that breaks the rules
/// makes the feed throw, never a failing load.
///
///     let source: any ChangeSource = try ChangesetReader(path: "v1-v2.cdchanges")
///     print(source.counts.additions.blocking, source.counts.removals.blocking)
///     try source.forEachRemoval(.blocking) { (run) throws(Never) in print("-", run) }
public protocol ChangeSource {
  /// An identity of these changes that cursors carry, so that a cursor made for other changes is
  /// refused: a changeset's comes from the hashes of its base and its result.
  var fingerprint: UInt64 { get }

  /// How many runs (not numbers) each part holds.
  var counts: (removals: (blocking: Int, identification: Int), additions: (blocking: Int, identification: Int)) { get }

  /// Calls `body` with each run of `kind`'s removals, ascending.
  /// - Throws: `StreamError.format` for damaged data, `.consumer` for what `body` throws.
  func forEachRemoval<E: Error>(_ kind: EntryKind, _ body: (ClosedRange<Int64>) throws(E) -> Void) throws(StreamError<E>)

  /// Calls `body` with each run of `kind`'s additions, ascending, with its label for identification
  /// (`nil` for blocking).
  /// - Throws: `StreamError.format` for damaged data, `.consumer` for what `body` throws.
  func forEachAddition<E: Error>(
    _ kind: EntryKind, _ body: (ClosedRange<Int64>, String?) throws(E) -> Void
  ) throws(StreamError<E>)
}
