#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Publishes a file atomically: write a temporary file beside the target, `fsync` it, `rename` it
/// over the target, `fsync` the directory.
///
/// Readers of the target see the old file or the new one, never a mix; a failure or a crash before
/// the rename leaves the target untouched. Temporary files are named `.NAME.calldir-tmp.PID.N` in the
/// target's directory, so leftovers are recognisable (`isTemporaryName`).
public enum AtomicFile {
  /// The infix every temporary file name carries.
  public static let temporaryMarker = ".calldir-tmp."

  /// Whether `name` (a file name, without directory) is one of this package's temporary files.
  public static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(".") && name.contains(temporaryMarker)
  }

  /// Writes the bytes `produce` hands to its sink to `path`, atomically.
  ///
  /// - Parameters:
  ///   - path: the target; it is replaced only if everything succeeds.
  ///   - produce: writes the file's contents by calling the given closure one or more times.
  /// - Throws: `SystemError` from any step (the temporary file is removed), or whatever `produce` throws, wrapped.
  public static func write<E: Error>(
    to path: String, _ produce: (_ write: ([UInt8]) throws(SystemError) -> Void) throws(E) -> Void
  ) throws(AtomicWriteError<E>) {
    let (directory, name) = split(path)
    var attempt = 0
    var file: FileDescriptor
    var temporary: String
    while true {
      temporary = directory + "/." + name + temporaryMarker + String(getpid()) + "." + String(attempt)
      do {
        file = try FileDescriptor.createExclusive(temporary)
        break
      } catch where error.errno == EEXIST && attempt < 100 {
        attempt += 1
      } catch {
        throw .system(error)
      }
    }
    func abandon() {
      try? file.close()
      _ = unsafe unlink(temporary)
    }
    do {
      try produce { (bytes) throws(SystemError) in try file.writeAll(bytes) }
    } catch {
      abandon()
      throw .producer(error)
    }
    do {
      try file.sync()
    } catch {
      abandon()
      throw .system(error)
    }
    do { try file.close() } catch {
      _ = unsafe unlink(temporary)
      throw .system(error)
    }
    guard unsafe rename(temporary, path) == 0 else {
      let failure = SystemError.current("rename", path: path)
      _ = unsafe unlink(temporary)
      throw .system(failure)
    }
    // Make the rename itself durable.
    if let directoryFile = try? FileDescriptor.openForReading(directory) {
      try? directoryFile.sync()
      try? directoryFile.close()
    }
  }

  /// The directory (`.` when none) and the file name of `path`.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}

/// Why an atomic write failed.
public enum AtomicWriteError<Producer: Error>: Error {
  /// A system call failed.
  case system(SystemError)
  /// The producer of the contents failed.
  case producer(Producer)
}
