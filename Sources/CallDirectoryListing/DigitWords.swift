/// ASCII digits eight at a time: a listing's numbers are 11 to 15 digits, so a word at a time
/// takes one or two steps where a byte at a time takes eleven or more.
///
/// Words are read little-endian: the first character is the lowest byte, and the most
/// significant digit.
enum DigitWords {
  /// Bits set, within each byte's high half, exactly in the bytes of `word` that are not `0`...`9`;
  /// 0 when all eight are digits. The first non-digit is byte `trailingZeroBitCount / 8`.
  ///
  /// A digit is a byte whose high half is 3 and whose low half plus 6 stays below 16. Each byte is
  /// tested alone: nothing carries from one byte into the next.
  @inline(__always)
  static func nonDigits(_ word: UInt64) -> UInt64 {
    let highHalves: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
    let lowHalves: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
    return ((word & highHalves) ^ 0x3030_3030_3030_3030) | (((word & lowHalves) &+ 0x0606_0606_0606_0606) & highHalves)
  }

  /// The value of eight digits, 0 ... 99,999,999.
  /// - Precondition: `nonDigits(word) == 0`.
  @inline(__always)
  static func value(of word: UInt64) -> UInt64 {
    // Pairs of digits, then fours, then the eight, each step in lanes twice as wide: no lane
    // overflows into the next (99 < 2^8, 9,999 < 2^16, 99,999,999 < 2^32), and what a lane's
    // multiple pushes past the word's top belongs to a lane the mask drops.
    var value = word & 0x0F0F_0F0F_0F0F_0F0F
    value = (value &* 10 &+ value >> 8) & 0x00FF_00FF_00FF_00FF
    value = (value &* 100 &+ value >> 16) & 0x0000_FFFF_0000_FFFF
    return (value &* 10_000 &+ value >> 32) & 0xFFFF_FFFF
  }
}
