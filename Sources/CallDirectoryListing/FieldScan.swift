/// Finds where an unquoted CSV field stops, eight bytes at a time, and whether the bytes before
/// it go past ASCII.
///
/// The bytes it stops at are `,`, `"`, LF and CR. Every other byte is field text, and most of a
/// listing is such text: testing a word of eight at once, rather than each byte against four
/// values, is what makes CSV parsing cheap. Bytes of 0x80 or more (characters past ASCII, which
/// the reader validates) are noted on the way, not stopped at, so that a label in Chinese or
/// Arabic costs what one in English does.
enum FieldScan {
  /// The index of the first stop byte in `bytes[start ..< end]`, or `end` when there is none,
  /// and whether a byte of 0x80 or more comes before it.
  /// - Precondition: `0 <= start <= end <= bytes.count`.
  /// - Complexity: O(end - start).
  static func firstStop(in bytes: [UInt8], from start: Int, to end: Int) -> (index: Int, pastASCII: Bool) {
    unsafe bytes.withUnsafeBytes { raw in unsafe firstStop(in: raw, from: start, to: end) }
  }

  /// `firstStop(in:from:to:)` over bytes already borrowed, for a caller that reads a whole line
  /// in one borrow (`PlainLine`).
  /// - Precondition: `0 <= start <= end <= raw.count`.
  static func firstStop(in raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (index: Int, pastASCII: Bool) {
    precondition(start >= 0 && start <= end && end <= raw.count, "a range inside the bytes")
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = start
    var seen: UInt64 = 0  // the bytes passed, OR-ed together
    // Whole words while eight bytes remain before `end`: each read lies inside `raw`.
    while index &+ 8 <= end {
      let word = UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let marks = stopMarks(word)
      if marks != 0 {
        let stop = marks.trailingZeroBitCount >> 3
        let before: UInt64 = stop == 0 ? 0 : .max >> (64 &- 8 &* UInt64(stop))  // the bytes below the stop
        seen |= word & before
        return (index &+ stop, seen & highs != 0)
      }
      seen |= word
      index &+= 8
    }
    while index < end {
      let byte = unsafe raw[index]
      if stopMarks(UInt64(byte)) & 0x80 != 0 { break }
      seen |= UInt64(byte)
      index &+= 1
    }
    return (index, seen & highs != 0)
  }

  /// The high bit of each byte of `word` that is a stop byte, and perhaps of some bytes above the
  /// lowest stop byte: the lowest mark is exact, which is all `firstStop` reads.
  ///
  /// `(x - 0x01…) & ~x & 0x80…` marks the zero bytes of `x` (a borrow out of a zero byte can mark
  /// the byte above it too, and a byte of 0x80 or more is never marked); `x` is the word XOR a
  /// stop byte repeated.
  @inline(__always)
  static func stopMarks(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
    return zeroBytes(word ^ (ones &* 0x2C)) | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x0A))
      | zeroBytes(word ^ (ones &* 0x0D))
  }
}
