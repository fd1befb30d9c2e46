import CallDirectoryFormat
import CallDirectorySystem

/// A changeset's bytes: a memory mapping of its file, or a private copy of a buffer.
///
/// Freed only when the reader that owns it goes, so the views it lends stay valid as long as
/// the reader lives.
@safe final class ChangesetStorage: @unchecked Sendable {
  private let region: MappedRegion?
  private let copy: UnsafeMutableRawBufferPointer?
  /// All of the bytes.
  let view: ByteView

  /// Maps the file at `path`.
  init(mapping path: String) throws(SystemError) {
    let region = try MappedRegion(path: path)
    view = unsafe ByteView(region.bytes)
    self.region = consume region
    unsafe copy = nil
  }

  /// Copies `bytes`.
  init(copying bytes: [UInt8]) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
    unsafe buffer.copyBytes(from: bytes)
    unsafe copy = buffer
    view = unsafe ByteView(UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count]))
    region = nil
  }

  deinit {
    unsafe copy?.deallocate()
  }
}
