#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A read-only memory mapping of a whole file, unmapped when the value is destroyed.
///
/// Noncopyable, so exactly one owner unmaps it. The descriptor is closed right after mapping: the
/// mapping keeps the file's pages alive even if the path is later replaced or removed, which is
/// what lets a reader keep answering from the old version while a new one is renamed into place.
@safe package struct MappedRegion: ~Copyable, @unchecked Sendable {
  /// The mapped bytes (read-only, shared between threads).
  package let bytes: UnsafeRawBufferPointer
  /// The mapped file's stamp (identity, size and times) when it was opened.
  package let stamp: FileStamp
  /// The mapped file's identity.
  package var identity: FileIdentity { stamp.identity }

  /// How the mapping's pages will be read, for the kernel's read-ahead.
  package enum Access: Sendable {
    /// Lookups: a few scattered pages, none of their neighbours wanted.
    case random
    /// A stream over the file (verifying, unpacking, feeding CallKit): read ahead.
    case sequential
  }

  /// Tells the kernel how the pages will be read (`madvise`). A mapping starts `.random`: with the
  /// default read-around (up to the device's `read_ahead_kb`, megabytes) one cold lookup of a
  /// large file would otherwise read most of it.
  /// - Complexity: O(1); no page is read.
  package func advise(_ access: Access) {
    guard let base = unsafe bytes.baseAddress else { return }
    _ = unsafe madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, access == .random ? MADV_RANDOM : MADV_SEQUENTIAL)
  }

  /// Maps the file at `path`, for random access (``advise(_:)``).
  ///
  /// An empty file is not mapped (`mmap` of length 0 fails): it gives an empty region.
  /// - Throws: `SystemError` from `open`, `fstat` or `mmap`; `EISDIR` for a directory, `ENODEV`
  ///   for anything else that is not a regular file (a FIFO, a device, a socket).
  package init(path: String) throws(SystemError) {
    let (mapped, stamp) = try unsafe MappedRegion.map(path)
    unsafe bytes = mapped
    self.stamp = stamp
    advise(.random)
  }

  private static func map(_ path: String) throws(SystemError) -> (UnsafeRawBufferPointer, FileStamp) {
    let (file, status) = try FileDescriptor.openRegularFile(path)
    defer { try? file.close() }
    let (size, stamp) = (status.size, status.stamp)
    guard size > 0 else { return unsafe (UnsafeRawBufferPointer(start: nil, count: 0), stamp) }
    guard let address = unsafe mmap(nil, size, PROT_READ, MAP_SHARED, file.rawValue, 0), unsafe address != MAP_FAILED else {
      throw SystemError.current("mmap", path: path)
    }
    return unsafe (UnsafeRawBufferPointer(start: address, count: size), stamp)
  }

  deinit {
    if let base = unsafe bytes.baseAddress {
      _ = unsafe munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
    }
  }
}
