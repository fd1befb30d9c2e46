/// UTF-8 validity as Unicode defines it (no overlong forms, no surrogates, nothing above U+10FFFF).
@usableFromInline package enum UTF8Validation {
  /// Whether `bytes` is valid UTF-8.
  /// - Complexity: O(n).
  @usableFromInline package static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    if let valid = bytes.withContiguousStorageIfAvailable({ unsafe isValid(UnsafeRawBufferPointer($0)) }) {
      return valid
    }
    return unsafe Array(bytes).withUnsafeBytes { unsafe isValid($0) }
  }

  /// Whether the bytes of `view` are valid UTF-8.
  @usableFromInline package static func isValid(_ view: ByteView) -> Bool {
    unsafe view.withUnsafeBytes { unsafe isValid($0) }
  }

  /// The check itself, the Unicode standard's table of well-formed byte sequences (table 3-7):
  ///
  /// ```text
  /// 00..7F
  /// C2..DF  80..BF
  /// E0      A0..BF  80..BF
  /// E1..EC  80..BF  80..BF
  /// ED      80..9F  80..BF
  /// EE..EF  80..BF  80..BF
  /// F0      90..BF  80..BF  80..BF
  /// F1..F3  80..BF  80..BF  80..BF
  /// F4      80..8F  80..BF  80..BF
  /// ```
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
      let left = count &- index  // at least 1
      if lead < 0x80 {
        index &+= 1
      } else if lead < 0xE0 {
        // C2..DF and one continuation; 80..C1 cannot lead.
        guard lead >= 0xC2, left >= 2, unsafe bytes[index &+ 1] & 0xC0 == 0x80 else { return false }
        index &+= 2
      } else if lead < 0xF0 {
        // E0..EF and two continuations, the first within A0..BF after E0 and 80..9F after ED.
        guard left >= 3 else { return false }
        let second = unsafe bytes[index &+ 1]
        let third = unsafe bytes[index &+ 2]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80 else { return false }
        if lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F { return false }
        index &+= 3
      } else {
        // F0..F4 and three continuations, the first within 90..BF after F0 and 80..8F after F4.
        guard lead <= 0xF4, left >= 4 else { return false }
        let second = unsafe bytes[index &+ 1]
        let third = unsafe bytes[index &+ 2]
        let fourth = unsafe bytes[index &+ 3]
        guard second & 0xC0 == 0x80, third & 0xC0 == 0x80, fourth & 0xC0 == 0x80 else { return false }
        if lead == 0xF0 && second < 0x90 || lead == 0xF4 && second > 0x8F { return false }
        index &+= 4
      }
    }
    return true
  }
}
