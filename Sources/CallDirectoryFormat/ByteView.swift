import CProcessor

/// A non-owning, read-only view of bytes: a directory's mapping, or a buffer an inflated block was
/// written into.
///
/// This file is the only place in the format layer that touches raw memory. Every read either is
/// checked against `count` here, or is an `unchecked` read whose caller proved the range first
/// (`Spec/FORMAT.md`, "Reading untrusted bytes").
///
/// A view is `~Escapable`: it depends on the lifetime of what it was made from (a reader or a
/// buffer), and every view sliced from it or parsed from it (an index, a block) depends on the
/// same. The compiler refuses code that keeps one past that life: returned from the scope
/// that borrowed its reader, stored in a class, captured by an escaping closure. What a reader keeps
/// between calls is the escapable `Shape` of each part, offsets without pointers, from which the
/// views are made again inside a borrow of the reader.
@frozen @safe
@usableFromInline package struct ByteView: ~Escapable, @unchecked Sendable {
  @usableFromInline let base: UnsafeRawPointer?
  /// The number of bytes in the view.
  @usableFromInline package let count: Int

  /// Makes a view of `buffer`, valid within the caller's scope of `buffer`: the caller keeps the
  /// memory alive for that long.
  @unsafe @inlinable @_lifetime(borrow buffer)
  package init(_ buffer: borrowing UnsafeRawBufferPointer) {
    unsafe base = buffer.baseAddress
    count = buffer.count
  }

  /// An empty view.
  @inlinable @_lifetime(immortal)
  package init() {
    unsafe base = nil
    count = 0
  }

  /// Whether `length` bytes starting at `offset` lie inside the view.
  ///
  /// Written in subtraction form: `offset <= count` first, so `count &- offset` cannot wrap.
  @inlinable
  package func contains(offset: Int, length: Int) -> Bool {
    offset >= 0 && length >= 0 && offset <= count && length <= count &- offset
  }

  /// The bytes `offset ..< offset + length` as a view of their own.
  ///
  /// - Parameter place: where the view's bytes lie in the file, to place the error; a caller
  ///   that proved the range lies inside may leave it out.
  /// - Throws: `FormatError` of kind `.truncated`, at `place` plus `offset`, when the range
  ///   leaves the view.
  @inlinable @_lifetime(copy self)
  package func slice(offset: Int, length: Int, in place: FilePlace = FilePlace(offset: 0)) throws(FormatError) -> ByteView {
    guard let view = subview(offset: offset, length: length) else {
      throw place.error(.truncated(needed: length, available: max(0, count - max(0, offset))), at: max(0, offset))
    }
    return view
  }

  /// The bytes `offset ..< offset + length` as a view of their own, or `nil` when the range
  /// leaves the view: `slice` without the error, for a hot path that has its own way out.
  @inlinable @inline(__always) @_lifetime(copy self)
  package func subview(offset: Int, length: Int) -> ByteView? {
    guard contains(offset: offset, length: length) else { return nil }
    return unsafe _overrideLifetime(ByteView(base: base.map { unsafe $0 + offset }, count: length), copying: self)
  }

  /// The bytes `offset ..< offset + length`, or an empty view when the range leaves this one:
  /// for a caller that proved the range, or whose next check fails on an empty view anyway.
  @inlinable @inline(__always) @_lifetime(copy self)
  package func sliceOrEmpty(offset: Int, length: Int) -> ByteView {
    if let view = subview(offset: offset, length: length) { return view }
    return unsafe _overrideLifetime(ByteView(), copying: self)
  }

  /// The bytes from `offset` to the end.
  @inlinable @_lifetime(copy self)
  package func dropFirst(_ offset: Int, in place: FilePlace = FilePlace(offset: 0)) throws(FormatError) -> ByteView {
    try slice(offset: offset, length: count - min(count, max(0, offset)), in: place)
  }

  /// A view of `count` bytes at `base`, which the caller gives the lifetime of what it came from.
  @unsafe @usableFromInline @_lifetime(immortal)
  init(base: UnsafeRawPointer?, count: Int) {
    unsafe self.base = base
    self.count = count
  }

  // MARK: Checked reads.

  /// The little-endian `UInt32` at `offset`, or `nil` when it does not fit in the view.
  @inlinable
  package func uint32LE(at offset: Int) -> UInt32? {
    contains(offset: offset, length: 4) ? unsafe uncheckedUInt32LE(at: offset) : nil
  }

  /// The little-endian `UInt64` at `offset`, or `nil` when it does not fit in the view.
  @inlinable
  package func uint64LE(at offset: Int) -> UInt64? {
    contains(offset: offset, length: 8) ? unsafe uncheckedUInt64LE(at: offset) : nil
  }

  /// The up to eight bytes at `offset` as a little-endian word; bytes past the end read as zero.
  ///
  /// This is what bit-packed decoders use: it is safe for any `offset`, so a hostile bit position
  /// can give a wrong value (caught by the checksum and the verifier) but never a read outside.
  @inlinable
  package func wordLE(at offset: Int) -> UInt64 {
    if offset >= 0 && offset <= count &- 8 {  // count >= 8 implied; `count &- 8` may be negative, never wraps
      return unsafe uncheckedUInt64LE(at: offset)
    }
    var word: UInt64 = 0
    var index = 0
    while index < 8 {
      let position = offset &+ index  // offset is bounded by the callers' bit arithmetic (< Int.max / 2)
      if position >= 0 && position < count {
        word |= UInt64(unsafe uncheckedByte(at: position)) << (UInt64(index) &* 8)
      }
      index &+= 1
    }
    return word
  }

  /// Hints that the bytes `offset ..< offset + length` (clamped to the view) are about to be
  /// read: one prefetch for each 64-byte line.
  ///
  /// A search whose every read waits on the one before waits on memory that many times; asking
  /// for a block's lines at once lets them arrive together. A hint reads nothing and never
  /// faults; the addresses stay inside the view all the same.
  /// - Complexity: O(length / 64); inlined, a few instructions a line.
  @inlinable package func prefetch(offset: Int, length: Int) {
    guard let base = unsafe base, offset >= 0, offset < count, length > 0 else { return }
    let end = length < count &- offset ? offset &+ length : count  // subtraction form: no overflow
    var line = offset
    while line < end {
      unsafe calldir_prefetch(base + line)
      line &+= 64
    }
  }

  /// The bytes as an array (for tests, checksums of small regions and diagnostics).
  @usableFromInline package var bytes: [UInt8] {
    guard count > 0, let base = unsafe base else { return [] }
    return unsafe Array(UnsafeRawBufferPointer(start: base, count: count))
  }

  /// Calls `body` with the view's bytes as a raw buffer (for zlib and checksums).
  @inlinable
  package func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
    try unsafe body(UnsafeRawBufferPointer(start: base, count: count))
  }
}

/// Where a view's bytes lie in the file it was sliced from: what a part's `Shape` keeps in place of
/// a view, so that the shape can outlive every view and still name the same bytes.
@frozen @usableFromInline package struct FileRange: Sendable, Equatable {
  /// The offset of the first byte from the start of the file.
  @usableFromInline package let offset: Int
  /// The number of bytes.
  @usableFromInline package let count: Int

  /// The range of `count` bytes at `offset`.
  @inlinable package init(offset: Int, count: Int) {
    self.offset = offset
    self.count = count
  }

  /// The empty range at the start of the file.
  @inlinable package static var empty: FileRange { FileRange(offset: 0, count: 0) }
}
