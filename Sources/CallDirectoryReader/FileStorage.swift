import CallDirectoryFormat
import CallDirectorySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes a reader reads: a memory mapping of a file, or a private copy of an in-memory buffer.
/// Shared, within the package, by every reader of mapped files (directories and changesets).
///
/// Immutable once made and freed only when the last reader lets go of it. Its `view` depends on a
/// borrow of the storage, so the compiler keeps every view inside the life of the reference it
/// came from.
@safe @usableFromInline package final class FileStorage: @unchecked Sendable {
  private let region: MappedRegion?
  private let copy: UnsafeMutableRawBufferPointer?
  /// The file a private copy was read from, kept open so that its inode stays its own while the
  /// copy lives (as a mapping keeps it), or `nil`.
  private let source: FileDescriptor?
  /// All of the bytes, as mapped or copied.
  @usableFromInline let bytes: UnsafeRawBufferPointer
  /// The stamp (identity, size and times) of the file the bytes came from, when it was opened.
  package let stamp: FileStamp?
  /// The identity of the file the bytes came from, if they came from one.
  package var identity: FileIdentity? { stamp?.identity }
  /// Whether `stamp` stands for these bytes: the file had not changed for a second when it was
  /// opened (`FileStamp.isSettled(at:)`). False for bytes from memory.
  package let stampIsSettled: Bool

  /// Maps the file at `path`.
  package init(mapping path: String) throws(SystemError) {
    let region = try MappedRegion(path: path)
    unsafe bytes = region.bytes
    stamp = region.stamp
    stampIsSettled = region.stamp.isSettled(at: FileStamp.wallClock())
    self.region = consume region
    unsafe copy = nil
    source = nil
  }

  /// Reads the regular file at `path` into a private copy: what the file holds later, whatever
  /// is written to it or cut from it in place, changes nothing here.
  ///
  /// The copy is the file's first `size` bytes, its size and stamp from the `fstat` before the
  /// read. A write during the read may leave a copy of mixed or missing bytes, which the file
  /// length in its header and its checksums refuse, and always leaves the file with a newer stamp.
  /// - Throws: `SystemError` from `open`, `fstat` or `read`; `EISDIR` for a directory, `ENODEV`
  ///   for anything else that is not a regular file (a FIFO, a device, a socket).
  /// - Complexity: O(file size), in one allocation.
  package init(reading path: String) throws(SystemError) {
    let (file, status) = try FileDescriptor.openRegularFile(path)
    stampIsSettled = status.stamp.isSettled(at: FileStamp.wallClock())
    let buffer = unsafe Self.allocate(status.size)
    let count: Int
    do { count = try unsafe file.readFully(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<status.size])) } catch {
      unsafe buffer.deallocate()
      try? file.close()
      throw error
    }
    unsafe copy = buffer
    unsafe self.bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
    region = nil
    stamp = status.stamp
    source = file
  }

  /// Copies `bytes`.
  package init(copying bytes: [UInt8]) {
    let buffer = unsafe Self.allocate(bytes.count)
    unsafe buffer.copyBytes(from: bytes)
    unsafe copy = buffer
    unsafe self.bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<bytes.count])
    region = nil
    stamp = nil
    stampIsSettled = false
    source = nil
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

  /// A buffer for a copy of `count` bytes (at least one byte, which `allocate` needs).
  private static func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
  }

  /// Whether `other` holds the same bytes.
  /// - Complexity: O(size).
  package func hasSameBytes(as other: FileStorage) -> Bool {
    guard unsafe bytes.count == other.bytes.count else { return false }
    guard let base = unsafe bytes.baseAddress, let otherBase = unsafe other.bytes.baseAddress else { return true }
    return unsafe memcmp(base, otherBase, bytes.count) == 0
  }

  /// Tells the kernel how a mapping's pages will be read; nothing for a copy.
  package func advise(_ access: MappedRegion.Access) {
    region?.advise(access)
  }

  deinit {
    unsafe copy?.deallocate()
    try? source?.close()
  }
}
