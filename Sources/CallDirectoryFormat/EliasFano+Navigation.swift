import CProcessor

// Navigation in an Elias-Fano code: the k-th one or zero of the high bits, an offset by its
// rank, and the count of offsets at or below a target. Every read is safe whatever the bytes hold
// (positions past the parts read as zero bits); readers check a block's CRC before they answer
// from it.

extension EliasFanoView {
  /// Offset `element` (0-based, so offset `element + 1` of the block's numbers): its high part
  /// from the position of its one bit, its low part from its field. Safe for any bytes.
  @inlinable
  package func offset(at element: Int) -> UInt64 {
    guard let position = positionOfOne(UInt64(element)) else { return 0 }
    let highPart = UInt64(truncatingIfNeeded: position &- element)
    return highPart &<< UInt64(lowBits) | BitPacking.field(low, bitOffset: element &* lowBits, width: lowBits)
  }

  /// The rank of `target` among the offsets: how many are below it, and whether the next equals
  /// it.
  ///
  /// The zero that ends the offsets of smaller high parts, then the run of ones after it, whose
  /// low parts ascend: one call of `calldir_elias_fano_rank`, which is compiled with POPCNT and
  /// BMI2 where the processor has them (CProcessor's `elias_fano.h` says why). Safe for any bytes.
  /// - Complexity: O(high bytes / 16) word operations from the nearer end, plus O(log r) for the
  ///   r offsets sharing `target`'s high part.
  @inlinable @inline(__always)
  package func rank(of target: UInt64) -> (below: Int, equal: Bool) {
    // A payload's widths are checked before its view is made; the C search answers 0 for others.
    guard lowBits >= 0 && lowBits <= FormatConstants.maximumLowBits else { return (0, false) }
    let rank = unsafe calldir_elias_fano_rank(
      low.base, low.count, high.base, high.count, Int64(count), UInt32(lowBits), target)
    return (Int(truncatingIfNeeded: rank >> 1), rank & 1 == 1)
  }

  /// The index `j` (1 ... count) of the offset equal to `target`, or `nil` when there is none.
  /// - Complexity: as `rank(of:)`.
  @inlinable @inline(__always)
  package func find(_ target: UInt64) -> Int? {
    let (below, equal) = rank(of: target)
    return equal ? below &+ 1 : nil
  }

  /// How many offsets are at most `target`, and whether the last of them equals it. Safe for any
  /// bytes.
  /// - Complexity: as `rank(of:)`.
  @inlinable @inline(__always)
  package func count(atMost target: UInt64) -> (count: Int, equal: Bool) {
    let (below, equal) = rank(of: target)
    return (equal ? below &+ 1 : below, equal)
  }

  /// The position of the one bit of rank `rank` (0-based) in the high bits, or `nil`.
  @usableFromInline
  func positionOfOne(_ rank: UInt64) -> Int? {
    var remaining = rank
    var word = 0
    while word &<< 3 < high.count {
      let ones = high.wordLE(at: word &<< 3)  // bits past the end read as zero
      let count = UInt64(ones.nonzeroBitCount)
      if remaining < count { return word &<< 6 &+ EliasFanoView.select(remaining, in: ones) }
      remaining &-= count
      word &+= 1
    }
    return nil
  }

  /// The bit position of the zero with 0-based rank `rank` in the high vector, if there is one.
  ///
  /// A popcount walk over the vector's words, from the end nearer the zero, then a select in the
  /// word that holds it: one call of `calldir_select_zero_nearer`, which counts with POPCNT where
  /// the processor has it (the walk is most of a warm lookup's work) and reads no byte past the
  /// vector. The vector's zeros are its bits less its `count` ones (a valid block's); bytes with
  /// another count of ones give some zero's position or `nil`, as any damaged block's do.
  @inlinable @inline(__always)
  package func positionOfZero(_ rank: UInt64) -> Int? {
    guard let base = unsafe high.base else { return nil }
    let zeros = UInt64(high.count) &* 8 &- UInt64(min(max(count, 0), high.count &* 8))
    let position = unsafe calldir_select_zero_nearer(base, high.count, rank, zeros)
    return position < 0 ? nil : Int(position)
  }

  /// The position of the set bit of 0-based rank `rank` in `bits`.
  /// Precondition: `rank < bits.nonzeroBitCount`.
  @inline(__always) @usableFromInline
  package static func select(_ rank: UInt64, in bits: UInt64) -> Int {
    Int(calldir_select(bits, rank))  // with POPCNT where the processor has it (CProcessor says why)
  }
}
