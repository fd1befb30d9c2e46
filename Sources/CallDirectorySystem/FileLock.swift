#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a file, held from its making until its end: one
/// process at a time runs what the lock guards, and a process that dies releases it with its
/// descriptors, so a crash never leaves it taken.
///
///     let lock = try FileLock(exclusive: container + "/update.lock")
///     try lock.holding { try update() }
package struct FileLock: ~Copyable {
  private let descriptor: FileDescriptor

  /// Opens `path` (creating it, empty, when missing) and waits until no other descriptor holds
  /// its lock, then takes it.
  /// - Throws: `SystemError` from `open` or `flock`.
  package init(exclusive path: String) throws(SystemError) {
    let fd = try FileDescriptor.retrying("open", path) { unsafe open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
    let descriptor = FileDescriptor(rawValue: fd, path: path)
    do { _ = try FileDescriptor.retrying("flock", path) { flock(fd, LOCK_EX) } } catch {
      try? descriptor.close()
      throw error
    }
    self.descriptor = descriptor
  }

  /// Runs `body` while the lock is held: the borrow keeps the lock alive to its end.
  package borrowing func holding<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    try body()
  }

  deinit {
    // Closing the last descriptor of the open file releases the lock.
    try? descriptor.close()
  }
}
