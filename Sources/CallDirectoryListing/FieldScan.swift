/// Finds where an unquoted CSV field stops or needs a second look, eight bytes at a time.
///
/// The bytes it stops at are `,`, `"`, LF, CR and any byte of 0x80 or more (the start of a
/// character past ASCII, which the reader validates). Every other byte is field text, and most
/// of a listing is such text: testing a word of eight at once, rather than each byte against
/// five values, is what makes CSV parsing cheap.
enum FieldScan {
  /// The index of the first stop byte in `bytes[start ..< end]`, or `end` when there is none.
  /// - Precondition: `0 <= start <= end <= bytes.count`.
  /// - Complexity: O(end - start).
  static func firstStop(in bytes: [UInt8], from start: Int, to end: Int) -> Int {
    precondition(start >= 0 && start <= end && end <= bytes.count, "a range inside the bytes")
    return unsafe bytes.withUnsafeBytes { raw in
      var index = start
      // Whole words while eight bytes remain before `end`: each read lies inside `raw`.
      while index &+ 8 <= end {
        let word = UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let marks = stopMarks(word)
        if marks != 0 { return index &+ marks.trailingZeroBitCount >> 3 }
        index &+= 8
      }
      while index < end {
        if stopMarks(UInt64(unsafe raw[index])) & 0x80 != 0 { return index }
        index &+= 1
      }
      return end
    }
  }

  /// The high bit of each byte of `word` that is a stop byte, and perhaps of some bytes above the
  /// lowest stop byte: the lowest mark is exact, which is all `firstStop` reads.
  ///
  /// `(x - 0x01…) & ~x & 0x80…` marks the zero bytes of `x` (a borrow out of a zero byte can mark
  /// the byte above it too); `x` is the word XOR a stop byte repeated.
  @inline(__always)
  static func stopMarks(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
    return zeroBytes(word ^ (ones &* 0x2C)) | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x0A))
      | zeroBytes(word ^ (ones &* 0x0D)) | (word & highs)
  }
}
