import CallDirectoryChangeset
import CallDirectoryFormat
import CallDirectorySystem

/// Why an update was not installed; the lists installed before stay.
///
///     do throws(UpdateError) {
///         _ = try updater.install(directory: downloaded)
///     } catch .notAuthentic(.rolledBack(let installed, let offered)) {
///         print("kept version \(installed), refused the older \(offered)")
///     } catch {
///         print("kept the installed lists: \(error)")
///     }
public enum UpdateError: Error, Sendable, CustomStringConvertible {
  /// The download is not trusted: unsigned, signed by an unknown key, a bad signature, or a list
  /// version older than the one installed (`.rolledBack`).
  case notAuthentic(AuthenticityFailure)
  /// The download is not a valid directory or changeset; the text says where.
  case damaged(String)
  /// A changeset arrived with no list installed to apply it to: download the whole directory.
  case noBase
  /// The changeset applies to another directory than the one installed: download the whole directory.
  case baseMismatch
  /// The changeset could not be applied for another reason (`ChangesetError`).
  case changeset(ChangesetError)
  /// A file of the container could not be written or read.
  case system(SystemError)
  /// The update stopped after `step`, as a crash would stop it (tests only).
  case interrupted(UpdateStep)

  /// One line for a log.
  public var description: String {
    switch self {
    case .notAuthentic(let failure): "not trusted: \(failure)"
    case .damaged(let detail): "damaged: \(detail)"
    case .noBase: "a changeset needs an installed list to apply to"
    case .baseMismatch: "the changeset applies to another list than the one installed"
    case .changeset(let error): "the changeset cannot be applied: \(error)"
    case .system(let error): error.description
    case .interrupted(let step): "interrupted after \(step)"
    }
  }
}

/// The steps of an update, in order; a crash between any two leaves a container the next update
/// repairs.
///
///     for step in UpdateStep.allCases { print(step) }  // verified, changesWritten, listWritten, recorded, cleaned
public enum UpdateStep: Sendable, Hashable, CaseIterable {
  /// The download was checked; nothing is written yet.
  case verified
  /// The changeset was written as `changes-G.cdchanges` (changesets only).
  case changesWritten
  /// The new directory was written as `list-G.calldir`, which no record names yet.
  case listWritten
  /// The record naming it was published: the update is installed.
  case recorded
  /// Generations older than the previous one were removed.
  case cleaned
}
