import CallDirectoryFormat

/// Why a feed stopped. Every case but `.damaged` and `.sink` is raised before the first entry is
/// sent.
///
///     var load = try store.beginLoad()
///     do throws(FeedError<CallKitModelError>) {
///       try DirectoryFeed(reader).feedWhole(into: &load)
///     } catch .overLimit(let plan) {
///       print("\(plan.additions) additions need \(plan.loadsNeeded) loads: feed with a cursor")
///     } catch {
///       print("nothing sent, or the load is to be failed: \(error)")
///     }
public enum FeedError<SinkFailure: Error>: Error {
  /// The directory is damaged at the place the error names (found by a block's checksum as it
  /// streamed; verify a file before feeding it to find this before any entry is sent).
  case damaged(FormatError)
  /// The source broke a CallKit rule (out of order, overlapping, number out of range, bad label).
  /// A change source's runs are all checked before anything is sent; a directory's rules are
  /// checked by its reader, so from a directory this is reached only through damage no checksum
  /// caught, and the entry is not sent.
  case ruleBroken(kind: EntryKind, numbers: ClosedRange<Int64>, reason: String)
  /// The load has more additions than the limit and no cursor was allowed to split it, or a
  /// change has more removals than its feed's `removalLimit` (they all go in its first load):
  /// feed the new directory whole instead.
  case overLimit(FeedPlan)
  /// The load must be incremental (it removes entries or resumes from a cursor) but the sink is not.
  case needsIncrementalLoad
  /// The cursor was made for another directory or changeset, or lies outside it.
  case cursorMismatch(FeedCursor)
  /// The sink threw.
  case sink(SinkFailure)
}

extension FeedError where SinkFailure == Never {
  /// The same error for a sink that fails with `F` (a checking pass sends nothing, so it cannot
  /// hold a sink's failure).
  @usableFromInline
  func rebased<F: Error>(to _: F.Type = F.self) -> FeedError<F> {
    switch self {
    case .damaged(let error): .damaged(error)
    case .ruleBroken(let kind, let numbers, let reason): .ruleBroken(kind: kind, numbers: numbers, reason: reason)
    case .overLimit(let plan): .overLimit(plan)
    case .needsIncrementalLoad: .needsIncrementalLoad
    case .cursorMismatch(let cursor): .cursorMismatch(cursor)
    }
  }
}

extension FeedError: CustomStringConvertible {
  /// One line for a log: what stopped the feed and the figures that decide it.
  public var description: String {
    switch self {
    case .damaged(let error): "the directory is damaged: \(error)"
    case .ruleBroken(let kind, let numbers, let reason):
      "\(kind.rawValue) +\(numbers.lowerBound)\(numbers.lowerBound == numbers.upperBound ? "" : "..+\(numbers.upperBound)") breaks CallKit's rules: \(reason)"
    case .overLimit(let plan):
      "the load has \(plan.additions) additions and \(plan.removals) removals, over the limit of \(plan.limit) "
        + "additions a load or the feed's removal limit: feed the new directory whole"
    case .needsIncrementalLoad: "the load removes entries or resumes from a cursor, but CallKit asked for a full load"
    case .cursorMismatch(let cursor):
      "the cursor (\(cursor.kind.rawValue) from +\(cursor.next), fingerprint \(cursor.fingerprint)) belongs to another directory or changeset"
    case .sink(let failure): "the sink failed: \(failure)"
    }
  }
}
