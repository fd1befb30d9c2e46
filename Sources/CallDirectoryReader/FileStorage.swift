import CallDirectoryFormat
import CallDirectorySystem

/// The bytes a reader reads: a memory mapping of a file, or a private copy of an in-memory buffer.
/// Shared, within the package, by every reader of mapped files (directories and changesets).
///
/// Immutable once made and freed only when the last reader lets go of it. Its `view` depends on a
/// borrow of the storage, so the compiler keeps every view inside the life of the reference it
/// came from.
@safe @usableFromInline package final class FileStorage: @unchecked Sendable {
  private let region: MappedRegion?
  private let copy: UnsafeMutableRawBufferPointer?
  /// All of the bytes, as mapped or copied.
  @usableFromInline let bytes: UnsafeRawBufferPointer
  /// The identity of the mapped file, if the bytes came from one.
  package let identity: FileIdentity?

  /// Maps the file at `path`.
  package init(mapping path: String) throws(SystemError) {
    let region = try MappedRegion(path: path)
    unsafe bytes = region.bytes
    identity = region.identity
    self.region = consume region
    unsafe copy = nil
  }

  /// Copies `bytes`.
  package init(copying bytes: [UInt8]) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
    unsafe buffer.copyBytes(from: bytes)
    unsafe copy = buffer
    unsafe self.bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count])
    region = nil
    identity = nil
  }

  /// All of the bytes, for as long as this reference to the storage is borrowed.
  @inlinable package var view: ByteView {
    @_lifetime(borrow self) get {
      // The storage frees its bytes only in `deinit`, which cannot run while `self` is borrowed.
      unsafe _overrideLifetime(ByteView(bytes), borrowing: self)
    }
  }

  /// All of the bytes, for as long as `holder` is borrowed: for an object that holds this storage
  /// in a `let` for its whole life (a reader, its label cache), whose views may then live as long
  /// as a borrow of the object itself rather than of one load of its property.
  ///
  /// Unsafe: nothing checks that `holder` holds this storage; each caller says that it does.
  @unsafe @inlinable @inline(__always) @_lifetime(borrow holder)
  package func view(heldBy holder: borrowing some AnyObject) -> ByteView {
    unsafe _overrideLifetime(view, borrowing: holder)
  }

  /// Tells the kernel how a mapping's pages will be read; nothing for a copy.
  package func advise(_ access: MappedRegion.Access) {
    region?.advise(access)
  }

  deinit {
    unsafe copy?.deallocate()
  }
}
