/// Little-endian appends to a byte array: the encoding twin of `ByteView`'s loads.
extension Array where Element == UInt8 {
  /// Appends `value` as one byte.
  @inlinable
  package mutating func appendUInt8(_ value: UInt8) { append(value) }

  /// Appends `value` as two little-endian bytes.
  @inlinable
  package mutating func appendUInt16LE(_ value: UInt16) {
    append(UInt8(truncatingIfNeeded: value))
    append(UInt8(truncatingIfNeeded: value >> 8))
  }

  /// Appends `value` as four little-endian bytes.
  @inlinable
  package mutating func appendUInt32LE(_ value: UInt32) {
    for shift in stride(from: 0 as UInt32, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  /// Appends `value` as eight little-endian bytes.
  @inlinable
  package mutating func appendUInt64LE(_ value: UInt64) {
    for shift in stride(from: 0 as UInt64, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
  }

  /// Overwrites four bytes at `offset` with `value`, little-endian (for back-patched fields).
  /// Precondition: `offset + 4 <= count`.
  @inlinable
  package mutating func setUInt32LE(_ value: UInt32, at offset: Int) {
    for index in 0..<4 { self[offset + index] = UInt8(truncatingIfNeeded: value >> (UInt32(index) * 8)) }
  }
}
