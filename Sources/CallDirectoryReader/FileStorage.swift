import CallDirectoryFormat
import CallDirectorySystem

/// The bytes a reader reads: a memory mapping of a file, or a private copy of an in-memory buffer.
/// Shared, within the package, by every reader of mapped files (directories and changesets).
///
/// Immutable once made and freed only when the last reader lets go of it, so the `ByteView` it
/// hands out stays valid for as long as any reader holding it is alive.
@safe package final class FileStorage: @unchecked Sendable {
  private let region: MappedRegion?
  private let copy: UnsafeMutableRawBufferPointer?
  /// All of the bytes.
  package let view: ByteView
  /// The identity of the mapped file, if the bytes came from one.
  package let identity: FileIdentity?

  /// Maps the file at `path`.
  package init(mapping path: String) throws(SystemError) {
    let region = try MappedRegion(path: path)
    view = unsafe ByteView(region.bytes)
    identity = region.identity
    self.region = consume region
    unsafe copy = nil
  }

  /// Copies `bytes`.
  package init(copying bytes: [UInt8]) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
    unsafe buffer.copyBytes(from: bytes)
    unsafe copy = buffer
    view = unsafe ByteView(UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count]))
    region = nil
    identity = nil
  }

  /// Tells the kernel how a mapping's pages will be read; nothing for a copy.
  package func advise(_ access: MappedRegion.Access) {
    region?.advise(access)
  }

  deinit {
    unsafe copy?.deallocate()
  }
}
