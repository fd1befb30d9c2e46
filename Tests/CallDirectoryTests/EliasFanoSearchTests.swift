import CProcessor
import CallDirectoryFormat
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The search inside an entry or range block (`EliasFanoView.rank(of:)`, compiled with POPCNT where the
/// processor has it) against a naive search of the offsets, and over arbitrary bytes laid against
/// a page the process may not read.
@Suite struct EliasFanoSearchTests {
  typealias Search =
    @convention(c) (
      UnsafeRawPointer?, Int, UnsafeRawPointer?, Int, Int64, UInt32, UInt64
    ) -> UInt64

  /// Each compilation of the search this processor can run, by name: a process uses one (CPUID
  /// chooses), so the others are called by name here.
  static var searches: [(String, Search)] {
    #if arch(x86_64)
      unsafe compilations(calldir_elias_fano_rank_portable, calldir_elias_fano_rank_popcnt, calldir_elias_fano_rank_bmi2)
    #else
      unsafe compilations(calldir_elias_fano_rank_portable)
    #endif
  }

  /// The compilations of one CProcessor function this processor can run, by name: the portable
  /// one, then on x86-64 those for POPCNT and BMI2 when CPUID says the processor has them.
  static func compilations<Function>(_ portable: Function, _ popcnt: Function? = nil, _ bmi2: Function? = nil)
    -> [(String, Function)]
  {
    var compilations = [("portable", portable)]
    #if arch(x86_64)
      let level = Int(calldir_level())
      if level >= CALLDIR_LEVEL_POPCNT, let popcnt { compilations.append(("popcnt", popcnt)) }
      if level >= CALLDIR_LEVEL_BMI2, let bmi2 { compilations.append(("bmi2", bmi2)) }
    #endif
    return compilations
  }

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
            // The naive rank: the offsets below the target, and whether the next equals it.
            let below = offsets.count { $0 < target }
            let equal = below < offsets.count && offsets[below] == target
            let atMost = view.count(atMost: target)
            #expect(atMost.count == below + (equal ? 1 : 0) && atMost.equal == equal, "round \(round): target \(target)")
            for unsafe(name, search) in unsafe Self.searches {
              let rank = unsafe search(
                low.baseAddress, low.count, high.baseAddress, high.count, Int64(offsets.count), UInt32(encoded.lowBits), target)
              #expect(rank == UInt64(below) << 1 | (equal ? 1 : 0), "\(name), round \(round): target \(target)")
            }
          }
        }
      }
    }
  }

  /// Each compilation of the select of one bit of a word against counting bits one at a time, and
  /// of the zero search against a naive scan (the searches above use whichever the processor runs).
  @Test func everyCompilationOfTheSelectsAgreesWithCounting() {
    typealias Select = @convention(c) (UInt64, UInt64) -> Int32
    typealias ZeroSearch = @convention(c) (UnsafeRawPointer?, Int, UInt64) -> Int64
    var selects: [(String, Select, ZeroSearch, ZeroSearch)] = unsafe [
      ("portable", calldir_select_portable, calldir_select_zero_portable, calldir_select_zero_backward_portable)
    ]
    #if arch(x86_64)
      let level = Int(calldir_level())
      if level >= CALLDIR_LEVEL_POPCNT {
        unsafe selects.append(("popcnt", calldir_select_popcnt, calldir_select_zero_popcnt, calldir_select_zero_backward_popcnt))
      }
      if level >= CALLDIR_LEVEL_BMI2 {
        unsafe selects.append(("bmi2", calldir_select_bmi2, calldir_select_zero_bmi2, calldir_select_zero_backward_bmi2))
      }
    #endif
    var random = SeededGenerator(seed: 0x5E1E)
    for round in 0..<5_000 {
      var bits = random.next()
      if round % 3 == 1 { bits &= random.next() & random.next() }
      if round % 3 == 2 { bits |= random.next() | random.next() }
      let positions = (0..<64).filter { bits >> UInt64($0) & 1 == 1 }
      for unsafe(name, select, _, _) in unsafe selects {
        for (rank, position) in positions.enumerated() {
          #expect(select(bits, UInt64(rank)) == Int32(position), "\(name): \(bits) rank \(rank)")
        }
        if positions.count < 64 {  // a rank past the ones (below 64) has no position
          #expect(select(bits, UInt64(positions.count)) == 64, "\(name): \(bits) past its ones")
        }
      }
    }
    for length in 0..<24 {
      let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let zeros = (0..<length * 8).filter { bytes[$0 >> 3] >> UInt8($0 & 7) & 1 == 0 }
      unsafe bytes.withUnsafeBytes { raw in
        for unsafe(name, _, forward, backward) in unsafe selects {
          for rank in 0..<zeros.count + 2 {
            let expected = rank < zeros.count ? Int64(zeros[rank]) : -1
            #expect(unsafe forward(raw.baseAddress, length, UInt64(rank)) == expected, "\(name) \(length) \(rank)")
            let fromEnd = rank < zeros.count ? Int64(zeros[zeros.count - 1 - rank]) : -1
            #expect(unsafe backward(raw.baseAddress, length, UInt64(rank)) == fromEnd, "\(name) back \(length) \(rank)")
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
        for unsafe(name, search) in unsafe Self.searches {
          let rank = unsafe search(low, lowLength, high, highLength, Int64(count), UInt32(lowBits), target)
          #expect(rank >> 1 <= UInt64(count), "\(name), round \(round): \(rank >> 1) of \(count)")
        }
      }
    }
  }
}

/// A system call the test needed failed.
private struct POSIXFailure: Error {
  var call: String
}
