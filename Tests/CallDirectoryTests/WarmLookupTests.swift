import CallDirectory
import CallDirectoryFormat
import Testing

@testable import CallDirectoryReader

/// A lookup's second visit to a block takes the quick path (the block's frame read again in
/// place, no checked views), its first the checked one: both must give the model's answers, for
/// every codec path (raw and deflated blocks, ranges, labels, one-entry blocks, the extremes).
@Suite struct WarmLookupTests {
  /// A seeded list: sparse runs and runs of consecutive numbers (which deflate), ranges of
  /// both kinds, labels shared Zipf-like, and the numbers at the top of the Int64 range.
  struct Model {
    var blocked: Set<Int64> = []
    var blockedRanges: [ClosedRange<Int64>] = []
    var labels: [Int64: String] = [:]
    var labelledRanges: [(ClosedRange<Int64>, String)] = []
    var probes: [Int64] = []

    init(seed: UInt64) {
      var random = SeededGenerator(seed: seed)
      var next: Int64 = 1 + Int64(random.next() % 1_000)
      for run in 0..<40 {
        // Two runs of consecutive blocked numbers, long enough to fill 512-entry blocks whose
        // payloads deflate to under half; the other runs sparse, blocked and labelled.
        if run % 20 == 0 {
          for _ in 0..<1_100 {
            next += 1
            blocked.insert(next)
          }
        }
        for _ in 0..<Int(random.next() % 300) {
          next += 1 + Int64(random.next() % 5_000_000)
          if random.next() % 2 == 0 {
            blocked.insert(next)
          } else {
            labels[next] = "label \(Int((Double(random.next() % 1_000) / 37).squareRoot()))"
          }
        }
        next += Int64(random.next() % 10_000_000_000)
        // A range of each kind past the singles, so that no single falls inside one.
        let length = Int64(random.next() % 1_000)
        if run % 2 == 0 {
          blockedRanges.append(next...next + length)
        } else {
          labelledRanges.append((next...next + length, "range \(run % 5)"))
        }
        next += length + 1
      }
      for extreme in [Int64.max - 3, Int64.max - 1] { blocked.insert(extreme) }
      labels[Int64.max - 2] = "top"
      let known: [Int64] = Array(blocked) + Array(labels.keys)
      let ranges: [ClosedRange<Int64>] = blockedRanges + labelledRanges.map(\.0)
      probes = known.flatMap { [$0 - 1, $0, $0 + 1] }
      probes += ranges.flatMap { [$0.lowerBound - 1, $0.lowerBound, $0.upperBound, $0.upperBound + 1] }
      probes += (0..<2_000).map { _ in Int64(random.next() >> 1) }
      probes += [0, 1, -1, Int64.min, Int64.max]
      probes.shuffle(using: &random)
    }

    func isBlocked(_ number: Int64) -> Bool {
      blocked.contains(number) || blockedRanges.contains { $0.contains(number) }
    }

    func label(for number: Int64) -> String? {
      labels[number] ?? labelledRanges.first { $0.0.contains(number) }?.1
    }

    func encoded(entriesPerBlock: Int) throws -> [UInt8] {
      var options = DirectoryBuilder.Options()
      options.entriesPerBlock = entriesPerBlock
      var builder = DirectoryBuilder(options: options)
      for number in blocked { try builder.block(number) }
      for range in blockedRanges { try builder.block(range) }
      for (number, label) in labels { try builder.identify(number, label: label) }
      for (range, label) in labelledRanges { try builder.identify(range, label: label) }
      return try builder.encoded()
    }
  }

  @Test(arguments: [(1, 1), (2, 2), (3, 7), (4, 64), (5, 512)])
  func everyVisitAgreesWithTheModel(seed: UInt64, entriesPerBlock: Int) throws {
    let model = Model(seed: seed)
    let reader = try CallDirectoryReader(bytes: try model.encoded(entriesPerBlock: entriesPerBlock))
    if entriesPerBlock == 512 {
      // The deflated path is exercised: some blocking block is stored deflated.
      let layout = reader.layout
      let deflated = try (0..<layout.blockingIndex.blockCount).count {
        try layout.entryBlock(.blocking, $0).block.codec == .deflate
      }
      #expect(deflated > 0)
    }
    // Three passes: the first lands on most blocks for the first time, the later ones find them passed.
    for _ in 0..<3 {
      for number in model.probes {
        #expect(try reader.isBlocked(number) == model.isBlocked(number), "\(number)")
        #expect(try reader.label(for: number) == model.label(for: number), "\(number)")
      }
    }
  }

