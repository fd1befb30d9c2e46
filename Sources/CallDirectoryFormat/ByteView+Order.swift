extension ByteView {
  /// Whether these bytes sort strictly before `other` in unsigned byte order (lexicographic, a
  /// proper prefix first): the label table's order (`Spec/FORMAT.md` section 9), which is not
  /// `String`'s.
  ///
  /// Labels next to each other in the table share long prefixes (up to 65,533 bytes), so the
  /// common part is compared eight bytes at a time, without copying either side.
  ///
  ///     ByteView(a).precedesInByteOrder(ByteView(b))  // "ab" before "b", "a" before "ab"
  /// - Complexity: O(the common prefix).
  @usableFromInline package func precedesInByteOrder(_ other: ByteView) -> Bool {
    let common = Swift.min(count, other.count)
    var position = 0
    while position <= common &- 8 {  // common >= 0: `common &- 8` may be negative, never wraps
      let (mine, theirs) = (unsafe uncheckedUInt64LE(at: position), unsafe other.uncheckedUInt64LE(at: position))
      // Byte-swapped, the word's first byte is its most significant: the first differing byte decides.
      if mine != theirs { return mine.byteSwapped < theirs.byteSwapped }
      position &+= 8
    }
    while position < common {
      let (mine, theirs) = (unsafe uncheckedByte(at: position), unsafe other.uncheckedByte(at: position))
      if mine != theirs { return mine < theirs }
      position &+= 1
    }
    return count < other.count
  }
}
