/// The number codec of entry blocks: Elias-Fano coding of offsets from the block's first number
/// (`Spec/FORMAT.md`, "The number code (Elias-Fano)").
///
/// A block of `m` ascending numbers `n0 < n1 < ... < n(m-1)` stores `n0` in the index and the
/// `m - 1` offsets `x(j) = n(j) - n0` (strictly ascending, all >= 1) here. Each offset is split into
/// its low `l` bits, packed at fixed width, and its high part `x(j) >> l`, written in unary: the
/// offset of entry `j` sets bit `(x(j) >> l) + (j - 1)` of the high bit vector. The result is
/// within about half a bit per entry of the information-theoretic bound for the block, and a
/// number is found with a popcount walk over the high words and a single low-bits read, without
/// decoding the block.
@usableFromInline package enum EliasFano {
  /// The low-bit width the writer uses for `count` offsets whose largest is `maximum`:
  /// `floor(log2(maximum / count))`, or 0 when `maximum < count`. It keeps the high vector under
  /// `2 * count` bits.
  @inlinable @inline(__always)
  package static func lowBits(count: Int, maximum: UInt64) -> Int {
    guard count > 0, maximum >= UInt64(count) else { return 0 }
    // The largest l with count * 2^l <= maximum, which is floor(log2(maximum / count)), without a
    // division: the writer asks for every entry it adds. count * 2^d has as many bits as
    // maximum, so it does not overflow.
    let d = maximum.significantBitCount &- UInt64(count).significantBitCount
    return UInt64(count) << UInt64(d) <= maximum ? d : d &- 1
  }

  /// The bytes `encode` makes of `count` offsets whose largest is `maximum`: the low parts and
  /// the high parts, without encoding them. O(1).
  @inlinable @inline(__always)
  package static func encodedLength(count: Int, maximum: UInt64) -> Int {
    guard count > 0 else { return 0 }
    let l = lowBits(count: count, maximum: maximum)
    // maximum < 2^63 and count <= 4095: the high vector's bit count fits.
    return BitPacking.byteCount(count: count, width: l) &+ Int((maximum >> UInt64(l) &+ UInt64(count) &+ 7) / 8)
  }

  /// The two encoded parts of a block's offsets.
  @usableFromInline package struct Encoded: Sendable {
    /// The low-bit width `l`.
    @usableFromInline package var lowBits: Int
    /// `count * l` bits, packed.
    @usableFromInline package var low: [UInt8]
    /// The unary high parts, `ceil(((max >> l) + count) / 8)` bytes.
    @usableFromInline package var high: [UInt8]
  }

  /// Encodes the offsets of `numbers` from `numbers.first`.
  ///
  /// - Precondition: `numbers` is non-empty and strictly ascending.
  /// - Complexity: O(m).
  @usableFromInline package static func encode(_ numbers: ArraySlice<Int64>) -> Encoded {
    let first = numbers[numbers.startIndex]
    let count = numbers.count - 1
    guard count > 0 else { return Encoded(lowBits: 0, low: [], high: []) }
    // Ascending numbers in 1 ... Int64.max - 1: each offset fits in 63 bits without wrapping.
    let maximum = UInt64(numbers[numbers.endIndex - 1] &- first)
    let l = lowBits(count: count, maximum: maximum)
    var low = BitPacking.Writer()
    var high = BitPacking.Writer()
    var previousHigh: UInt64 = 0
    for number in numbers.dropFirst() {
      let offset = UInt64(number &- first)
      low.append(offset, width: l)
      let highPart = offset >> UInt64(l)
      high.appendZeros(Int(highPart - previousHigh))
      high.append(1, width: 1)
      previousHigh = highPart
    }
    return Encoded(lowBits: l, low: low.bytes, high: high.bytes)
  }
}

