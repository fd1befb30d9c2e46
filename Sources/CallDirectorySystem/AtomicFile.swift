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
/// target's directory, so leftovers are recognisable (`isTemporaryName`); a process killed between
/// creating its temporary file and the rename leaves one behind, and the next write to the same
/// target removes it once its process is gone (`removeStaleTemporaries(for:)`).
package enum AtomicFile {
  /// The infix every temporary file name carries.
  package static let temporaryMarker = ".calldir-tmp."

  /// Whether `name` (a file name, without directory) is one of this package's temporary files.
  package static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(".") && name.contains(temporaryMarker)
  }

  /// Removes the temporary files that earlier writers to `path` left behind when they died.
  ///
  /// A temporary file `.NAME.calldir-tmp.PID.N` of `path`'s name, or a spool `.calldir-spool.PID.N`
  /// in its directory (a spool is unlinked as soon as it is created, so only a kill in between
  /// leaves one), is removed when no process `PID` exists on this machine (`kill(PID, 0)` fails
  /// with `ESRCH`). Files of live processes, of this process, and of other targets are kept; a PID
  /// that has been reused keeps its file until that process ends too. `write(to:_:)` calls this
  /// before it creates its own temporary file.
  ///
  /// - Parameter path: the target whose leftovers to remove.
  /// - Returns: the names removed (without directory).
  /// - Complexity: O(*n*) in the entries of the target's directory.
  @discardableResult
  package static func removeStaleTemporaries(for path: String) -> [String] {
    let (directory, name) = split(path)
    return removeStaleTemporaries(in: directory, spools: true) { $0 == name }
  }

  /// Removes the temporary files that earlier writers left behind when they died, in
  /// `directory`, of every target whose name `isTarget` accepts, and with `spools` the spools
  /// there too: `removeStaleTemporaries(for:)` for a family of targets, for an owner that names
  /// its files by a pattern (generations `list-G.calldir`) and may never write one of them again.
  /// - Returns: the names removed (without directory).
  /// - Complexity: O(*n*) in the entries of `directory`.
  @discardableResult
  package static func removeStaleTemporaries(in directory: String, spools: Bool = false, targets isTarget: (Substring) -> Bool)
    -> [String]
  {
    guard let stream = unsafe opendir(directory) else { return [] }
    defer { _ = unsafe closedir(stream) }
    let ownPID = getpid()
    var removed: [String] = []
    while let entry = unsafe readdir(stream) {
      let entryName = unsafe entryName(entry)
      let tail: Substring
      if spools && entryName.hasPrefix(spoolPrefix) {
        tail = entryName.dropFirst(spoolPrefix.count)
      } else if let parts = temporaryParts(entryName), isTarget(parts.target) {
        tail = parts.tail
      } else {
        continue
      }
      guard let pid = temporaryOwner(tail) else { continue }
      guard pid != ownPID, kill(pid, 0) != 0, errno == ESRCH else { continue }
      if unsafe unlink(directory + "/" + entryName) == 0 { removed.append(entryName) }
    }
    return removed
  }

  /// The target's name and the `PID.N` tail of a temporary file's name `.NAME.calldir-tmp.PID.N`,
  /// or `nil` for another name.
  static func temporaryParts(_ name: String) -> (target: Substring, tail: Substring)? {
    guard name.hasPrefix(".") else { return nil }
    let start = name.index(after: name.startIndex)
    var index = start
    while index < name.endIndex {
      if name[index...].hasPrefix(temporaryMarker) {
        return (name[start..<index], name[name.index(index, offsetBy: temporaryMarker.count)...])
      }
      index = name.index(after: index)
    }
    return nil
  }

  /// The names of the entries of `directory` (without `.` and `..`), or none when it cannot be
  /// read.
  /// - Complexity: O(*n*) in its entries.
  package static func entryNames(of directory: String) -> [String] {
    guard let stream = unsafe opendir(directory) else { return [] }
    defer { _ = unsafe closedir(stream) }
    var names: [String] = []
    while let entry = unsafe readdir(stream) {
      let name = unsafe entryName(entry)
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The name in a directory entry. A record is only as long as its name (`d_reclen`), so the name
  /// is read up to its NUL in place: copying the whole `d_name` array would read past the record.
  static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    return unsafe String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
  }

  /// How `SpoolFile` names its file in the moment before unlinking it.
  static let spoolPrefix = ".calldir-spool."

  /// The PID in the `PID.N` tail of a temporary file's name, or `nil` when the tail is not of that form.
  static func temporaryOwner(_ tail: Substring) -> pid_t? {
    let parts = tail.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt(parts[1]) != nil else { return nil }
    return pid
  }

  /// Writes the bytes `produce` hands to its sink to `path`, atomically.
  ///
  /// What is at `path` decides the details: a symbolic link is followed, and the file it names
  /// replaced; a regular file's permission bits pass to its replacement; a device or a FIFO
  /// (`/dev/null`, a named pipe) is written in place, since there is no file to replace, and the
  /// write is then not atomic.
  ///
  /// - Parameters:
  ///   - target: the file to write; it is replaced only if everything succeeds.
  ///   - produce: writes the file's contents by calling the given closure one or more times.
  /// - Throws: `SystemError` from any step (the temporary file is removed; `EISDIR` for a
  ///   directory, before anything is produced), or whatever `produce` throws, wrapped.
  package static func write<E: Error>(
    to target: String, _ produce: (_ write: ([UInt8]) throws(SystemError) -> Void) throws(E) -> Void
  ) throws(AtomicWriteError<E>) {
    let existing = Existing(target)
    if existing.isDirectory || target.hasSuffix("/") {
      throw .system(SystemError(operation: "write", path: target, errno: EISDIR))
    }
    if existing.isSpecial {
      let file: FileDescriptor
      do { file = try FileDescriptor.openExistingForWriting(existing.path) } catch { throw .system(error) }
      do {
        try produce { (bytes) throws(SystemError) in try file.writeAll(bytes) }
      } catch {
        try? file.close()
        throw .producer(error)
      }
      do { try file.close() } catch { throw .system(error) }
      return
    }
    let path = existing.path
    let (directory, name) = split(path)
    removeStaleTemporaries(for: path)
    var attempt = 0
    var file: FileDescriptor
    var temporary: String
    while true {
      temporary = directory + "/." + name + temporaryMarker + String(getpid()) + "." + String(attempt)
      do {
        file = try FileDescriptor.createExclusive(temporary)
        break
      } catch  where error.errno == EEXIST && attempt < 100 {
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
      if let mode = existing.regularFileMode { try file.setPermissions(mode) }
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

  /// What a write finds at its target: the path to write (a symbolic link's file), and what is
  /// there.
  struct Existing {
    /// The path itself, or the file a symbolic link there names.
    var path: String
    /// The permission bits of a regular file there.
    var regularFileMode: mode_t?
    /// A device, FIFO or socket: written in place.
    var isSpecial = false
    /// A directory: refused.
    var isDirectory = false

    init(_ target: String) {
      path = target
      var info = stat()
      if unsafe lstat(target, &info) == 0, info.st_mode & 0o170000 == 0o120000 {
        if let resolved = unsafe realpath(target, nil) {
          path = unsafe String(cString: resolved)
          unsafe free(resolved)
        } else {
          path = Self.danglingTarget(of: target)
        }
      }
      guard unsafe stat(path, &info) == 0 else { return }
      switch info.st_mode & 0o170000 {
      case 0o100000: regularFileMode = info.st_mode & 0o7777
      case 0o020000, 0o060000, 0o010000, 0o140000: isSpecial = true  // character, block, FIFO, socket
      case 0o040000: isDirectory = true
      default: break
      }
    }
  }
}

extension AtomicFile.Existing {
  /// The missing file a dangling symbolic link names, through any chain of links (each
  /// relative target taken from its link's directory): the file a write creates, as it would
  /// replace the file of a live link, instead of replacing the link. A chain longer than 40
  /// links (a loop) gives `link` itself.
  static func danglingTarget(of link: String) -> String {
    var path = link
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    for _ in 0..<40 {
      var info = stat()
      guard unsafe lstat(path, &info) == 0, info.st_mode & 0o170000 == 0o120000 else { return path }
      let count = unsafe buffer.withUnsafeMutableBufferPointer { pointer -> Int in
        guard let base = pointer.baseAddress else { return -1 }
        return unsafe readlink(path, base, pointer.count - 1)
      }
      guard count > 0 else { return link }
      let destination = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      path = destination.hasPrefix("/") ? destination : AtomicFile.split(path).0 + "/" + destination
    }
    return link
  }
}

extension AtomicFile {
  /// `path`'s directory (`.` for a bare name, `/` for the root's files) and its last name.
  package static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }
}

/// Why an atomic write failed.
package enum AtomicWriteError<Producer: Error>: Error {
  /// A system call failed.
  case system(SystemError)
  /// The producer of the contents failed.
  case producer(Producer)
}
