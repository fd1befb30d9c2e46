import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem

/// What one staleness check of a ``ReloadingDirectory`` did.
///
///     let directory = try ReloadingDirectory(path: "provider.calldir", checkInterval: nil)
///     switch directory.refresh() {
///     case .unchanged: break
///     case .reloaded(let file): print("now serving \(file)")
///     case .failed(let error): print("kept the previous version: \(error)")
///     }
public enum ReloadOutcome: Sendable, Equatable {
  /// Nothing new: the path still names the file being served, or names a replacement whose
  /// failure was already reported.
  case unchanged
  /// The path named a new file, which opened and is now served.
  case reloaded(FileIdentity)
  /// The path named a new file (or nothing) and it could not be opened; the previous version is
  /// still served. Reported once per failure, not at every check.
  case failed(OpenError)
}
