#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An anonymous temporary file: bytes appended in order, then read back in order.
///
/// The file is unlinked the moment it is created, so it has no name to leak: when the process
/// ends, however it ends, the system reclaims its space. Writes go through a 64 KiB buffer, so
/// memory stays at that whatever the file's size.
package final class SpoolFile {
  /// The bytes appended so far, buffered or not.
  package private(set) var count: Int = 0
  private let file: FileDescriptor
  private var buffer: [UInt8] = []
  private static let bufferSize = 1 << 16

  /// Creates an empty spool in `directory` (a directory on the file system that has room for it).
  /// - Throws: `SystemError` from `open` or `unlink`.
  package init(in directory: String) throws(SystemError) {
    var attempt = 0
    while true {
      let path = directory + "/.calldir-spool." + String(getpid()) + "." + String(attempt)
      do {
        file = try FileDescriptor.createReadWriteExclusive(path)
      } catch  where error.errno == EEXIST && attempt < 1000 {
        attempt += 1
        continue
      }
      guard unsafe unlink(path) == 0 else {
        let failure = SystemError.current("unlink", path: path)
        try? file.close()
        throw failure
      }
      break
    }
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit { try? file.close() }

  /// Appends `bytes`.
  /// - Throws: `SystemError` from `write` (a full disk, for one).
  package func append(_ bytes: [UInt8]) throws(SystemError) {
    if buffer.count + bytes.count > Self.bufferSize { try flush() }
    if bytes.count >= Self.bufferSize {
      try file.writeAll(bytes)
    } else {
      buffer.append(contentsOf: bytes)
    }
    count += bytes.count
  }

  /// Writes what the buffer holds to the file.
  private func flush() throws(SystemError) {
    guard !buffer.isEmpty else { return }
    try file.writeAll(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  /// Up to `count` bytes from `offset` (fewer at the end); what was appended so far is readable.
  /// - Throws: `SystemError` from `write` (flushing the buffer) or `pread`.
  package func read(at offset: Int, count wanted: Int) throws(SystemError) -> [UInt8] {
    try flush()
    let length = max(0, min(wanted, count - offset))
    var bytes = [UInt8](repeating: 0, count: length)
    var filled = 0
    while filled < length {
      let result = unsafe bytes.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) -> Int in
          try unsafe file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<length]), at: offset + filled)
        }
      }
      let read = try result.get()
      // The file holds `count` bytes: an early end means someone truncated it.
      guard read > 0 else { throw SystemError(operation: "pread", path: file.path, errno: EIO) }
      filled += read
    }
    return bytes
  }

  /// Hands every byte appended so far to `body`, in order, in pieces of at most `chunk` bytes;
  /// every piece but the last holds exactly `chunk` bytes, so fixed-size records never straddle two
  /// pieces when `chunk` is a multiple of their size.
  /// - Throws: `SystemError` from `pread`, or what `body` throws, wrapped.
  package func replay<E: Error>(
    chunk: Int = 1 << 16, _ body: ([UInt8]) throws(E) -> Void
  ) throws(AtomicWriteError<E>) {
    do { try flush() } catch { throw .system(error) }
    var piece = [UInt8](repeating: 0, count: max(1, chunk))
    var offset = 0
    while offset < count {
      let wanted = min(piece.count, count - offset)
      var filled = 0
      while filled < wanted {
        let result = unsafe piece.withUnsafeMutableBytes { raw in
          Result { () throws(SystemError) -> Int in
            try unsafe file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled..<wanted]), at: offset + filled)
          }
        }
        let read: Int
        do { read = try result.get() } catch { throw .system(error) }
        // The file holds `count` bytes: an early end means someone truncated it.
        guard read > 0 else { throw .system(SystemError(operation: "pread", path: file.path, errno: EIO)) }
        filled += read
      }
      do { try body(wanted == piece.count ? piece : Array(piece[0..<wanted])) } catch { throw .producer(error) }
      offset += wanted
    }
  }
}
