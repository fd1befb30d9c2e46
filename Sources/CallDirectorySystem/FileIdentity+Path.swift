#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileIdentity {
  /// The identity of the file `path` names now, from `stat` (symbolic links followed).
  ///
  /// Compared with the identity of a file opened earlier, it tells whether the path has been
  /// replaced since (an atomic rename, or a symbolic link pointed elsewhere), without opening
  /// anything: one system call, about a microsecond, no allocation for a native string path.
  /// - Throws: `SystemError` from `stat` (`ENOENT` when nothing is at `path`).
  public init(path: String) throws(SystemError) {
    self = try FileStamp(path: path).identity
  }
}

extension FileDescriptor {
  /// Opens the regular file `path` for reading, with its status from the same `fstat`.
  ///
  /// Opened without blocking, so that a FIFO put at the path (which would wait for a writer) is
  /// refused like a directory or a device, not waited on.
  /// - Throws: `SystemError` from `open` or `fstat`; `EISDIR` for a directory, `ENODEV` for
  ///   anything else that is not a regular file (a FIFO, a device, a socket).
  package static func openRegularFile(_ path: String) throws(SystemError) -> (FileDescriptor, Status) {
    let file = try openForReading(path, nonBlocking: true)
    do throws(SystemError) {
      let status = try file.status()
      switch status.typeBits {
      case 0o100000: return (file, status)
      case 0o040000: throw SystemError(operation: "open", path: path, errno: EISDIR)
      default: throw SystemError(operation: SystemError.notRegularFile, path: path, errno: ENODEV)
      }
    } catch {
      try? file.close()
      throw error
    }
  }

  /// What `stat` says of `path` (symbolic links followed).
  /// - Throws: `SystemError` from `stat` (`ENOENT` when nothing is at `path`).
  package static func pathStatus(_ path: String) throws(SystemError) -> stat {
    var info = stat()
    _ = try retrying("stat", path) { unsafe stat(path, &info) }
    return info
  }

  /// Whether anything is at `path` (symbolic links followed): false when `stat` fails.
  package static func exists(_ path: String) -> Bool {
    (try? pathStatus(path)) != nil
  }

  /// Whether `path` names an existing regular file (symbolic links followed).
  ///
  /// False for a missing path, a directory, a pipe or a device, and when `stat` fails.
  package static func isRegularFile(_ path: String) -> Bool {
    guard let info = try? pathStatus(path) else { return false }
    return (info.st_mode & S_IFMT) == S_IFREG
  }

  /// Creates the directory `path` (mode 0755 before the umask) unless it is one already.
  /// - Throws: `SystemError` from `mkdir` (`EEXIST` when something else is at `path`,
  ///   `ENOENT` when its parent is missing).
  package static func makeDirectory(_ path: String) throws(SystemError) {
    if isDirectory(path) { return }
    _ = try retrying("mkdir", path) { unsafe mkdir(path, 0o755) }
  }

  /// Whether `path` names a FIFO, a device or a socket (symbolic links followed): something a
  /// write reaches in place, that cannot be replaced whole. False for a missing path, a regular
  /// file, a directory, and when `stat` fails.
  package static func isSpecialFile(_ path: String) -> Bool {
    guard let info = try? pathStatus(path) else { return false }
    return (info.st_mode & S_IFMT) != S_IFREG && (info.st_mode & S_IFMT) != S_IFDIR
  }

  /// Whether `path` names a directory (following symbolic links).
  package static func isDirectory(_ path: String) -> Bool {
    guard let info = try? pathStatus(path) else { return false }
    return (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Reads whatever is available, up to `maximum` bytes, waiting until at least one byte is (or
  /// the end of the file is reached).
  ///
  /// This is what reading a pipe line by line needs: a writer that sends one line and waits for
  /// the answer gets it, where `readAll` would wait for the end of the input.
  /// - Returns: the bytes read; empty at the end of the file.
  /// - Throws: `SystemError` from `read`.
  package func readAvailable(maximum: Int = 1 << 16) throws(SystemError) -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: max(maximum, 1))
    let count = try unsafe chunk.withUnsafeMutableBytes { raw in
      Result { () throws(SystemError) -> Int in try unsafe read(into: raw) }
    }.get()
    chunk.removeSubrange(count...)
    return chunk
  }
}
