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
@safe public struct MappedRegion: ~Copyable, @unchecked Sendable {
  /// The mapped bytes (read-only, shared between threads).
  public let bytes: UnsafeRawBufferPointer
  /// The mapped file's identity when it was opened.
  public let identity: FileIdentity

  /// Maps the file at `path`.
  ///
  /// An empty file is not mapped (`mmap` of length 0 fails): it gives an empty region.
  /// - Throws: `SystemError` from `open`, `fstat` or `mmap`.
  public init(path: String) throws(SystemError) {
    let (mapped, identity) = try unsafe MappedRegion.map(path)
    unsafe bytes = mapped
    self.identity = identity
  }

  private static func map(_ path: String) throws(SystemError) -> (UnsafeRawBufferPointer, FileIdentity) {
    let file = try FileDescriptor.openForReading(path)
    defer { try? file.close() }
    // A directory opens for reading but does not map: say what it is, not what mmap says.
    guard try !file.isDirectory() else { throw SystemError(operation: "open", path: path, errno: EISDIR) }
    let size = try file.size()
    let identity = try file.identity()
    guard size > 0 else { return unsafe (UnsafeRawBufferPointer(start: nil, count: 0), identity) }
    guard let address = unsafe mmap(nil, size, PROT_READ, MAP_SHARED, file.rawValue, 0), unsafe address != MAP_FAILED else {
      throw SystemError.current("mmap", path: path)
    }
    return unsafe (UnsafeRawBufferPointer(start: address, count: size), identity)
  }

  deinit {
    if let base = unsafe bytes.baseAddress {
      _ = unsafe munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
    }
  }
}
