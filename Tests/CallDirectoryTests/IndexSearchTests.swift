import CallDirectoryFormat
import Testing

/// The halving search of the index levels (`ByteView.uncheckedLastKey`, `calldir_last_at_most` in
/// C) against a naive scan: keys 8 bytes apart (a top's samples) and 16 (an index's records, a
/// record's other fields between them), with and without the prefetching steps.
@Suite struct IndexSearchTests {
  /// `keys` laid `stride` bytes apart, the bytes between them arbitrary.
  private func laid(_ keys: [UInt64], stride: Int, using random: inout SeededGenerator) -> [UInt8] {
    var bytes: [UInt8] = []
    for key in keys {
      unsafe withUnsafeBytes(of: key.littleEndian) { unsafe bytes += $0 }
      for _ in 8..<stride { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
    }
    return bytes
  }

  @Test(arguments: [8, 16])
  func theLastKeyAtMostANumberAgreesWithAScan(stride: Int) {
    var random = SeededGenerator(seed: 0x1D5E + UInt64(stride))
    for round in 0..<400 {
      // Beyond 2^15 keys the search loops before its unrolled steps: one round of 70,000.
      let count = round == 11 ? 70_000 : [1, 2, 3, 7, 8, 9, 16, 17, 63, 64, 65, 300][round % 12]
      // Ascending keys, some at the ends of UInt64 (the search compares without a sign).
      var keys = (0..<count).map { _ in random.next() >> (random.next() % 64) }
      if round % 5 == 0 { keys[0] = 0 }
      if round % 7 == 0 { keys[count - 1] = .max }
      keys.sort()
      let bytes = laid(keys, stride: stride, using: &random)
      // The long round searches nearly all of its keys, past 2^15 of them.
      let lower = round == 11 ? 3 : Int(random.next() % UInt64(count))
      let upper = round == 11 ? count : lower + 1 + Int(random.next() % UInt64(count - lower))
      // Every key of the range and its neighbours, or about 60 of them in the long round.
      let probed = Swift.stride(from: lower, to: upper, by: max(1, (upper - lower) / 60)).map { keys[$0] }
      var numbers = [keys[lower], UInt64.max] + probed.flatMap { [$0, $0 &+ 1, $0 &- 1] }
      for _ in 0..<16 { numbers.append(random.next()) }
      unsafe bytes.withUnsafeBytes { raw in
        let view = unsafe ByteView(raw)
        for number in numbers where number >= keys[lower] {
          let expected = (lower..<upper).last { keys[$0] <= number }
          for prefetching in [false, true] {
            let found = unsafe view.uncheckedLastKey(atMost: number, in: lower..<upper, stride: stride, prefetching: prefetching)
            #expect(found == expected, "round \(round): \(lower)..<\(upper) of \(count), number \(number)")
          }
        }
      }
    }
  }

  /// Keys that do not ascend (a damaged index behind a stale check): the answer is a key of the
  /// range at most the number, never one outside it.
  @Test(arguments: [8, 16])
  func keysThatDoNotAscendGiveAKeyOfTheRange(stride: Int) {
    var random = SeededGenerator(seed: 0xBAD1 + UInt64(stride))
    for round in 0..<400 {
      let count = 1 + Int(random.next() % 130)
      let keys = (0..<count).map { _ in random.next() }
      let bytes = laid(keys, stride: stride, using: &random)
      let lower = Int(random.next() % UInt64(count))
      let upper = lower + 1 + Int(random.next() % UInt64(count - lower))
      unsafe bytes.withUnsafeBytes { raw in
        let view = unsafe ByteView(raw)
        for _ in 0..<8 {
          let number = max(random.next(), keys[lower])
          for prefetching in [false, true] {
            let found = unsafe view.uncheckedLastKey(atMost: number, in: lower..<upper, stride: stride, prefetching: prefetching)
            #expect((lower..<upper).contains(found) && keys[found] <= number, "round \(round): \(found)")
          }
        }
      }
    }
  }
}
