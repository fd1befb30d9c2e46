import CallDirectory
import Testing

@testable import CallDirectoryReader

/// The streams' label table in front of the label cache, and the label-id stream.
@Suite struct StreamLabelTests {
  /// A directory of 2,500 identification entries over 1,200 labels, in many label blocks.
  private static func bytes() throws -> [UInt8] {
    var contents = Contents()
    for index in 0..<2500 {
      contents.identification.append(
        (Int64(3_319_900_000 + index * 11), "label \(index * 7 % 1200) " + String(repeating: "ü", count: index % 9)))
    }
    return try contents.encoded()
  }

  private static func reader() throws -> CallDirectoryReader { try CallDirectoryReader(bytes: try bytes()) }

  /// Every entry with its label, streamed by label id and each label looked up on its own.
  private static func labelsOneByOne(_ reader: CallDirectoryReader) throws -> [(Int64, String)] {
    var entries: [(Int64, String)] = []
    try reader.forEachIdentificationLabelId { (number, id) throws(FormatError) in
      entries.append((number, try reader.label(id: Int(id)) ?? "no such label"))
    }
    return entries
  }

  /// Ids that share a slot replace each other; every read still gives the id's own label. With a
  /// small budget the cache never holds the whole table, so the slots serve to the end; with the
  /// default one the stream switches to the whole table once the cache has it.
  @Test(arguments: [1, 4, 64, 1 << 16], [2_000, LabelCache.defaultBudget])
  func slotsGiveEachIdItsLabel(capacity: Int, budget: Int) throws {
    let seed: UInt64 = 0x51075
    var random = SeededGenerator(seed: seed)
    let reader = try Self.reader()
    let cache = LabelCache(storage: reader.storage, shape: reader.shape, budget: budget)
    var recent = try RecentLabels(labelCount: reader.labelCount, cache: cache, load: false, maximumCapacity: capacity)
    for _ in 0..<4000 {
      // Repeats are likely: half the draws come from the first 8 ids.
      let id =
        Bool.random(using: &random)
        ? Int.random(in: 0..<8, using: &random) : Int.random(in: 0..<reader.labelCount, using: &random)
      let slot = try recent.slot(for: UInt32(id), from: cache)
      #expect(recent.isWhole ? slot == id : slot < capacity)
      #expect(recent[slot] == (try reader.label(id: id)), "seed \(seed), id \(id)")
    }
    #expect(recent.isWhole == (budget > 2_000))
    let beyond = formatError { try recent.slot(for: UInt32(reader.labelCount), from: cache) }
    #expect(
      beyond?.kind == .labelIdOutOfRange(id: UInt32(reader.labelCount), labelCount: reader.labelCount),
      "\(String(describing: beyond))")
  }

  /// A stream loads the whole label table before its first entry and then reads it in place;
  /// its labels are those that label lookups one by one give on a reader that never had it.
  @Test func aStreamLoadsTheWholeTableFirst() throws {
    let reader = try Self.reader()
    #expect(reader.labelCache.whole().isEmpty)
    var labelsSeenFirst = -1
    var streamed: [(Int64, String)] = []
    try reader.forEachIdentification { number, label in
      if streamed.isEmpty { labelsSeenFirst = reader.labelCache.whole().count }
      streamed.append((number, label))
    }
    #expect(labelsSeenFirst == reader.labelCount)
    #expect(try RecentLabels(labelCount: reader.labelCount, cache: reader.labelCache, load: false).isWhole)
    let oneByOne = try Self.labelsOneByOne(try Self.reader())
    #expect(streamed.count == 2500)
    #expect(streamed.map(\.0) == oneByOne.map(\.0))
    #expect(streamed.map(\.1) == oneByOne.map(\.1))
    for id in [0, 1, 599, reader.labelCount - 1] { #expect(reader.labelCache.whole()[id] == (try reader.label(id: id))) }
    #expect(try reader.label(id: reader.labelCount) == nil)
  }

  /// The pull cursor (diff, patch, the CallKit feed) loads the table at its first label too,
  /// and gives the runs the push stream gives.
  @Test func theRunCursorLoadsTheTableAtItsFirstLabel() throws {
    let pushed = try Self.reader()
    var expected: [RunCursor.Run] = []
    try pushed.forEachIdentificationRun { expected.append(RunCursor.Run(numbers: $0, label: $1)) }
    let reader = try Self.reader()
    var cursor = reader.runCursor(.identification)
    var runs: [RunCursor.Run] = []
    while let run = try cursor.next() {
      if runs.isEmpty { #expect(reader.labelCache.whole().count == reader.labelCount) }
      runs.append(run)
    }
    #expect(runs.count == 2500)
    #expect(runs == expected)
  }

  /// A damaged label block stops a label stream before its first entry, whichever labels the
  /// entries use, since the table is loaded first.
  @Test func aDamagedLabelBlockStopsTheStreamAtTheStart() throws {
    var bytes = try Self.bytes()
    let original = try CallDirectoryReader(bytes: bytes)
    let last = original.shape.labelIndex.blockCount - 1
    let block = original.layout.labelBlockOffset(last)
    bytes[block + 12] ^= 0x01
    let damaged = try CallDirectoryReader(bytes: bytes)
    var seen = 0
    let error = formatError { try damaged.forEachIdentification { _, _ in seen += 1 } }
    guard case .blockChecksumMismatch(let failed, _, _)? = error?.kind else {
      Issue.record("expected the label block's checksum error, got \(String(describing: error))")
      return
    }
    #expect(failed == last && error?.section == "LPFX")
    #expect(seen == 0)
    #expect(damaged.labelCache.whole().isEmpty)
  }

  /// A table larger than the cache's budget never becomes whole: blocks are dropped and decoded
  /// again, and every label still comes out right, through a stream's table too.
  @Test func aTableOverTheBudgetStaysInBlocks() throws {
    let reader = try Self.reader()
    let small = LabelCache(storage: reader.storage, shape: reader.shape, budget: 2_000)
    var recent = try RecentLabels(labelCount: reader.labelCount, cache: small)
    for round in 0..<2 {
      for id in 0..<reader.labelCount {
        let expected = try reader.label(id: id)
        #expect(try small.label(id) == expected, "round \(round), id \(id)")
        let slot = try recent.slot(for: UInt32(id), from: small)
        #expect(recent[slot] == expected, "round \(round), id \(id)")
      }
      #expect(small.whole().isEmpty)
      #expect(try small.loadWhole().isEmpty)
    }
  }

  /// A stream on a reader whose cache holds some blocks already (a lookup came first) completes
  /// the table from the blocks it lacks, keeping those it has.
  @Test func aStreamCompletesAPartlyCachedTable() throws {
    let reader = try Self.reader()
    let some = [3, reader.labelCount / 2, reader.labelCount - 1]
    let looked = try some.map { try reader.label(id: $0) }
    #expect(reader.labelCache.whole().isEmpty)
    var count = 0
    try reader.forEachIdentification { _, _ in count += 1 }
    #expect(count == 2500)
    let whole = reader.labelCache.whole()
    #expect(whole.count == reader.labelCount)
    #expect(some.map { whole[$0] } == looked)
  }

  /// The label-id stream gives the entries the label stream gives, with the ids of their labels.
  @Test func labelIdStreamMatchesLabelStream() throws {
    let reader = try Self.reader()
    var byLabel: [(Int64, String)] = []
    try reader.forEachIdentification { byLabel.append(($0, $1)) }
    let byId = try Self.labelsOneByOne(reader)
    #expect(byId.count == 2500)
    #expect(byId.map(\.0) == byLabel.map(\.0))
    #expect(byId.map(\.1) == byLabel.map(\.1))
  }

  /// A damaged entry block stops the label-id stream with a format error, as it stops the others.
  @Test func labelIdStreamStopsAtDamage() throws {
    var bytes = try Self.bytes()
    let original = try CallDirectoryReader(bytes: bytes)
    let block = original.layout.blockOffset(.identification, 1)
    bytes[block + 12] ^= 0x40
    let damaged = try CallDirectoryReader(bytes: bytes)
    var seen = 0
    let error = formatError { try damaged.forEachIdentificationLabelId { _, _ in seen += 1 } }
    guard case .blockChecksumMismatch(1, _, _)? = error?.kind else {
      Issue.record("expected block 1's checksum error, got \(String(describing: error))")
      return
    }
    #expect(error?.section == "IDAT")
    #expect(seen < 2500)
  }
}
