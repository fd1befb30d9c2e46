import CZlib

/// CRC-32 (ISO-HDLC, the polynomial of zlib, gzip and PNG), the checksum of every section and block.
///
/// The check value, the CRC-32 of the ASCII bytes `123456789`, is `0xCBF43926`.
@usableFromInline package struct CRC32: Sendable {
  /// The checksum of the bytes given so far.
  @usableFromInline package private(set) var value: UInt32 = 0

  /// A checksum of no bytes.
  @usableFromInline package init() {}

  /// Adds `bytes` to the checksum.
  /// - Complexity: O(n) in the byte count.
  @usableFromInline package mutating func update(_ bytes: ByteView) {
    unsafe bytes.withUnsafeBytes { buffer in
      var rest = unsafe buffer
      // zlib takes a 32-bit length: feed huge regions in pieces.
      while unsafe !rest.isEmpty {
        let piece = min(rest.count, 1 << 30)
        let pointer = unsafe rest.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) }
        value = UInt32(truncatingIfNeeded: unsafe crc32(uLong(value), pointer, uInt(piece)))
        unsafe rest = UnsafeRawBufferPointer(rebasing: rest[piece...])
      }
    }
  }

  /// Adds `bytes` to the checksum.
  @usableFromInline package mutating func update(_ bytes: [UInt8]) {
    unsafe bytes.withUnsafeBytes { buffer in update(unsafe ByteView(buffer)) }
  }

  /// Adds `length` bytes known by their checksum alone, as `update` would add the bytes.
  /// - Complexity: O(log length).
  @usableFromInline package mutating func update(checksum: UInt32, length: Int) {
    value = Self.combine(value, checksum, secondLength: length)
  }

  /// The checksum of any bytes followed by their own checksum (little-endian): what every valid
  /// block's whole bytes, trailer included, sum to.
  @usableFromInline package static let residue: UInt32 = 0x2144_DF1C

  /// The checksum of two byte strings one after the other, from their checksums and the second's
  /// length, without the bytes (zlib's `crc32_combine`).
  /// - Complexity: O(log secondLength).
  @usableFromInline package static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), .init(secondLength)))
  }

  /// The checksum of `bytes`.
  @usableFromInline package static func checksum(_ bytes: ByteView) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// The checksum of `bytes`.
  @usableFromInline package static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }
}
