#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failed operating-system call: which, on what path, and the `errno` it set.
///
///     do {
///       _ = try CallDirectoryReader(path: "missing.calldir", trust: TrustPolicy())
///     } catch .system(let failure) {
///       print(failure.operation, failure.path, failure.errno, failure.message)
///     } catch {
///       print(error)
///     }
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The call, such as `open` or `rename`.
  public var operation: String
  /// The path it was about.
  public var path: String
  /// The `errno` value.
  public var errno: Int32

  /// The operation of the error for a path that names something other than a regular file or a
  /// directory, where a file was to be read: its `errno` is `ENODEV`, whose text ("No such
  /// device") would mislead.
  package static let notRegularFile = "open (not a regular file)"

  /// An error for `operation` on `path` with the current `errno`.
  public static func current(_ operation: String, path: String) -> SystemError {
    SystemError(operation: operation, path: path, errno: currentErrno())
  }

  /// An error with explicit fields.
  public init(operation: String, path: String, errno: Int32) {
    self.operation = operation
    self.path = path
    self.errno = errno
  }

  /// The system's text for `errno`, such as "No such file or directory"; for a path that is not
  /// a regular file where one was to be read, says so.
  public var message: String {
    if errno == ENODEV && operation == Self.notRegularFile { return "not a regular file (a FIFO, a device or a socket)" }
    guard let text = unsafe strerror(errno) else { return "error \(errno)" }
    return unsafe String(cString: text)
  }

  /// `"PATH: OPERATION failed: MESSAGE"`.
  public var description: String { "\(path): \(operation) failed: \(message)" }
}

/// The calling thread's `errno`.
func currentErrno() -> Int32 {
  #if canImport(Glibc)
    return Glibc.errno
  #elseif canImport(Musl)
    return Musl.errno
  #else
    return Darwin.errno
  #endif
}
