/// The label table's fast hash: eight bytes a step, each folded in by a 64 x 64 -> 128-bit multiply
/// whose halves are XOR-ed, keyed by a random seed.
///
/// SipHash, the standard library's hasher, costs about as much as the rest of a label lookup. A
/// multiply-and-fold hash costs a few cycles a word and mixes well, but it is not a cryptographic
/// function: the table it serves (`LabelTable`) does not rely on it alone, and moves to SipHash at
/// the first long probe.
enum LabelHash {
  /// Odd constants with mixed bits (the fractional digits of the golden ratio and of pi).
  private static let k0: UInt64 = 0x9E37_79B9_7F4A_7C15
  private static let k1: UInt64 = 0x243F_6A88_85A3_08D3

  /// A seed from the system's random source.
  static func randomSeed() -> UInt64 {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }

  /// The hash of `bytes` under `seed`.
  /// - Complexity: O(`bytes.count`).
  static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
    let count = bytes.count
    let key = seed ^ k0
    var state = seed ^ k1 ^ UInt64(truncatingIfNeeded: count)
    var offset = 0
    while offset &+ 8 <= count {
      // Inside `bytes`: `offset + 8 <= count`.
      let word = unsafe bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      state = fold(state ^ word, key)
      offset &+= 8
    }
    if offset < count {
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < count {
        tail |= UInt64(unsafe bytes[offset]) << shift
        shift &+= 8
        offset &+= 1
      }
      state = fold(state ^ tail, key)
    }
    return fold(state, key ^ k1)
  }

  /// The 128-bit product of `a` and `b`, its halves XOR-ed.
  @inline(__always)
  private static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }
}
