#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileDescriptor {
  /// Creates `path`, which must not exist yet, for reading and writing, readable by its owner only.
  /// - Throws: `SystemError` from `open` (`EEXIST` if it exists).
  package static func createReadWriteExclusive(_ path: String) throws(SystemError) -> FileDescriptor {
    let fd = try retrying("open", path) { unsafe open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
    return FileDescriptor(rawValue: fd, path: path)
  }

  /// Reads up to `buffer.count` bytes at `offset` from the file's start, without moving the file
  /// position; 0 means `offset` is at or past the end.
  /// - Throws: `SystemError` from `pread`.
  package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SystemError) -> Int {
    try FileDescriptor.retrying("pread", path) { unsafe pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
  }
}
