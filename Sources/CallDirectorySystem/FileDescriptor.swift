#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An open file descriptor: a thin typed wrapper over the POSIX calls this package needs, each
/// retried on `EINTR` and turned into a `SystemError` on failure.
package struct FileDescriptor: Sendable {
  /// The raw descriptor.
  package let rawValue: CInt
  /// The path it was opened from, for messages.
  package let path: String

  /// Standard input.
  package static let standardInput = FileDescriptor(rawValue: 0, path: "<stdin>")
  /// Standard output.
  package static let standardOutput = FileDescriptor(rawValue: 1, path: "<stdout>")
  /// Standard error.
  package static let standardError = FileDescriptor(rawValue: 2, path: "<stderr>")

  /// Wraps an already open descriptor.
  package init(rawValue: CInt, path: String) {
    self.rawValue = rawValue
    self.path = path
  }

  /// Opens `path` for reading.
  /// - Parameter nonBlocking: open with `O_NONBLOCK`, so that a FIFO without a writer does not
  ///   block the open (for a caller that then refuses anything but a regular file).
  /// - Throws: `SystemError` from `open`.
  package static func openForReading(_ path: String, nonBlocking: Bool = false) throws(SystemError) -> FileDescriptor {
    let flags = O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0)
    let fd = try retrying("open", path) { unsafe open(path, flags) }
    return FileDescriptor(rawValue: fd, path: path)
  }

  /// Creates `path`, which must not exist yet, for writing with permissions `mode`.
  /// - Throws: `SystemError` from `open` (`EEXIST` if it exists).
  package static func createExclusive(_ path: String, mode: mode_t = 0o644) throws(SystemError) -> FileDescriptor {
    let fd = try retrying("open", path) { unsafe open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
    return FileDescriptor(rawValue: fd, path: path)
  }

  /// Opens `path`, which must exist, for writing, without truncating it: a device or a FIFO.
  /// - Throws: `SystemError` from `open`.
  package static func openExistingForWriting(_ path: String) throws(SystemError) -> FileDescriptor {
    let fd = try retrying("open", path) { unsafe open(path, O_WRONLY | O_CLOEXEC) }
    return FileDescriptor(rawValue: fd, path: path)
  }

  /// Removes the name `path` (`unlink`); a file still open stays readable until closed.
  /// - Throws: `SystemError` from `unlink`.
  package static func remove(_ path: String) throws(SystemError) {
    _ = try retrying("unlink", path) { unsafe unlink(path) }
  }

  /// Sets the file's permission bits (`fchmod`, which the umask does not narrow).
  /// - Throws: `SystemError` from `fchmod`.
  package func setPermissions(_ mode: mode_t) throws(SystemError) {
    _ = try FileDescriptor.retrying("fchmod", path) { fchmod(rawValue, mode) }
  }

  /// What one `fstat` says of the file: its type bits, size, identity and the stamp that changes
  /// when it is written.
  package struct Status: Sendable, Equatable {
    /// The type bits (`st_mode & S_IFMT`): `0o100000` for a regular file, `0o040000` for a directory.
    package var typeBits: mode_t
    /// The size in bytes.
    package var size: Int
    /// The identity, size and times, which change when the file is written in place too.
    package var stamp: FileStamp
    /// The device and inode numbers, which change when the path is replaced by a rename.
    package var identity: FileIdentity { stamp.identity }

    /// The status `info` describes.
    init(_ info: stat) {
      typeBits = info.st_mode & 0o170000
      size = Int(info.st_size)
      stamp = FileStamp(info)
    }
  }

  /// The file's type, size, identity and stamp, from one `fstat`.
  /// - Throws: `SystemError` from `fstat`.
  package func status() throws(SystemError) -> Status {
    var info = stat()
    _ = try FileDescriptor.retrying("fstat", path) { unsafe fstat(rawValue, &info) }
    return Status(info)
  }

  /// The file's type bits (`st_mode & S_IFMT`), from `fstat`: `0o100000` for a regular file,
  /// `0o040000` for a directory.
  package func typeBits() throws(SystemError) -> mode_t { try status().typeBits }

  /// The file's size in bytes, from `fstat`.
  package func size() throws(SystemError) -> Int { try status().size }

  /// The file's device and inode numbers, which change when the path is replaced by a rename.
  package func identity() throws(SystemError) -> FileIdentity { try status().identity }

  /// Writes all of `bytes`, looping over short writes.
  package func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    var done = 0
    while done < bytes.count {
      let written = try FileDescriptor.retrying("write", path) {
        unsafe systemWrite(rawValue, bytes.baseAddress.map { unsafe $0 + done }, bytes.count - done)
      }
      done += written
    }
  }

  /// Writes all of `bytes`.
  package func writeAll(_ bytes: [UInt8]) throws(SystemError) {
    let result = unsafe bytes.withUnsafeBytes { raw in
      Result { () throws(SystemError) in try unsafe writeAll(raw) }
    }
    try result.get()
  }

  /// Reads up to `buffer.count` bytes; 0 means end of file.
  package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    try FileDescriptor.retrying("read", path) { unsafe systemRead(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Reads until `buffer` is full or the file ends, looping over short reads.
  /// - Returns: the bytes read, `buffer.count` unless the file ended first.
  /// - Throws: `SystemError` from `read`.
  package func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    var count = 0
    while count < buffer.count {
      let read = try unsafe read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      if read == 0 { break }
      count += read  // read <= buffer.count - count
    }
    return count
  }

  /// Reads everything up to the end of the file.
  ///
  /// A regular file's size (from `fstat`) sizes the array, and its bytes are read straight into
  /// it: no doubling copies, and no second buffer at the peak, which for a listing of a
  /// gigabyte is a gigabyte. The size is a hint only: a pipe says 0, and a file may change while
  /// it is read, so reading goes on in chunks to the real end of the file.
  /// - Parameter limit: the most bytes to accept; more is an `EFBIG` error.
  package func readAll(limit: Int = .max) throws(SystemError) -> [UInt8] {
    let expected = max(0, min((try? size()) ?? 0, limit))
    var failure: SystemError?
    var bytes = unsafe [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
      do throws(SystemError) { count = try unsafe readFully(into: UnsafeMutableRawBufferPointer(buffer)) } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = try unsafe chunk.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) -> Int in try unsafe read(into: raw) }
      }.get()
      if count == 0 { return bytes }
      guard bytes.count <= limit - count else { throw SystemError(operation: "read", path: path, errno: EFBIG) }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Whether the descriptor is a terminal.
  package var isTerminal: Bool { isatty(rawValue) == 1 }

  /// Flushes the file's data and metadata to stable storage.
  package func sync() throws(SystemError) {
    _ = try FileDescriptor.retrying("fsync", path) { fsync(rawValue) }
  }

  /// Closes the descriptor (not retried on `EINTR`: on Linux the descriptor is gone either way).
  package func close() throws(SystemError) {
    let result = systemClose(rawValue)
    if result != 0 { throw SystemError.current("close", path: path) }
  }

  /// Calls `body`, then closes the descriptor whether or not `body` threw.
  package func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    defer { try? close() }
    return try body()
  }

  /// Runs a system call until it does not fail with `EINTR`; a negative result becomes a `SystemError`.
  static func retrying<T: BinaryInteger>(_ operation: String, _ path: String, _ call: () -> T) throws(SystemError) -> T {
    while true {
      let result = call()
      if result >= 0 { return result }
      let code = currentErrno()
      if code != EINTR { throw SystemError(operation: operation, path: path, errno: code) }
    }
  }
}

/// Which file a path named when it was opened: replacing the path by a rename changes it.
///
///     let before = reader.fileIdentity
///     let again = try CallDirectoryReader(path: "list.calldir")
///     if again.fileIdentity != before { print("list.calldir was replaced") }
public struct FileIdentity: Sendable, Equatable, Hashable {
  /// The device number.
  public var device: UInt64
  /// The inode number.
  public var inode: UInt64
}

// One seam per system call whose name a method here shadows.
#if canImport(Glibc)
  private let systemRead = unsafe Glibc.read
  private let systemWrite = unsafe Glibc.write
  private let systemClose = Glibc.close
#elseif canImport(Musl)
  private let systemRead = unsafe Musl.read
  private let systemWrite = unsafe Musl.write
  private let systemClose = Musl.close
#elseif canImport(Darwin)
  private let systemRead = unsafe Darwin.read
  private let systemWrite = unsafe Darwin.write
  private let systemClose = Darwin.close
#endif
