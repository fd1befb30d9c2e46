/// What the extension does with CallKit's request after `CallDirectoryLoader.load(into:)`.
///
///     switch loader.load(into: &sink) {
///     case .complete: context.completeRequest()
///     case .fail(let failure): context.cancelRequest(withError: failure)
///     }
public enum LoadOutcome: Sendable, Hashable {
  /// Complete the request (`completeRequest()`): what was sent is what CallKit should hold.
  case complete(LoadReport)
  /// Fail the request (`cancelRequest(withError:)`); only ever for a full load, which keeps
  /// nothing of the entries before it whichever way it ends.
  case fail(LoadFailure)
}

/// What a load did.
///
///     var load = try store.beginLoad()
///     if case .complete(let report) = loader.load(into: &load) {
///       print(report.action, report.additions, report.removals)
///       if report.moreLoadsNeeded { print("ask for another reload") }
///     }
public struct LoadReport: Sendable, Hashable {
  /// The work the load did.
  public var action: LoadAction
  /// Numbers added, both kinds.
  public var additions: Int
  /// Removal calls made, both kinds.
  public var removals: Int
  /// Whether the work was split at the cap, or stopped: the app should ask for another reload.
  public var moreLoadsNeeded: Bool
  /// Why the load did less than it was asked (a file that could not be used and why), or `nil`.
  public var note: String?

  /// A report of these figures.
  public init(action: LoadAction, additions: Int = 0, removals: Int = 0, moreLoadsNeeded: Bool = false, note: String? = nil) {
    self.action = action
    self.additions = additions
    self.removals = removals
    self.moreLoadsNeeded = moreLoadsNeeded
    self.note = note
  }
}

/// The work of one load, decided from the installed files, what CallKit holds and whether the
/// load is incremental.
///
///     var load = try store.beginLoad()
///     if case .complete(let report) = loader.load(into: &load), case .resumed = report.action {
///       print("went on with a load split at CallKit's cap")
///     }
public enum LoadAction: Sendable, Hashable {
  /// A full load of the whole directory (the previous generation's when the current one cannot
  /// be used).
  case whole
  /// An incremental load that removed everything, then sent the whole directory: CallKit held
  /// something else, or what it held was not known.
  case replaced
  /// An incremental load sending the kept changeset: CallKit held its base.
  case changes
  /// An incremental load resuming a split load of the directory (`fromChanges: false`) or of the
  /// changeset.
  case resumed(fromChanges: Bool)
  /// The numbers the user's own list changed, and no others: CallKit held the current directory
  /// merged with the list as it was.
  case personal
  /// No change: CallKit already holds the current directory, nothing is installed, or the files
  /// could not be used and the load keeps CallKit's entries (the report's note says why).
  case nothing
}

/// Why a load had to fail: the reason, in one line for a log.
///
///     var load = try store.beginLoad()
///     if case .fail(let failure) = loader.load(into: &load) {
///       print("failing the load, which deletes the extension's entries: \(failure.reason)")
///     }
public struct LoadFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public var reason: String

  /// A failure for `reason`.
  public init(reason: String) { self.reason = reason }

  /// The reason.
  public var description: String { reason }
}
