import CallDirectoryFormat

// The search inside one entry block: Elias-Fano's high vector to the offsets that share the
// target's high part, then their low parts. Every read is safe whatever the bytes hold
// (positions past the parts read as zero bits), and the reader checks the block's CRC before it
// answers from it.

extension EliasFanoView {
  /// The index `j` (1 ... count) of the offset equal to `target`, or `nil` when there is none.
  ///
  /// - Complexity: O(high bytes / 8) word operations, plus O(1) per offset sharing `target`'s
  ///   high part.
  @inlinable
  package func find(_ target: UInt64) -> Int? {
    let highPart = target >> UInt64(lowBits)
    let bitLength = high.count &* 8  // high.count <= the payload cap, so no overflow
    // Position just after the `highPart`-th zero: where offsets with this high part begin.
    var position = 0
    if highPart > 0 {
      guard let zero = positionOfZero(highPart &- 1) else { return nil }
      position = zero &+ 1
    }
    let targetLow = lowBits == 0 ? 0 : target & ((1 << UInt64(lowBits)) &- 1)
    while position < bitLength {
      let word = high.wordLE(at: position >> 3) >> UInt64(position & 7)
      guard word & 1 == 1 else { return nil }
      // Ones before `position` = position - zeros before it, and the zeros before it are `highPart`.
      let element = position &- Int(truncatingIfNeeded: highPart)
      guard element >= 0 && element < count else { return nil }
      let lowPart = BitPacking.field(low, bitOffset: element &* lowBits, width: lowBits)
      if lowPart == targetLow { return element &+ 1 }
      if lowPart > targetLow { return nil }
      position &+= 1
    }
    return nil
  }

  /// The bit position of the zero with 0-based rank `rank` in the high vector, if there is one.
  ///
  /// A popcount walk: whole words are read without per-byte checks (they lie inside the view),
  /// and only the last, partial word is masked to the vector's length.
  @usableFromInline
  func positionOfZero(_ rank: UInt64) -> Int? {
    var remaining = rank
    let fullWords = high.count >> 3
    var word = 0
    while word < fullWords {
      let zeros = ~(unsafe high.uncheckedUInt64LE(at: word &<< 3))  // word < count / 8: inside the view
      let zeroCount = UInt64(zeros.nonzeroBitCount)
      if remaining < zeroCount { return word &<< 6 &+ EliasFanoView.select(remaining, in: zeros) }
      remaining &-= zeroCount
      word &+= 1
    }
    let tailBits = (high.count & 7) &* 8
    guard tailBits > 0 else { return nil }
    // Bits past the end read as zero, so `~` sets them: mask them out.
    let zeros = ~high.wordLE(at: word &<< 3) & ((1 << UInt64(tailBits)) &- 1)
    guard remaining < UInt64(zeros.nonzeroBitCount) else { return nil }
    return word &<< 6 &+ EliasFanoView.select(remaining, in: zeros)
  }

  /// The position of the set bit of 0-based rank `rank` in `bits`.
  /// Precondition: `rank < bits.nonzeroBitCount`.
  @inline(__always)
  static func select(_ rank: UInt64, in bits: UInt64) -> Int {
    var bits = bits
    var skip = rank
    var position = 0
    while true {  // whole bytes first
      let inByte = UInt64((bits & 0xFF).nonzeroBitCount)
      if skip < inByte { break }
      skip &-= inByte
      bits >>= 8
      position &+= 8
    }
    while skip > 0 {
      bits &= bits &- 1
      skip &-= 1
    }
    return position &+ bits.trailingZeroBitCount
  }
}
