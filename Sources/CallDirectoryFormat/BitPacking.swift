/// Fixed-width bit fields, packed least-significant bit first (`Spec/FORMAT.md`, "Conventions").
///
/// Field `i` of width `w` occupies bits `i*w ..< (i+1)*w` of the region, where bit `k` is bit
/// `k % 8` of byte `k / 8`. Widths are at most 64 bits.
@usableFromInline package enum BitPacking {
  /// The bytes needed for `count` fields of `width` bits: `ceil(count * width / 8)`.
  /// Precondition: the product fits in `Int` (callers bound both factors).
  @inlinable
  package static func byteCount(count: Int, width: Int) -> Int {
    (count * width + 7) / 8
  }

  /// Reads the field of `width` bits (0 ... 64) starting at bit `bitOffset` of `bytes`.
  ///
  /// Bytes past the end of `bytes` read as zero, so a hostile offset yields a wrong value and
  /// never a read outside the view.
  /// - Complexity: O(1).
  @inlinable
  package static func field(_ bytes: ByteView, bitOffset: Int, width: Int) -> UInt64 {
    if width == 0 { return 0 }
    let byte = bitOffset >> 3
    let shift = UInt64(bitOffset & 7)
    var value = bytes.wordLE(at: byte) >> shift
    if UInt64(width) &+ shift > 64 {  // the field runs into a ninth byte
      value |= UInt64(bytes.wordLE(at: byte &+ 8)) << (64 &- shift)
    }
    return width == 64 ? value : value & ((1 << UInt64(width)) &- 1)
  }

  /// Calls `body(i, field)` for fields `i` = 0 ..< `count` of `width` bits (1 ... 56) of `bytes`.
  ///
  /// A field of at most 56 bits at a bit offset of at most 7 lies in one eight-byte read. Fields
  /// whose read ends inside `bytes` (all but the last few) are read without a check; the rest go
  /// through `wordLE`, which reads bytes past the end as zero. This is the one loop that the
  /// decoders of low parts and label ids share.
  /// - Complexity: O(count), one read a field.
  @inline(__always)
  static func forEachField(in bytes: ByteView, width: Int, count: Int, _ body: (Int, UInt64) -> Void) {
    assert(width >= 1 && width <= 56 && count >= 0)
    let mask = (UInt64(1) << UInt64(width)) &- 1
    // Field i starts in byte (i * width) >> 3; its read fits while that byte is at most
    // `bytes.count - 8`, that is for i < ceil(8 * (bytes.count - 7) / width).
    let readable = bytes.count &- 7
    let unchecked = readable <= 0 ? 0 : min(count, (readable &* 8 &+ width &- 1) / width)
    var bit = 0
    for index in 0..<unchecked {
      body(index, (unsafe bytes.uncheckedUInt64LE(at: bit >> 3) >> UInt64(bit & 7)) & mask)
      bit &+= width
    }
    for index in unchecked..<max(unchecked, count) {
      body(index, (bytes.wordLE(at: bit >> 3) >> UInt64(bit & 7)) & mask)
      bit &+= width
    }
  }

  /// Appends fields of `width` bits to a packed byte array.
  ///
  /// Bits gather in a 64-bit word that goes to the array when full, so a field costs a shift and
  /// an OR rather than a loop over its bytes.
  @usableFromInline package struct Writer {
    private var words: [UInt64] = []
    /// The bits after `words`, first bit lowest; `pendingBits` of them, fewer than 64.
    private var pending: UInt64 = 0
    private var pendingBits = 0

    /// An empty writer.
    @usableFromInline package init() {}

    /// The packed bytes so far; the last byte may be partly filled. O(bytes): read it once, at the end.
    @usableFromInline package var bytes: [UInt8] {
      let whole = words.count &* 8
      var bytes = [UInt8](repeating: 0, count: whole &+ (pendingBits &+ 7) >> 3)
      unsafe bytes.withUnsafeMutableBytes { raw in
        for (index, word) in words.enumerated() {
          unsafe raw.storeBytes(of: word.littleEndian, toByteOffset: index &* 8, as: UInt64.self)  // index < words.count
        }
        var rest = pending
        for offset in whole..<raw.count {
          unsafe raw[offset] = UInt8(truncatingIfNeeded: rest)
          rest >>= 8
        }
      }
      return bytes
    }

    /// Appends the low `width` bits (0 ... 64) of `value`.
    @usableFromInline package mutating func append(_ value: UInt64, width: Int) {
      precondition(width >= 0 && width <= 64, "a field is 0 ... 64 bits")
      let field = width == 64 ? value : value & ((1 &<< UInt64(width)) &- 1)
      pending |= field &<< UInt64(pendingBits)  // pendingBits < 64
      let room = 64 &- pendingBits
      guard width >= room else {
        pendingBits &+= width
        return
      }
      // The word is full: the field's first `room` bits completed it, the rest start the next.
      words.append(pending)
      pending = room == 64 ? 0 : field >> UInt64(room)
      pendingBits = width &- room
    }

    /// Appends `count` zero bits.
    @usableFromInline package mutating func appendZeros(_ count: Int) {
      var remaining = count
      while remaining > 0 {
        let take = min(remaining, 64 &- pendingBits)
        pendingBits &+= take
        remaining &-= take
        if pendingBits == 64 {
          words.append(pending)
          pending = 0
          pendingBits = 0
        }
      }
    }
  }
}

extension UInt64 {
  /// The number of bits needed to write `self`: 0 for 0, else `64 - leadingZeroBitCount`.
  @inlinable
  package var significantBitCount: Int { 64 - leadingZeroBitCount }
}
