import CallDirectoryFormat
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The search inside an entry block (`EliasFanoView.find`, compiled with POPCNT where the
/// processor has it) against a naive search of the offsets, and over arbitrary bytes laid against
/// a page the process may not read.
@Suite struct EliasFanoSearchTests {
  /// Ascending numbers from 1: runs of one gap size, some of them long runs of small gaps that put
  /// dozens of offsets in one high part (the halving), some huge gaps (high parts far apart).
  private func numbers(count: Int, using random: inout SeededGenerator) -> [Int64] {
    var values: [Int64] = [1 + Int64(random.next() % 1_000)]
    while values.count < count {
      let shape = random.next() % 4
      let gap: UInt64 = shape == 0 ? 1 + random.next() % 3 : shape == 1 ? 1 + random.next() % 5_000 : 1 + random.next() % 100
      let run = 1 + Int(random.next() % 90)
      for _ in 0..<min(run, count - values.count) {
        values.append(values[values.count - 1] + Int64(gap))
      }
      if random.next() % 50 == 0 && values.count < count {
        values.append(values[values.count - 1] + Int64(random.next() % (1 << 40)) + 1)  // a huge gap
      }
    }
    return values
  }

  @Test func findAgreesWithANaiveSearch() {
    var random = SeededGenerator(seed: 0xEF5E)
    for round in 0..<300 {
      let count = [1, 2, 3, 63, 64, 65, 200, 512][round % 8]
      let values = numbers(count: count, using: &random)
      let offsets = values.dropFirst().map { UInt64($0 - values[0]) }
      let encoded = EliasFano.encode(values[...])
      let position = Dictionary(uniqueKeysWithValues: offsets.enumerated().map { ($1, $0 + 1) })
      var targets: [UInt64] = [1, 2, 3, UInt64(Int64.max), (offsets.last ?? 0) + 1]
      for offset in offsets { targets += [offset, offset - 1, offset + 1] }
      for _ in 0..<64 { targets.append(random.next() % ((offsets.last ?? 1) * 2 + 2)) }
      unsafe encoded.low.withUnsafeBytes { low in
        unsafe encoded.high.withUnsafeBytes { high in
          let view = EliasFanoView(
            count: offsets.count, lowBits: encoded.lowBits, low: unsafe ByteView(low), high: unsafe ByteView(high))
          for target in targets where target > 0 {
            #expect(view.find(target) == position[target], "round \(round): \(count) numbers, target \(target)")
          }
        }
      }
    }
  }

  /// Arbitrary high and low bytes, claimed counts and widths, each part ending where an
  /// unreadable page begins: a read past either part would stop the process. Answers are an index
  /// the claimed count allows, or none.
  @Test func findOverArbitraryBytesReadsNothingPastThem() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    // Two readable pages, each followed by one the process may not read.
    guard let mapping = unsafe mmap(nil, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      unsafe mapping != MAP_FAILED
    else { throw POSIXFailure(call: "mmap") }
    defer { unsafe _ = munmap(mapping, 4 * page) }
    #expect(unsafe mprotect(mapping + page, page, PROT_NONE) == 0)
    #expect(unsafe mprotect(mapping + 3 * page, page, PROT_NONE) == 0)
    var random = SeededGenerator(seed: 0xBAD5)
    for round in 0..<4_000 {
      let lowLength = Int(random.next() % 80)
      let highLength = Int(random.next() % 80)
      let low = unsafe UnsafeMutableRawPointer(mapping + page - lowLength)
      let high = unsafe UnsafeMutableRawPointer(mapping + 3 * page - highLength)
      let density = random.next() % 3
      for index in 0..<lowLength {
        unsafe low.storeBytes(of: UInt8(truncatingIfNeeded: random.next()), toByteOffset: index, as: UInt8.self)
      }
      for index in 0..<highLength {
        var byte = random.next()
        if density == 0 { byte |= random.next() }  // mostly ones: long runs
        if density == 1 { byte &= random.next() }  // mostly zeros
        unsafe high.storeBytes(of: UInt8(truncatingIfNeeded: byte), toByteOffset: index, as: UInt8.self)
      }
      let count = [0, 1, highLength * 4, highLength * 8, highLength * 8 + 5, Int(random.next() % 700)][round % 6]
      let lowBits = Int(random.next() % 63)
      let view = EliasFanoView(
        count: count, lowBits: lowBits, low: unsafe ByteView(UnsafeRawBufferPointer(start: low, count: lowLength)),
        high: unsafe ByteView(UnsafeRawBufferPointer(start: high, count: highLength)))
      for _ in 0..<16 {
        let target = random.next() >> (random.next() % 64)
        if let found = view.find(target) { #expect(found >= 1 && found <= count, "round \(round): \(found) of \(count)") }
      }
    }
  }
}

/// A system call the test needed failed.
private struct POSIXFailure: Error {
  var call: String
}
