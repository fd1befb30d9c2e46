import CallDirectorySystem

extension Inputs {
  /// The largest key file read, in bytes: a key file is one line of about 100 bytes.
  static let maximumKeyFileBytes = 4096

  /// All bytes of the regular file at `path`, which may hold at most `limit` bytes.
  ///
  /// Refused before anything is read: standard input, a directory, a FIFO (opened without
  /// blocking, so one without a writer cannot hang the command), a device such as `/dev/zero`,
  /// and a file larger than `limit`. A file that grows while it is read stops at `limit`.
  /// - Parameter role: what the file is for, in messages: `a key file`.
  /// - Throws: `CommandFailure` naming the file.
  /// - Complexity: O(`limit`) time and memory at most.
  static func readRegularFile(_ path: String, limit: Int, role: String) throws(CommandFailure) -> [UInt8] {
    try withRegularFile(path, role: role) { (file, size) throws(CommandFailure) in
      let bytes: [UInt8]
      guard size <= limit else {
        throw CommandFailure("\(path): \(size) bytes, more than \(role) holds (at most \(limit))")
      }
      do throws(SystemError) { bytes = try file.readAll(limit: limit) } catch {
        throw CommandFailure("\(path): cannot read: \(error.message)")
      }
      return bytes
    }
  }

  /// Refuses `path` unless it names a regular file (after symbolic links), as
  /// ``readRegularFile(_:limit:role:)`` does, without reading it.
  /// - Throws: `CommandFailure` naming the file.
  static func requireRegularFile(_ path: String, role: String) throws(CommandFailure) {
    try withRegularFile(path, role: role) { (_, _) throws(CommandFailure) in }
  }

  /// Opens `path` without blocking, checks that it is a regular file, and calls `body` with it
  /// and its size (one `fstat` for both).
  private static func withRegularFile<R>(
    _ path: String, role: String, _ body: (FileDescriptor, Int) throws(CommandFailure) -> R
  ) throws(CommandFailure) -> R {
    guard path != "-" else { throw CommandFailure("<stdin>: \(role) must be a regular file, not standard input") }
    let file: FileDescriptor
    let status: FileDescriptor.Status
    do throws(SystemError) {
      file = try FileDescriptor.openForReading(path, nonBlocking: true)
      do throws(SystemError) { status = try file.status() } catch {
        try? file.close()
        throw error
      }
    } catch {
      throw CommandFailure("\(path): cannot read: \(error.message)")
    }
    return try file.closeAfter { () throws(CommandFailure) -> R in
      let type = UInt32(status.typeBits)
      guard type == 0o100000 else {
        throw CommandFailure("\(path): not a regular file (\(role) must be one, not \(kind(type)))")
      }
      return try body(file, status.size)
    }
  }

  /// The kind of a file type that is not a regular file, for messages.
  private static func kind(_ type: UInt32) -> String {
    switch type {
    case 0o040000: return "a directory"
    case 0o010000: return "a FIFO"
    case 0o020000: return "a character device"
    case 0o060000: return "a block device"
    case 0o140000: return "a socket"
    default: return "a special file"
    }
  }
}
