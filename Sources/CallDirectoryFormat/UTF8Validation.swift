/// UTF-8 validity as Unicode defines it (no overlong forms, no surrogates, nothing above U+10FFFF).
public enum UTF8Validation {
  /// Whether `bytes` is valid UTF-8.
  /// - Complexity: O(n).
  public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    if let valid = bytes.withContiguousStorageIfAvailable({ unsafe isValid(UnsafeRawBufferPointer($0)) }) {
      return valid
    }
    return unsafe Array(bytes).withUnsafeBytes { unsafe isValid($0) }
  }

  /// Whether the bytes of `view` are valid UTF-8.
  public static func isValid(_ view: ByteView) -> Bool {
    unsafe view.withUnsafeBytes { unsafe isValid($0) }
  }

  /// The check itself, the Unicode standard's table of well-formed byte sequences (table 3-7):
  ///
  ///     00..7F
  ///     C2..DF  80..BF
  ///     E0      A0..BF  80..BF
  ///     E1..EC  80..BF  80..BF
  ///     ED      80..9F  80..BF
  ///     EE..EF  80..BF  80..BF
  ///     F0      90..BF  80..BF  80..BF
  ///     F1..F3  80..BF  80..BF  80..BF
  ///     F4      80..8F  80..BF  80..BF
  ///
  /// Runs of ASCII, most of a label table, are skipped eight bytes at a time. Every read is at an
  /// index below `bytes.count`, checked before it is made.
  private static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      if index &+ 8 <= count, unsafe bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
        index &+= 8
        continue
      }
      let lead = unsafe bytes[index]
      if lead < 0x80 {
        index &+= 1
        continue
      }
      // The sequence's length and the range its second byte must lie in.
      let length: Int
      let second: ClosedRange<UInt8>
      switch lead {
      case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
      case 0xE0: (length, second) = (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
      case 0xED: (length, second) = (3, 0x80...0x9F)
      case 0xF0: (length, second) = (4, 0x90...0xBF)
      case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
      case 0xF4: (length, second) = (4, 0x80...0x8F)
      default: return false  // a continuation byte first, C0, C1 or F5...FF
      }
      guard length <= count &- index, second.contains(unsafe bytes[index &+ 1]) else { return false }
      var next = index &+ 2
      while next < index &+ length {
        guard unsafe bytes[next] & 0xC0 == 0x80 else { return false }
        next &+= 1
      }
      index = next
    }
    return true
  }
}