  /// The quick path reads only blocks that have passed: damage in a block the lookups have not
  /// visited is found by the checked path however warm the others are, and found again on every
  /// later lookup that lands on it.
  @Test func damageInAnUnvisitedBlockIsFoundEveryTime() throws {
    let numbers = (0..<2_000).map { 12_025_550_000 + Int64($0) * 7_919 }
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 64
    var builder = DirectoryBuilder(options: options)
    for number in numbers { try builder.block(number) }
    var bytes = try builder.encoded()
    let file = try CraftedFile(bytes)
    let blocks = file.blockRanges(.blocking)
    bytes[file.offset(of: .blockingData) + blocks[20].lowerBound + 9] ^= 0x10
    let reader = try CallDirectoryReader(bytes: bytes)
    for _ in 0..<2 {
      for number in numbers.prefix(640) { #expect(try reader.isBlocked(number)) }
    }
    for number in numbers[20 * 64..<21 * 64] {
      #expect {
        try reader.isBlocked(number)
      } throws: { error in
        guard let error = error as? FormatError, case .blockChecksumMismatch(let block, _, _) = error.kind else { return false }
        return block == 20
      }
    }
    #expect(try reader.isBlocked(numbers[21 * 64]))
  }

  /// `EliasFanoView.select` against counting bits one at a time, over seeded words of every
  /// density, and the zero search over high vectors of every length against a naive scan.
  @Test func selectAndZeroSearchAgreeWithCounting() {
    var random = SeededGenerator(seed: 77)
    for round in 0..<20_000 {
      var bits = random.next()
      if round % 3 == 1 { bits &= random.next() & random.next() }  // sparse
      if round % 3 == 2 { bits |= random.next() | random.next() }  // dense
      if round == 0 { bits = .max }
      if round == 1 { bits = 1 << 63 }
      let positions = (0..<64).filter { bits >> UInt64($0) & 1 == 1 }
      for (rank, position) in positions.enumerated() {
        #expect(EliasFanoView.select(UInt64(rank), in: bits) == position)
      }
    }
    // The search walks from the nearer end: every rank of vectors of every length, sparse and
    // dense, from the start and from the end.
    for length in 0..<40 {
      for density in 0..<3 {
        let high = (0..<length).map { _ in
          let word = density == 0 ? random.next() & random.next() : density == 1 ? random.next() : random.next() | random.next()
          return UInt8(truncatingIfNeeded: word)
        }
        let zeros = (0..<length * 8).filter { high[$0 >> 3] >> UInt8($0 & 7) & 1 == 0 }
        unsafe high.withUnsafeBytes { raw in
          let view = EliasFanoView(count: length * 8 - zeros.count, lowBits: 0, low: ByteView(), high: unsafe ByteView(raw))
          for rank in 0..<zeros.count + 3 {
            #expect(view.positionOfZero(UInt64(rank)) == (rank < zeros.count ? zeros[rank] : nil), "\(length) \(rank)")
          }
        }
      }
    }
  }

  /// A count of ones the bytes do not have (a damaged block's) makes the search answer some
  /// zero's position or nothing, from either end, never a position outside the vector.
  @Test func aWrongCountOfOnesGivesSomeZeroOrNothing() {
    var random = SeededGenerator(seed: 78)
    for length in [1, 7, 8, 9, 16, 33] {
      let high = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let zeros = Set((0..<length * 8).filter { high[$0 >> 3] >> UInt8($0 & 7) & 1 == 0 })
      unsafe high.withUnsafeBytes { raw in
        for claimed in [-5, 0, 1, length * 4, length * 8, length * 8 + 9, Int.max] {
          let view = EliasFanoView(count: claimed, lowBits: 0, low: ByteView(), high: unsafe ByteView(raw))
          for rank in [0, 1, length * 2, length * 4 - 1, length * 8, Int(UInt32.max)] {
            if let position = view.positionOfZero(UInt64(rank)) {
              #expect(zeros.contains(position), "\(length) \(claimed) \(rank): \(position)")
            }
          }
        }
      }
    }
  }
}
