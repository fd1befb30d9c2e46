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
}
