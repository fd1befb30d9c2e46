/// A least-significant-digit radix sort of `Int64` values, for the numbers the writer sorts.
///
/// Numbers are sorted byte by byte from the lowest, each pass a stable counting sort; a byte that
/// is the same in every value (the high bytes of phone numbers, which are below 2^50) is skipped,
/// so a list of NANP numbers takes 5 passes over the data instead of the `n log n` comparisons of
/// a comparison sort, about 5 times faster here. Extra memory: one array as long as the input.
enum RadixSort {
  /// Whether `values` is in ascending order (equal neighbours allowed).
  /// - Complexity: O(n), stopping at the first value below the one before it.
  static func isAscending<Value: Comparable>(_ values: [Value]) -> Bool {
    var index = 1
    while index < values.count {
      if values[index &- 1] > values[index] { return false }
      index &+= 1
    }
    return true
  }

  /// Sorts `values` ascending (all of `Int64`'s range: the sign bit is flipped for the keys).
  /// - Complexity: O(n) per byte that varies, at most 8 passes.
  static func sort(_ values: inout [Int64]) {
    let count = values.count
    guard count > 1 else { return }
    // Input already in order (a listing as unpack writes it, a sorted feed) needs no pass: the
    // check stops at the first value out of order, so shuffled input pays almost nothing for it.
    if isAscending(values) { return }
    // One pass counts every byte position at once: counts[byte * 256 + value].
    var counts = [Int](repeating: 0, count: 8 * 256)
    unsafe counts.withUnsafeMutableBufferPointer { counts in
      for value in values {
        let key = key(value)
        // Every index is below 8 * 256: a byte position times 256 plus a byte.
        for byte in 0..<8 { unsafe counts[byte &* 256 &+ Int(truncatingIfNeeded: key >> UInt64(byte &* 8)) & 0xFF] &+= 1 }
      }
    }
    var source = values
    // `source` must own the values alone: a second reference would make the first write
    // into it, after the swap below, copy the whole array, a third buffer at the peak.
    values = []
    // Left uninitialized: the first pass that runs writes every element before any is read (a
    // pass runs, since values out of order differ in some byte).
    var target = unsafe [Int64](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    var starts = [Int](repeating: 0, count: 256)
    for byte in 0..<8 {
      let base = byte &* 256
      let shift = UInt64(byte &* 8)
      // A byte with one value in every key leaves the order as it is.
      if counts[base &+ Int(truncatingIfNeeded: key(source[0]) >> shift) & 0xFF] == count { continue }
      var total = 0
      for digit in 0..<256 {
        starts[digit] = total
        total &+= counts[base &+ digit]
      }
      unsafe starts.withUnsafeMutableBufferPointer { starts in
        unsafe target.withUnsafeMutableBufferPointer { target in
          for value in source {
            let digit = Int(truncatingIfNeeded: key(value) >> shift) & 0xFF
            // starts[digit] stays below the count of keys whose digit is at most `digit`, at most
            // `count`: the histogram counted exactly these values.
            unsafe target[starts[digit]] = value
            unsafe starts[digit] &+= 1
          }
        }
      }
      swap(&source, &target)
    }
    values = source
  }

  /// The value's bits with the sign flipped, so that unsigned order is `Int64` order.
  @inline(__always)
  private static func key(_ value: Int64) -> UInt64 {
    UInt64(bitPattern: value) ^ (1 << 63)
  }
}
