import CallDirectoryFormat
import CallDirectorySystem

/// Why a directory could not be opened from a path: the file could not be read, its bytes are
/// not a directory, or it is well formed but not trusted.
///
///     do throws(OpenError) {
///       let reader = try CallDirectoryReader(path: path, trust: policy)
///       print(reader.listVersion)
///     } catch {
///       switch error {
///       case .system(let failure): print("cannot read: \(failure.message)")
///       case .format(let fault): print("damaged: \(fault)")
///       case .notAuthentic(let failure): print("not trusted: \(failure)")
///       }
///     }
public enum OpenError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be opened or mapped.
  case system(SystemError)
  /// The bytes are not a well-formed directory: the header, the section table or an index.
  case format(FormatError)
  /// The file is well formed, but the `TrustPolicy` it was opened with refuses it.
  case notAuthentic(AuthenticityFailure)

  /// A one-line message: the system's, the format error's (what and where), or why the file is
  /// not trusted.
  public var description: String {
    switch self {
    case .system(let failure): failure.description
    case .format(let fault): fault.description
    case .notAuthentic(let failure): failure.description
    }
  }
}
