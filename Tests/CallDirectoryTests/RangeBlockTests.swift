import CallDirectory
import Foundation
import Testing

/// Range blocks (`Spec/FORMAT.md` section 10.1): the writer's choice between records and blocks,
/// lookups at every boundary against the ranges given, and the edges of the code.
@Suite struct RangeBlockTests {
  /// Disjoint random ranges of random widths (two numbers or more), ascending from `start`.
  static func ranges(count: Int, start: Int64, seed: UInt64) -> [ClosedRange<Int64>] {
    var rng = SeededGenerator(seed: seed)
    var next = start
    return (0..<count).map { _ in
      let first = next + Int64.random(in: 2...5_000, using: &rng)
      let last = first + Int64.random(in: 1...(Int64(1) << Int64.random(in: 1...20, using: &rng)), using: &rng)
      next = last
      return first...last
    }
  }

  /// Every count around a block's 128 ranges, both kinds: the file holds the kind's ranges in
  /// blocks once they are shorter than records, and every range's ends, and the numbers next to
  /// them, answer as the ranges say.
  @Test(arguments: [1, 2, 3, 127, 128, 129, 256, 300, 1_000])
  func boundariesAnswer(count: Int) throws {
    let blocking = Self.ranges(count: count, start: 33_100_000_000, seed: UInt64(count))
    let identifying = Self.ranges(count: count, start: 44_100_000_000, seed: UInt64(count) &+ 99)
    var builder = DirectoryBuilder()
    for range in blocking { try builder.block(range) }
    for (position, range) in identifying.enumerated() { try builder.identify(range, label: "L\(position % 5)") }
    let bytes = try builder.encoded()
    let reader = try CallDirectoryReader(bytes: bytes)
    // Records cost 16 or 24 bytes a range, blocks a few bytes and 32 of index and frame a block.
    #expect((reader.layout.ranges(.blocking).blocks != nil) == (count >= 3), "\(count)")
    #expect(reader.version.minor == (count >= 2 ? 2 : 0), "\(count)")
    for range in blocking {
      for number in [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1] {
        #expect(try reader.isBlocked(number) == blocking.contains { $0.contains(number) }, "+\(number)")
      }
    }
    for (position, range) in identifying.enumerated() {
      #expect(try reader.label(for: range.lowerBound) == "L\(position % 5)")
      #expect(try reader.label(for: range.upperBound) == "L\(position % 5)")
      #expect(try reader.label(for: range.upperBound + 1) == nil)
    }
    #expect(Verifier.verify(bytes).isValid)
    #expect(try RangeTests.ranges(reader).blocking == blocking)
    #expect(try NestingTests.repacked(reader) == bytes)
  }

  /// The widest ranges the format holds, at both ends of the numbers (in records: blocks would
  /// be longer), and 300 ranges that end at the largest number (in blocks).
  @Test func extremes() throws {
    let ranges: [ClosedRange<Int64>] = [
      1...2, 4...(Int64.max / 2), (Int64.max / 2 + 2)...(Int64.max - 3), (Int64.max - 2)...(Int64.max - 1),
    ]
    let top: [ClosedRange<Int64>] = (0..<300).reversed().map {
      (Int64.max - 1 - Int64($0) * 10 - 5)...(Int64.max - 1 - Int64($0) * 10)
    }
    for (given, inBlocks) in [(ranges, false), (top, true)] {
      var builder = DirectoryBuilder()
      for range in given { try builder.identify(range, label: "Edge") }
      try builder.identify(3, label: "Single")
      let bytes = try builder.encoded()
      let reader = try CallDirectoryReader(bytes: bytes)
      #expect((reader.layout.ranges(.identification).blocks != nil) == inBlocks)
      let probes: [Int64] =
        given.flatMap { (range: ClosedRange<Int64>) -> [Int64] in [range.lowerBound - 1, range.lowerBound, range.upperBound] } + [
          3, Int64.max - 1,
        ]
      for number in probes {
        let expected: String? = number == 3 ? "Single" : given.contains { $0.contains(number) } ? "Edge" : nil
        #expect(try reader.label(for: number) == expected, "+\(number)")
      }
      #expect(Verifier.verify(bytes).isValid)
    }
  }

  /// A real range list: the French telemarketing ranges take less than half their records.
  @Test func realRangesShrink() throws {
    let reader = try RealDataTests.telemarketing()
    let blocks = try #require(reader.shape.blockingRanges.blocks)
    let records = 8 + 16 * reader.blockingRangeCount
    #expect(blocks.index.records.count + 16 + blocks.data.count < records / 2)
  }
}