/// A view of one block's Elias-Fano parts, for searching and decoding.
///
/// Every read is safe whatever the bytes hold: positions past the parts read as zero bits, and
/// every loop is bounded by the parts' sizes, so a damaged block could give wrong answers but
/// never a trap, a read outside the block or a hang; readers check the block's CRC before they
/// answer from it (`Spec/FORMAT.md` section 14).
@usableFromInline package struct EliasFanoView: ~Escapable, Sendable {
  /// The number of offsets (`m - 1`).
  @usableFromInline package let count: Int
  /// The low-bit width `l`, 0 ... 62.
  @usableFromInline package let lowBits: Int
  /// The packed low parts.
  @usableFromInline package let low: ByteView
  /// The unary high parts.
  @usableFromInline package let high: ByteView

  /// A view over already located parts.
  @inlinable @_lifetime(copy low, copy high)
  package init(count: Int, lowBits: Int, low: ByteView, high: ByteView) {
    self.count = count
    self.lowBits = lowBits
    self.low = low
    self.high = high
  }

  /// Decodes every offset into `numbers[1...]` as `first + offset`, and checks the encoding.
  ///
  /// Two passes over the block: the low parts are unpacked first at fixed width, then the walk
  /// over the high words (once their ones are counted) adds each high part. Each loop does one
  /// thing, so neither carries the other's branches, and the second reads the first's results
  /// from the cache.
  ///
  /// - Parameter numbers: `count + 1` numbers; entry 0 (the first number) is left as it is.
  ///   Entries the walk did not reach are unspecified when the result is not `nil`.
  /// - Returns: `nil` when the encoding is canonical, else the reason it is not: the high vector
  ///   does not hold exactly `count` ones, has bits set after the last one or is longer than
  ///   needed, or an offset is not above the one before it (or `numbers` has the wrong length).
  ///   The numbers' range is the caller's to check: they ascend, so checking the last suffices.
  ///   Additions are unsigned and wrap only past 2^64, which the check of the last one catches
  ///   since `first < 2^63` and every offset is below 2^63.
  /// - Complexity: O(count + high bytes).
  @usableFromInline package func decode(first: Int64, into numbers: inout [Int64]) -> String? {
    // The view's fields are public: a view not made from a checked block header may hold any.
    guard count >= 0, lowBits >= 0, lowBits <= FormatConstants.maximumLowBits else {
      return "\(count) offsets of \(lowBits) low bits"
    }
    guard numbers.count == count &+ 1 else { return "\(numbers.count) numbers for \(count) offsets" }
    if count == 0 { return high.count == 0 ? nil : "the high bits are longer than needed" }
    return unsafe numbers.withUnsafeMutableBufferPointer { buffer in
      // The buffer holds count + 1 words: every index below is 1 ... count.
      unsafe unpackLowParts(into: buffer)
      return unsafe addHighParts(first: UInt64(bitPattern: first), into: buffer)
    }
  }

  /// Writes the low part of offset `j` to `buffer[j]`, `j` = 1 ... count.
  /// Precondition: `buffer.count == count + 1`.
  private func unpackLowParts(into buffer: UnsafeMutableBufferPointer<Int64>) {
    guard lowBits > 0 else {
      for entry in 1...count { unsafe buffer[entry] = 0 }
      return
    }
    guard lowBits <= 56 else {  // a field may run into a ninth byte: the general read
      for entry in 1...count {
        let bits = BitPacking.field(low, bitOffset: (entry &- 1) &* lowBits, width: lowBits)
        unsafe buffer[entry] = Int64(bitPattern: bits)
      }
      return
    }
    BitPacking.forEachField(in: low, width: lowBits, count: count) { index, part in
      unsafe buffer[index &+ 1] = Int64(bitPattern: part)  // index < count
    }
  }

  /// Walks the high words and turns `buffer[j]`'s low part into `first + offset j`.
  /// Precondition: `buffer.count == count + 1`, `count >= 1`.
  private func addHighParts(first: UInt64, into buffer: UnsafeMutableBufferPointer<Int64>) -> String? {
    let count = self.count
    // The ones are counted first: with exactly `count` of them the walk stays inside `buffer`
    // without a check an entry, and the canonical end is that the last byte holds a one.
    var ones = 0
    var byte = 0
    while byte < high.count {
      ones &+= high.wordLE(at: byte).nonzeroBitCount
      byte &+= 8
    }
    guard ones <= count else { return "the high bits hold more than \(count) offsets" }
    guard ones == count else { return "the high bits hold \(ones) offsets, expected \(count)" }
    guard unsafe high.uncheckedByte(at: high.count &- 1) != 0 else { return "the high bits are longer than needed" }

    let shift = UInt64(lowBits)
    let highestHigh = (UInt64.max >> shift) >> 1  // a high part above it would overflow 63 bits
    var element = 0
    var previous: UInt64 = 0  // offsets are at least 1
    byte = 0
    let lastWhole = high.count &- 8
    while byte < high.count {
      var word = byte <= lastWhole ? unsafe high.uncheckedUInt64LE(at: byte) : high.wordLE(at: byte)
      let wordStart = byte &* 8
      while word != 0 {
        // The one's position minus the ones before it; not negative, since those come first.
        let highPart = UInt64(truncatingIfNeeded: wordStart &+ word.trailingZeroBitCount &- element)
        guard highPart <= highestHigh else { return "offset \(element + 1) overflows" }
        element &+= 1  // at most `count`: there are `count` ones
        let offset = highPart &<< shift | UInt64(bitPattern: unsafe buffer[element])
        guard offset > previous else { return "offset \(element) is not above the one before it" }
        unsafe buffer[element] = Int64(bitPattern: first &+ offset)
        previous = offset
        word &= word &- 1
      }
      byte &+= 8
    }
    return nil
  }
}
