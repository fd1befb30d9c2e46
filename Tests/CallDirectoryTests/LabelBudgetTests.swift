import CallDirectory
import Foundation
import Testing

@testable import CallDirectoryCLI
@testable import CallDirectoryFormat
@testable import CallDirectoryReader

/// Labels cost what `Spec/FORMAT.md` section 13.1 says whatever they inflate to: the label cache
/// and a stream's table hold budgets in bytes, commands that show no label read none, and the
/// CallKit feed, `info`, `stats` and `unpack` stay within those budgets on a file whose labels
/// deflate to almost nothing.
@Suite struct LabelBudgetTests {
  /// The labels of the inflating file: each of the longest length, 65,534 bytes, one letter
  /// repeated and a distinguishing suffix, so each deflates to about 100 bytes and has a block of
  /// its own (the shape of the 20,000-label file, fewer of them).
  static func longLabel(_ index: Int) -> String {
    let suffix = String(index)
    return String(repeating: "A", count: 65_534 - 10) + String(repeating: "0", count: 10 - suffix.count) + suffix
  }

  /// `count` identification entries, entry `i` labelled `(i * 37) % count` so that number order
  /// meets the labels out of their order, and a range for every tenth label.
  static func inflatingContents(count: Int) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    for index in 0..<count {
      try builder.identify(Int64(33_100_000_000 + index * 3), label: longLabel(index * 37 % count))
    }
    for index in stride(from: 0, to: count, by: 10) {
      let first = Int64(34_100_000_000 + index * 1000)
      try builder.identify(first...(first + 99), label: longLabel(index))
    }
    return try builder.encoded()
  }

  static let labelCount = 120
  static let bytes: Result<[UInt8], any Error> = Result { try inflatingContents(count: labelCount) }

  static func reader() throws -> CallDirectoryReader { try CallDirectoryReader(bytes: try bytes.get()) }

  /// The file is what it should be: a few hundred bytes a label inflating to 64 KiB each, more
  /// than the default budgets hold.
  @Test func theFileInflatesAHundredfold() throws {
    let bytes = try Self.bytes.get()
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(reader.labelCount == Self.labelCount)
    #expect(reader.shape.labelIndex.blockCount == Self.labelCount)
    #expect(bytes.count < Self.labelCount * 300)
    #expect(Self.labelCount * LabelMemory.cost(ofLabelBytes: 65_534) > LabelCache.defaultBudget + RecentLabels.defaultBudget)
    #expect(Verifier.verify(bytes).isValid)
  }

  /// The cache holds at most its budget plus the block read last, in bytes, for any budget, and
  /// every label read through it is right; a budget that holds the table makes it whole.
  @Test(arguments: [0, 100_000, 1_000_000, LabelCache.defaultBudget, 1 << 30])
  func theCacheHoldsItsBudgetInBytes(budget: Int) throws {
    let seed: UInt64 = 0xB0D6E7
    var random = SeededGenerator(seed: seed)
    let reader = try Self.reader()
    let cache = LabelCache(storage: reader.storage, shape: reader.shape, budget: budget)
    for _ in 0..<(3 * Self.labelCount) {
      let id = Int.random(in: 0..<Self.labelCount, using: &random)
      #expect(try cache.label(id) == Self.longLabel(id), "seed \(seed), id \(id)")
      #expect(cache.usage.bytes <= budget + LabelMemory.maximumBlockCost)
    }
    // Loading the whole table stops as soon as it is over the budget.
    let table = Self.labelCount * LabelMemory.cost(ofLabelBytes: 65_534)
    #expect(try cache.loadWhole().count == (table > budget ? 0 : Self.labelCount))
    #expect(cache.whole().isEmpty == (table > budget))
    #expect(cache.usage.peak <= min(table, budget + LabelMemory.maximumBlockCost))
    #expect(cache.usage.peak >= min(table, budget))
  }

  /// A stream's own table holds labels costing at most its budget (or one block, when a block
  /// costs more), whatever the number of slots, and its count of what it holds is exact.
  @Test(arguments: [0, 300_000, RecentLabels.defaultBudget], [1, 1 << 16])
  func aStreamTableHoldsItsBudgetInBytes(budget: Int, capacity: Int) throws {
    let seed: UInt64 = 0x5107
    var random = SeededGenerator(seed: seed)
    let reader = try Self.reader()
    let cache = LabelCache(storage: reader.storage, shape: reader.shape)
    var recent = try RecentLabels(
      labelCount: Self.labelCount, cache: cache, load: false, maximumCapacity: capacity, budget: budget)
    #expect(!recent.isWhole)
    for draw in 0..<Self.labelCount {
      let id = Int.random(in: 0..<Self.labelCount, using: &random)
      let slot = try recent.slot(for: UInt32(id), from: cache)
      #expect(recent[slot] == Self.longLabel(id), "seed \(seed), id \(id)")
      #expect(recent.bytes <= max(budget, LabelMemory.cost(ofLabelBytes: 65_534)))
      if draw % 32 == 0 || capacity < 128 {  // what the count says is what the slots hold
        let held = zip(recent.ids, recent.labels).filter { $0.0 != .max }.map(\.1)
        #expect(recent.bytes == LabelMemory.cost(of: held))
      }
    }
    #expect(recent.peak <= max(budget, LabelMemory.cost(ofLabelBytes: 65_534)))
    #expect(recent.peak > 0)
  }

  /// `stats` counts without labels and reads no label block; `info` reads the blocks of its ten
  /// top labels only, and says the same figures.
  @Test func statsReadsNoLabelAndInfoOnlyItsTopTen() throws {
    let quiet = try Self.reader()
    let counted = try ContentSummary(quiet, labels: false)
    #expect(quiet.labelCache.usage.decodedBlocks == 0)
    #expect(counted.topLabels().isEmpty)
    let reader = try Self.reader()
    let summary = try ContentSummary(reader, labels: true)
    #expect(reader.labelCache.usage.decodedBlocks == ContentSummary.rankedLabelLimit)
    #expect(reader.labelCache.usage.peak <= LabelCache.defaultBudget + LabelMemory.maximumBlockCost)
    #expect(summary.total == counted.total)
    #expect(summary.countries.map(\.entries) == counted.countries.map(\.entries))
    // Labels 0, 10, ... have a range of 100 numbers besides their entry: they lead, by id.
    let top = summary.topLabels()
    #expect(top.map(\.entries) == Array(repeating: 101, count: 10))
    #expect(top.map(\.label) == (0..<10).map { Self.longLabel($0 * 10) })
  }

  /// Ranking is by entries, then by the labels' byte order (their ids), and only ten are kept.
  @Test func topLabelsTieInByteOrder() {
    // "e\u{301}x" sorts before "f" in bytes (0x65), after "éa" as a String (canonically "éx").
    var runs: [(ClosedRange<Int64>, String?)] = [
      (1...1, "éa"), (2...2, "z"), (3...3, "e\u{301}x"), (4...5, "b"), (6...6, nil), (7...7, "f"),
    ]
    for index in 0..<12 {
      let number = Int64(100 + index)
      runs.append((number...number, "n\(index + 10)"))
    }
    let summary = ContentSummary(runs: runs)
    #expect(summary.topLabels(3).map { Array($0.label.utf8) } == ["b", "e\u{301}x", "f"].map { Array($0.utf8) })
    #expect(summary.topLabels(3).map(\.entries) == [2, 1, 1])
    #expect(summary.topLabels().count == 10)
    #expect(summary.topLabels(100).count == 10)
    #expect(summary.total == 19)
  }

  /// The CallKit feed sends every entry with its label, and the reader's cache stays within its
  /// budget (the stream's own table is held to its budget above).
  @Test func theFeedSendsEveryLabelWithinTheBudget() throws {
    let reader = try Self.reader()
    var sink = LabelCheckingSink()
    try DirectoryFeed(reader).feedWhole(into: &sink)
    #expect(sink.wrong.isEmpty)
    #expect(sink.identification == Self.labelCount + Self.labelCount / 10 * 100)
    #expect(reader.labelCache.whole().isEmpty)
    #expect(reader.labelCache.usage.peak <= LabelCache.defaultBudget + LabelMemory.maximumBlockCost)
  }

  /// `info`, `stats`, `unpack` and `verify` on the file: each succeeds and says what it should.
  @Test func commandsOnTheInflatingFile() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("inflating.calldir")
    try Data(try Self.bytes.get()).write(to: URL(fileURLWithPath: path))
    let info = calldir("info", path)
    #expect(info.status == 0, "\(info.error)")
    #expect(info.output.contains("\n  101  " + Self.longLabel(0) + "\n"))
    let stats = calldir("stats", path)
    #expect(stats.status == 0, "\(stats.error)")
    #expect(stats.output.contains("+33  "))
    let verify = calldir("verify", "-q", path)
    #expect(verify.status == 0, "\(verify.error)")
    let listing = scratch.path("listing.csv")
    let unpack = calldir("unpack", "-q", path, "-o", listing)
    #expect(unpack.status == 0, "\(unpack.error)")
    let lines = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n")
    #expect(lines.first == "kind,number,label")
    #expect(lines.count == 1 + Self.labelCount + Self.labelCount / 10)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("identify,+") && $0.utf8.count > 65_534 })
  }

  /// No block of any shape costs more than `maximumBlockCost`: a payload of 131,072 bytes filled
  /// with labels of any one length, the worst case for each length.
  @Test func noBlockCostsMoreThanItsBound() {
    var worst = 0
    for length in 1...65_534 {
      // q labels of `length` bytes take 4 (q + 1) bytes of offsets besides their text.
      let count = (FormatConstants.maximumLabelPayload - 4) / (length + 4)
      worst = max(worst, count * LabelMemory.cost(ofLabelBytes: length))
    }
    #expect(worst <= LabelMemory.maximumBlockCost)
    #expect(worst * 5 > LabelMemory.maximumBlockCost * 4)  // the bound is close, not lavish
  }

  /// Byte order as the label table has it, eight bytes at a time, against the standard library's
  /// lexicographic order of byte arrays: prefixes, high bytes and differences at every position.
  @Test func byteOrderMatchesLexicographicOrder() {
    let seed: UInt64 = 0x0DE5
    var random = SeededGenerator(seed: seed)
    func check(_ a: [UInt8], _ b: [UInt8]) {
      let precedes = unsafe a.withUnsafeBytes { x in
        unsafe b.withUnsafeBytes { y in unsafe ByteView(x).precedesInByteOrder(ByteView(y)) }
      }
      #expect(precedes == a.lexicographicallyPrecedes(b), "seed \(seed): \(a) \(b)")
    }
    for length in 0...20 {
      let base = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      check(base, base)
      check(base, base + [0])
      check(base + [0], base)
      for position in 0..<length {
        for (low, high) in [(UInt8(0x00), UInt8(0xFF)), (0x7F, 0x80), (0x41, 0x42)] {
          var a = base
          var b = base
          a[position] = low
          b[position] = high
          check(a, b)
          check(b, a)
          check(Array(a.prefix(position + 1)), b)
        }
      }
    }
  }
}

/// A sink that checks each identification entry's label against the one the inflating file gave
/// its number, keeping none of them (they are 64 KiB each).
private struct LabelCheckingSink: CallDirectorySink {
  var isIncremental: Bool { false }
  private(set) var identification = 0
  private(set) var wrong: [Int64] = []

  mutating func addBlockingEntry(_ number: Int64) { wrong.append(number) }
  mutating func addIdentificationEntry(_ number: Int64, label: String) {
    identification += 1
    let expected: Int
    if number < 34_000_000_000 {
      expected = Int((number - 33_100_000_000) / 3) * 37 % LabelBudgetTests.labelCount
    } else {
      expected = Int((number - 34_100_000_000) / 1000)
    }
    if label != LabelBudgetTests.longLabel(expected) { wrong.append(number) }
  }
  mutating func removeBlockingEntry(_ number: Int64) { wrong.append(number) }
  mutating func removeIdentificationEntry(_ number: Int64) { wrong.append(number) }
  mutating func removeAllBlockingEntries() {}
  mutating func removeAllIdentificationEntries() {}
}
