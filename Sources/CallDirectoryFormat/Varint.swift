/// Unsigned LEB128 (`Spec/CHANGESET.md`, section 6.1, and the prefix-coded label blocks of
/// `Spec/FORMAT.md` section 9.1): seven bits a byte, least significant group first, the high bit
/// set on every byte but the last.
package enum Varint {
  /// Appends `value` in its shortest encoding.
  package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Reads the varint at `offset` of `bytes`, advancing `offset` past it.
  ///
  /// At most 10 bytes are read; a value over 64 bits, a varint cut off by the end of `bytes`, or a
  /// padded encoding (a last byte of zero after the first) is refused, so each value has exactly
  /// one encoding.
  /// - Returns: the value, or `nil` when the bytes are not a canonical varint.
  package static func read(_ bytes: ByteView, at offset: inout Int) -> UInt64? {
    guard offset >= 0, offset < bytes.count else { return nil }
    let first = unsafe bytes.uncheckedByte(at: offset)
    if first < 0x80 {  // one-byte fast path
      offset &+= 1  // offset < count
      return UInt64(first)
    }
    var value: UInt64 = 0
    var shift: UInt64 = 0
    var position = offset
    while true {
      guard position < bytes.count, shift <= 63 else { return nil }
      let byte = unsafe bytes.uncheckedByte(at: position)
      position &+= 1  // position < count
      let group = UInt64(byte & 0x7F)
      // The tenth byte may carry only the 64th bit.
      if shift == 63 && group > 1 { return nil }
      value |= group << shift
      if byte < 0x80 {
        if byte == 0 { return nil }  // padded: a shorter encoding exists
        offset = position
        return value
      }
      shift &+= 7  // at most 63 + 7
    }
  }
}
