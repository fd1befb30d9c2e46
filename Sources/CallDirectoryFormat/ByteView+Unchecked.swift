import CProcessor

// The unchecked reads of a `ByteView`: the only loads from raw memory in the format layer that
// are not checked where they happen.
//
// Each is `@unsafe`, so every use is written `unsafe` and found by `grep -rn "unsafe .*unchecked"`.
// A use is safe when the range it reads was proved inside the view before it (`Spec/FORMAT.md`,
// "Reading untrusted bytes"), and while the memory the view points into is alive. What proves
// each group of uses:
//
// - `FileHeader+Parsing`: `file.count >= headerSize` before the fixed header's fields, and the
//   table's end (`headerSize + count * sectionEntrySize`, count <= 64) `<= file.count` before
//   its entries.
// - `EntryIndex`, `LabelIndex`, `RangeTable`, `TopIndex`: the header length is checked before its
//   fields; the records' length is `blockCount * recordSize`, checked against the section at
//   parse, so a record of a block `< blockCount` is inside.
// - `AuthenticitySections`: the section's length equals the fixed size before any field is read.
// - `Block`: the frame (header and trailer, 8 bytes) is checked before the header bytes and the
//   stored checksum are read.
// - `EntryBlock`, `LabelBlock`: the payload's length covers the label ids, the offsets table and
//   the bit-packed parts (checked with overflow-checked arithmetic at parse) before they are read.
// - `EliasFano`, `BitPacking`: whole words only below `count - 8`, rounded down; the tail goes
//   through `wordLE(at:)`, which reads byte by byte inside the view.
// - `ByteView` and `ByteView+Order`: the checked reads call these after `contains(offset:length:)`
//   or inside `min(count, other.count)`.
// - `Varint`: `offset < count` before each byte it reads.
// - `uncheckedLastKey`: the index searches pass a range of records or samples below the count
//   their parser checked against the section.
// - `uncheckedSlice`: a range block's search slices the block's bytes at the extent its index
//   record gives, checked against its data section's length (`EntryIndex.Counts.extent`).
// - Outside Swift: CProcessor's warm lookup (entry_find.h) reads through the plan a reader makes
//   from its shapes, and places a block's parts after checking that their sizes add up to at most
//   its payload (`calldir_raw_block_parse`).
// - `view(of:)`: a part's `Shape` holds the file ranges its parser checked against the file; the
//   reader and its label cache pair each shape only with that file.
// - Outside the format layer (`ChangesetHeader`, `ChangesetReader`, `CarriedSections`,
//   `ChangesetDiff`, `LabelDecoder`, `Verifier+PageLayout`): a guard or a comment just before each
//   use gives its proof: a header or footer length checked, a block's length checked against the
//   file when the changeset was opened, or an index over
//   `0 ..< count` of a view made by the checked `slice(offset:length:)`.
//
// That the memory is alive is the compiler's to check: a view is `~Escapable`, dependent on what it
// was made from, and every view sliced or parsed from it on the same. The places that state a
// dependence by hand (`_overrideLifetime`), each with its reason beside it:
// `subview`/`sliceOrEmpty` (a part of a view depends on the view),
// `FileStorage.view` (the storage frees its bytes only in `deinit`) and
// `FileStorage.view(heldBy:)` (the reader, a changeset reader and a label cache hold their
// storage in a `let`). A view made from an `UnsafeRawBufferPointer` depends on the caller's scope
// of that pointer.
extension ByteView {
  /// The bytes `range` lies on: how a part's escapable `Shape` becomes a view of its file again.
  ///
  /// Unsafe, and unchecked in release builds: `range` must lie inside this view. That holds for
  /// the ranges of a shape over the file it was parsed from (its parser checked each against the
  /// file), and the reads of the view made here rely on it the way every part's unchecked reads
  /// rely on the sizes its parser checked; the reader and its label cache keep each shape with
  /// the bytes it came from, and make no other pairing.
  /// - Complexity: O(1).
  @unsafe @inlinable @inline(__always) @_lifetime(copy self)
  package func view(of range: FileRange) -> ByteView {
    unsafe uncheckedSlice(offset: range.offset, length: range.count)
  }

  /// The bytes `offset ..< offset + length`, for a caller that proved the range inside the view.
  /// Precondition (not checked in release builds): `contains(offset: offset, length: length)`.
  /// - Complexity: O(1).
  @unsafe @inlinable @inline(__always) @_lifetime(copy self)
  package func uncheckedSlice(offset: Int, length: Int) -> ByteView {
    assert(contains(offset: offset, length: length))
    return unsafe _overrideLifetime(ByteView(base: base.map { unsafe $0 + offset }, count: length), copying: self)
  }

  /// The byte at `offset`. Precondition (not checked in release builds): `0 <= offset < count`.
  @unsafe @inlinable
  package func uncheckedByte(at offset: Int) -> UInt8 {
    assert(offset >= 0 && offset < count)
    return unsafe base.unsafelyUnwrapped.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// The little-endian `UInt16` at `offset`. Precondition: `contains(offset: offset, length: 2)`.
  @unsafe @inlinable
  package func uncheckedUInt16LE(at offset: Int) -> UInt16 {
    assert(contains(offset: offset, length: 2))
    return UInt16(littleEndian: unsafe base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  /// The little-endian `UInt32` at `offset`. Precondition: `contains(offset: offset, length: 4)`.
  @unsafe @inlinable
  package func uncheckedUInt32LE(at offset: Int) -> UInt32 {
    assert(contains(offset: offset, length: 4))
    return UInt32(littleEndian: unsafe base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// The little-endian `UInt64` at `offset`. Precondition: `contains(offset: offset, length: 8)`.
  @unsafe @inlinable
  package func uncheckedUInt64LE(at offset: Int) -> UInt64 {
    assert(contains(offset: offset, length: 8))
    return UInt64(littleEndian: unsafe base.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The last key of `keys` at most `number`, given that the first is (or the first, when no
  /// other is): key `i` is the little-endian `UInt64` at `i * stride`. It halves the range
  /// without a branch on the keys (`calldir_last_at_most`); `prefetching` asks for the lines of
  /// the next probes ahead, for keys that may not be in cache. Over keys that do not ascend it
  /// gives some key of `keys`. Precondition (not checked in release builds): `keys` is not empty
  /// and each of its keys lies inside the view.
  /// - Complexity: O(log keys.count).
  @unsafe @inlinable @inline(__always)
  package func uncheckedLastKey(atMost number: UInt64, in keys: Range<Int>, stride: Int, prefetching: Bool) -> Int {
    assert(!keys.isEmpty && contains(offset: keys.lowerBound &* stride, length: (keys.count &- 1) &* stride &+ 8))
    let bytes = unsafe base.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self)
    let (first, count) = (Int64(keys.lowerBound), Int64(keys.count))
    if prefetching {
      return Int(unsafe calldir_last_at_most_prefetching(bytes, Int64(stride), first, count, number))
    }
    return Int(unsafe calldir_last_at_most(bytes, Int64(stride), first, count, number))
  }
}
