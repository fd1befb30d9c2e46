import CallDirectoryFormat

/// The envelope of the container's state records (`Spec/APPGROUP.md`, section 2): magic, version,
/// kind, payload length, payload, CRC-32 of everything before it.
enum StateRecord {
  static let magic: [UInt8] = Array("CDGS".utf8)
  static let version: UInt8 = 1
  /// The record kinds of section 2.
  static let installedKind: UInt8 = 1
  static let holdingKind: UInt8 = 2
  /// The user's own list, as the app saved it.
  static let personalKind: UInt8 = 3
  /// The user's own list as CallKit was last fed it.
  static let fedPersonalKind: UInt8 = 4

  /// The record of `kind` holding `payload` (at most 65,535 bytes; the payloads are fixed and small).
  static func encode(kind: UInt8, payload: [UInt8]) -> [UInt8] {
    var bytes = magic + [version, kind]
    appendLE(UInt64(payload.count), size: 2, to: &bytes)
    bytes += payload
    var crc = CRC32()
    crc.update(bytes)
    appendLE(UInt64(crc.value), size: 4, to: &bytes)
    return bytes
  }

  /// The payload of a valid record of `kind`, or `nil` for any other bytes.
  /// - Complexity: O(bytes).
  static func decode(_ bytes: [UInt8], kind: UInt8) -> [UInt8]? {
    // 12 bytes of envelope: magic 4, version 1, kind 1, length 2, CRC 4.
    guard bytes.count >= 12, Array(bytes[0..<4]) == magic, bytes[4] == version, bytes[5] == kind else { return nil }
    let length = Int(readLE(bytes, at: 6, size: 2))
    guard bytes.count - 12 == length else { return nil }
    var crc = CRC32()
    crc.update(Array(bytes[0..<(8 + length)]))
    guard readLE(bytes, at: 8 + length, size: 4) == UInt64(crc.value) else { return nil }
    return Array(bytes[8..<(8 + length)])
  }

  static func appendLE(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
    for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
  }

  /// The little-endian integer of `size` bytes at `offset`.
  /// - Precondition: `offset + size <= bytes.count`, which every caller proved from the length.
  static func readLE(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in (0..<size).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
    return value
  }
}
