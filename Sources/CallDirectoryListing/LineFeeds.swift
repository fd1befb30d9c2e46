/// Line feeds found eight bytes at a time: the scans every line-based reader makes, for the
/// lines of a piece and for where each line ends.
enum LineFeeds {
  private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
  private static let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A

  /// The high bit of each byte of `word` (eight bytes, the first in the low bits) that is an LF,
  /// and no other bit.
  @inline(__always)
  private static func marks(_ word: UInt64) -> UInt64 {
    let zeroed = word ^ lineFeeds
    // Adding 0x7F to the low seven bits sets the high bit of every byte with any of them set,
    // without a carry into the next byte; a byte of zero (an LF) is then the only one left clear.
    return ~(((zeroed & low7) &+ low7) | zeroed | low7)
  }

  /// The eight bytes at `offset` of `raw` as a word, the first in the low bits.
  /// - Precondition: `raw.byteCount - offset >= 8` (the callers' loop conditions).
  @inline(__always)
  private static func word(_ raw: RawSpan, at offset: Int) -> UInt64 {
    // In bounds by the precondition; any 8 bytes are a valid UInt64.
    UInt64(littleEndian: unsafe raw.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The count of LFs in `bytes`.
  static func count(in bytes: Span<UInt8>) -> Int {
    let raw = unsafe bytes.bytes
    var count = 0
    var offset = 0
    // `offset <= byteCount - 8` in subtraction form, so that nothing wraps.
    while raw.byteCount - offset >= 8 {
      count &+= marks(word(raw, at: offset)).nonzeroBitCount
      offset &+= 8
    }
    while offset < bytes.count {
      count &+= bytes[offset] == 0x0A ? 1 : 0
      offset &+= 1
    }
    return count
  }

  /// The index of the first LF of `bytes` at or after `start` (0 ... count), or `bytes.count`
  /// when there is none.
  static func first(in bytes: Span<UInt8>, from start: Int) -> Int {
    let raw = unsafe bytes.bytes
    var offset = max(0, start)
    while raw.byteCount - offset >= 8 {
      let found = marks(word(raw, at: offset))
      if found != 0 { return offset &+ found.trailingZeroBitCount >> 3 }
      offset &+= 8
    }
    while offset < bytes.count && bytes[offset] != 0x0A { offset &+= 1 }
    return offset
  }
}
