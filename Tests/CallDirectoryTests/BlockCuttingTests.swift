import CallDirectory
import Testing

@testable import CallDirectoryWriter

/// Version 2 blocks of 1 ... B entries (`Spec/FORMAT.md`, sections 5 and 12): where the canonical
/// writer ends a block early, and that every such block reads back through every path.
@Suite struct BlockCuttingTests {
  /// The entry counts of `kind`'s blocks, from the index records.
  private func counts(_ reader: CallDirectoryReader, _ kind: EntryKind = .blocking) throws -> [Int] {
    let index = reader.layout.index(kind)
    return try (0..<index.blockCount).map { try index.entryCount(ofBlock: $0) }
  }

  private func reader(_ numbers: [Int64], entriesPerBlock: Int = 512) throws -> CallDirectoryReader {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    return try CallDirectoryReader(bytes: try Contents(blocking: numbers).encoded(options: options))
  }

  @Test func theRuleOnItsEdges() {
    // 16 entries with a mean gap of 10: a gap ends the block once a 64th of it exceeds 10.
    let first: Int64 = 1_000
    let last: Int64 = 1_150
    #expect(!EntrySectionWriter.endsBlock(first: first, last: last, count: 16, next: last + 64 * 11 - 1))
    #expect(EntrySectionWriter.endsBlock(first: first, last: last, count: 16, next: last + 64 * 11))
    // Fewer than 16 entries never end at a gap, however wide.
    #expect(!EntrySectionWriter.endsBlock(first: 1, last: 15, count: 15, next: Limits.maximumNumber))
    // The widest gap and the widest span the domain allows do not overflow.
    #expect(EntrySectionWriter.endsBlock(first: 1, last: 16, count: 16, next: Limits.maximumNumber))
    #expect(!EntrySectionWriter.endsBlock(first: 1, last: Limits.maximumNumber - 1, count: 16, next: Limits.maximumNumber))
  }

  /// The rule as the writer computes it (a product, no division) is the rule as section 12
  /// states it, `floor(gap / 64) > floor(span / (m - 1))`.
  @Test func theRuleAgreesWithItsStatement() {
    var random = SeededGenerator(seed: 0x6A9)
    for _ in 0..<50_000 {
      let count = Int.random(in: 16...4096, using: &random)
      let first = Int64.random(in: 1...(Limits.maximumNumber / 2), using: &random)
      let span =
        Int64.random(in: Int64(count - 1)...(Limits.maximumNumber / 4), using: &random)
        >> Int64.random(in: 0...60, using: &random)
      let last = first + max(span, Int64(count - 1))
      let gap = Int64.random(in: 1...(Limits.maximumNumber - last), using: &random) >> Int64.random(in: 0...62, using: &random)
      let next = last + max(gap, 1)
      let stated = UInt64(next - last) / 64 > UInt64(last - first) / UInt64(count - 1)
      #expect(EntrySectionWriter.endsBlock(first: first, last: last, count: count, next: next) == stated)
    }
  }

  @Test func aWideGapEndsABlockAndTheNextStartsAfterIt() throws {
    let near = (0..<40).map { 12_025_550_000 + Int64($0) * 10 }
    let far = (0..<40).map { 442_079_460_000 + Int64($0) * 10 }
    let reader = try reader(near + far)
    #expect(try counts(reader) == [40, 40])
    #expect(reader.layout.blockingIndex.firstNumber(ofBlock: 1) == UInt64(far[0]))
    for number in near + far { #expect(try reader.isBlocked(number)) }
    for number in [near[39] + 1, far[0] - 1, far[39] + 1] { #expect(try !reader.isBlocked(number)) }
  }

  /// Area codes, random lines, the Int64 extremes, single far numbers (blocks of one entry between
  /// wide gaps are possible only after 16 entries), dense runs: every path reads the same numbers,
  /// and no block is over B or empty.
  @Test(arguments: [1, 2, 16, 17, 512, 4096])
  func clusteredNumbersRoundTrip(entriesPerBlock: Int) throws {
    var random = SeededGenerator(seed: 0xB10C_C075 &+ UInt64(entriesPerBlock))
    var numbers = Set<Int64>([1, 2, Limits.maximumNumber - 1, Limits.maximumNumber])
    for area in [201, 212, 415, 999] as [Int64] {
      for _ in 0..<300 { numbers.insert(10_000_000_000 + area * 10_000_000 + Int64.random(in: 0..<10_000_000, using: &random)) }
    }
    for start in [33_100_000_000, 44_700_000_000] as [Int64] { numbers.formUnion(start..<(start + 200)) }
    for _ in 0..<20 { numbers.insert(Int64.random(in: 100_000_000_000_000...999_999_999_999_999, using: &random)) }
    let sorted = numbers.sorted()
    let reader = try reader(sorted, entriesPerBlock: entriesPerBlock)
    let blockCounts = try counts(reader)
    #expect(blockCounts.allSatisfy { $0 >= 1 && $0 <= entriesPerBlock })
    #expect(blockCounts.reduce(0, +) == sorted.count)
    if entriesPerBlock >= 512 { #expect(blockCounts.count > sorted.count / entriesPerBlock + 1, "some block ended at a gap") }
    var streamed: [Int64] = []
    try reader.forEachBlocking { streamed.append($0) }
    #expect(streamed == sorted)
    for number in sorted { #expect(try reader.isBlocked(number)) }
    #expect(Verifier.verify(try Contents(blocking: sorted).encoded()).problems == [])
  }

  @Test func aStreamRefusesCountsThatDoNotAddUpToTheTotal() throws {
    var file = try CraftedFile(try Contents(blocking: [12_025_550_100, 12_025_550_142]).encoded())
    file.patch(.blockingIndex, at: 0, uint64: 3)
    let reader = try CallDirectoryReader(bytes: file.bytes)
    var cursor = reader.cursor(.blocking)
    #expect(try cursor.next()?.number == 12_025_550_100)
    #expect(try cursor.next()?.number == 12_025_550_142)
    // The index says 3 entries; its blocks hold 2: the stream finds it when it reaches the end.
    let error = formatError { try cursor.next() }
    #expect(error?.kind.isMalformedIndex == true && error?.section == "BIDX", "\(String(describing: error))")
  }
}
