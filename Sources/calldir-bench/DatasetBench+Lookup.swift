import CallDirectory
import Foundation

extension DatasetBench {
  /// The lookup sections: number search (hits and misses) against every peer and, for
  /// identification, `label(for:)`.
  func lookups(
    _ reader: CallDirectoryReader, plain: CallDirectoryReader?, codecs: BlockCodecs, sqlite: [SQLiteFileInfo],
    into table: inout Table, _ summary: inout Summary
  ) throws {
    var random = SeededGenerator.derived(from: configuration.seed, dataset.name + " queries")
    let hits = dataset.numbers.sample(configuration.lookupQueries, using: &random)
    let misses = Array(dataset.misses.prefix(configuration.lookupQueries))
    guard let mapped = MappedSortedFile(path: scratch + "/" + dataset.name + ".i64") else {
      throw BenchError.io("cannot map the raw Int64 file")
    }
    let array = SortedArrayPeer(
      numbers: dataset.numbers, labelIndices: dataset.labelIndices, labels: dataset.labels)
    let eytzinger = EytzingerPeer(sorted: dataset.numbers, labelIndices: dataset.labelIndices)
    let batch = configuration.lookupBatch
    let identification = dataset.kind == .identification
    // SQLite answers in microseconds: a quarter of the queries keeps its passes within seconds.
    let sqliteShare = 4
    var sqlitePeers: [(name: String, peer: SQLitePeer)] = []
    for file in sqlite {
      sqlitePeers.append(
        (
          "SQLite best: \(file.layout.rawValue), mmap, 1 read txn",
          try SQLitePeer(path: file.path, identification: identification, setup: .best)
        ))
    }
    if let rowid = sqlite.first(where: { $0.layout == .rowid }) {
      sqlitePeers.append(
        (
          "SQLite common: autocommit, prepared once",
          try SQLitePeer(path: rowid.path, identification: identification, setup: .commonReused)
        ))
      sqlitePeers.append(
        (
          "SQLite common: autocommit, prepared per query",
          try SQLitePeer(path: rowid.path, identification: identification, setup: .commonPerQuery)
        ))
    }
    func ours(_ reader: CallDirectoryReader, _ suffix: String, _ queries: [Int64]) -> LookupContender {
      dataset.kind == .blocking
        ? LookupContender(
          "calldir isBlocked (mmap)" + suffix, BlockedLookup(reader: reader), queries: queries, batch: batch)
        : LookupContender(
          "calldir labelId(for:) (mmap)" + suffix, LabelIdLookup(reader: reader), queries: queries, batch: batch)
    }
    // The array is contender 1: every ratio is taken against it.
    func contenders(_ queries: [Int64]) -> [LookupContender] {
      let fewer = Array(queries.prefix(queries.count / sqliteShare))
      return [
        ours(reader, "", queries),
        LookupContender("sorted [Int64], binary search", array, queries: queries, batch: batch),
        LookupContender("mmapped sorted Int64 file, binary search", mapped, queries: queries, batch: batch),
        LookupContender("Eytzinger [Int64], prefetch 4 levels", eytzinger, queries: queries, batch: batch),
      ] + (plain.map { [ours($0, ", deflate off", queries)] } ?? [])
        + sqlitePeers.map { LookupContender($0.name, $0.peer, queries: fewer, batch: batch) }
    }
    let hitContenders = contenders(hits)
    let hitTimings = LookupContender.compare(hitContenders, configuration.lookupRepetitions, sink: sink)
    let missTimings = LookupContender.compare(contenders(misses), configuration.lookupRepetitions, sink: sink)

    for (title, timings) in [("lookup hits, ns (warm)", hitTimings), ("lookup misses, ns (warm)", missTimings)] {
      table.section(
        title, ["mean", "p50 (16)", "p99 (16)", "single p50", "single p99", "p50 vs array", "mean vs array"])
      for index in hitContenders.indices {
        let timing = timings[index]
        table.row([
          hitContenders[index].name, Format.nanoseconds(timing.mean), Format.nanoseconds(timing.batchMeans.median),
          Format.nanoseconds(timing.batchMeans.percentile(99)), Format.nanoseconds(timing.singles.median),
          Format.nanoseconds(timing.singles.percentile(99)),
          Format.ratio(timing.batchMeans.median / timings[1].batchMeans.median),
          Format.ratio(timing.mean / timings[1].mean),
        ])
      }
    }
    summary.hitRatio = hitTimings[0].mean / hitTimings[1].mean
    summary.missRatio = missTimings[0].mean / missTimings[1].mean
    summary.hitP50Ratio = hitTimings[0].batchMeans.median / hitTimings[1].batchMeans.median
    summary.missP50Ratio = missTimings[0].batchMeans.median / missTimings[1].batchMeans.median
    summary.lookupP50 = (hitTimings[0].batchMeans.median, missTimings[0].batchMeans.median)
    let sqliteBase = 4 + (plain == nil ? 0 : 1)
    for (offset, entry) in sqlitePeers.enumerated() {
      let index = sqliteBase + offset
      let p50s = (hitTimings[index].batchMeans.median, missTimings[index].batchMeans.median)
      if entry.name.hasPrefix("SQLite best") {
        let best = summary.sqliteBestP50
        summary.sqliteBestP50 = best.map { (min($0.0, p50s.0), min($0.1, p50s.1)) } ?? p50s
      } else if entry.name.hasSuffix("prepared once") {
        summary.sqliteCommonP50 = p50s
      }
    }
    if plain != nil {
      summary.plainRatios = (hitTimings[4].mean / hitTimings[1].mean, missTimings[4].mean / missTimings[1].mean)
    }
    let repetitions = configuration.lookupRepetitions
    table.note(
      "\(Format.grouped(hits.count)) random hits and as many misses from the same number space "
        + "(SQLite: the first \(Format.grouped(hits.count / sqliteShare))), "
        + "\(repetitions.samples) interleaved passes after \(repetitions.warmup) warm-up; every file warm in the page cache;")
    table.note(
      "p50/p99 (16): of the means of batches of \(batch) lookups between two clock reads; "
        + "single: each lookup between its own two clock reads, one clock read (\(Format.nanoseconds(clockNanoseconds)) ns) included;"
    )
    table.note("mean = all batched time / all batched lookups; single lookups use the first half of the queries")
    instructionCounts(hits: hits, misses: misses, into: &table)
    threads(reader, array: array, eytzinger: eytzinger, hits: hits, misses: misses, into: &table)
    let wrong = wrongAnswers(reader, hits: hits, misses: misses)
    if wrong > 0 { table.note("WARNING: calldir answered \(wrong) of the queries wrongly or threw") }
    let wrongSQLite = sqlitePeers.map { entry in
      hits.prefix(1_000).count { entry.peer.find($0) < 0 } + misses.prefix(1_000).count { entry.peer.find($0) != -1 }
    }.reduce(0, +)
    if wrongSQLite > 0 { table.note("WARNING: SQLite answered \(wrongSQLite) of 2,000 checked queries wrongly") }
    let slow = (hitTimings + missTimings).map { $0.batchMeans.countAbove(10 * $0.batchMeans.median) }.reduce(0, +)
    table.note("batches over 10x their median (preemption, interrupts; kept in the mean): \(slow)")
    table.note(
      "calldir \(dataset.kind.rawValue) entry blocks deflated: \(codecs.entries.deflated) of \(codecs.entries.total)"
        + (dataset.kind == .identification
          ? "; label blocks deflated: \(codecs.labels.deflated) of \(codecs.labels.total)" : "")
        + " (a lookup that lands in a deflated block inflates it); SQLite \(SQLiteFile.version), page size 4,096")

    guard dataset.kind == .identification else { return }
    let labelHits = Array(hits.prefix(configuration.labelQueries))
    let labelArray = SortedArrayPeer(
      numbers: dataset.numbers, labelIndices: dataset.labelIndices, labels: dataset.labels,
      labelRead: .length)
    var labelText = labelArray
    labelText.labelRead = .firstByte
    let labelBatch = configuration.labelBatch
    // Each calldir row runs right after its array peer's pass, so that the two start from the
    // same state of the caches: a pass of 8,192 random labels is bound by what the one before
    // left in them.
    let labelContenders =
      [
        LookupContender("sorted [Int64] + [String] labels", labelArray, queries: labelHits, batch: labelBatch),
        LookupContender(
          "calldir label(for:) (mmap)", LabelLookup(reader: reader), queries: labelHits, batch: labelBatch),
        LookupContender(
          "sorted [Int64] + [String], the label's text read", labelText, queries: labelHits, batch: labelBatch),
        LookupContender(
          "calldir label(for:), its text read", LabelLookup(reader: reader, read: .firstByte), queries: labelHits,
          batch: labelBatch),
      ]
      + (plain.map {
        [
          LookupContender(
            "calldir label(for:), deflate off", LabelLookup(reader: $0), queries: labelHits, batch: labelBatch)
        ]
      } ?? [])
    let labelTimings = LookupContender.compare(labelContenders, repetitions, sink: sink)
    table.section("label(for:) hits, ns per lookup (warm)", ["mean", "p50", "p99", "vs array", "p50 vs array"])
    for index in labelContenders.indices {
      // Each row against the array that does what it does: read the label's length, or its text.
      let peer = index == 2 || index == 3 ? 2 : 0
      let timing = labelTimings[index]
      table.row([
        labelContenders[index].name, Format.nanoseconds(timing.mean), Format.nanoseconds(timing.batchMeans.median),
        Format.nanoseconds(timing.batchMeans.percentile(99)), Format.ratio(timing.mean / labelTimings[peer].mean),
        Format.ratio(timing.batchMeans.median / labelTimings[peer].batchMeans.median),
      ])
    }
    table.note(
      "\(Format.grouped(labelHits.count)) random hits, batches of \(configuration.labelBatch); "
        + "\(reader.labelCount) labels in \(reader.shape.labelIndex.blockCount) label blocks")
    table.note(
      "each row against the array that does the same: the label's length, which the array reads in place without "
        + "reaching the label's storage, or its text's first byte, as a caller that shows or sends the label does")
    summary.labelNanoseconds = labelTimings[1].mean
  }

  /// The instructions per lookup of calldir and the in-memory peers, counted by callgrind over
  /// 4,096 hits and as many misses, interleaved (a row of dashes without Valgrind).
  private func instructionCounts(hits: [Int64], misses: [Int64], into table: inout Table) {
    let queries = zip(hits.prefix(4_096), misses.prefix(4_096)).flatMap { [$0, $1] }
    var peers: [(String, InstructionCount.Peer)] = [
      (
        dataset.kind == .blocking ? "calldir isBlocked" : "calldir labelId(for:)",
        dataset.kind == .blocking ? .calldir : .calldirLabelId
      ),
      ("sorted [Int64], binary search", .array), ("Eytzinger [Int64], prefetch 4 levels", .eytzinger),
    ]
    if dataset.kind == .identification { peers.append(("calldir label(for:)", .calldirLabel)) }
    let counts = InstructionCount.count(
      peers.map(\.1), directory: scratch + "/" + dataset.name + ".calldir", numbers: scratch + "/" + dataset.name + ".i64",
      queries: queries, scratch: scratch)
    table.section("instructions per lookup (callgrind, 50% hits)", ["instructions", "vs array"])
    for (index, peer) in peers.enumerated() {
      let ratio = counts[index].flatMap { count in counts[1].map { count / $0 } }
      table.row([peer.0, counts[index].map { Format.fixed($0, 0) } ?? "-", ratio.map(Format.ratio) ?? "-"])
    }
  }

  /// Lookups a second on one and on two threads sharing one reader (or one array), hits and
  /// misses interleaved.
  private func threads(
    _ reader: CallDirectoryReader, array: SortedArrayPeer, eytzinger: EytzingerPeer, hits: [Int64], misses: [Int64],
    into table: inout Table
  ) {
    let queries = zip(hits, misses).flatMap { [$0, $1] }
    func rates<Peer: LookupPeer & Sendable>(_ peer: Peer) -> (one: Double, two: Double) {
      (ThreadedLookups.rate(peer, queries, threads: 1, sink: sink), ThreadedLookups.rate(peer, queries, threads: 2, sink: sink))
    }
    let ours = dataset.kind == .blocking ? rates(BlockedLookup(reader: reader)) : rates(LabelIdLookup(reader: reader))
    let peers = [
      (dataset.kind == .blocking ? "calldir isBlocked, one reader" : "calldir labelId(for:), one reader", ours),
      ("sorted [Int64], binary search", rates(array)), ("Eytzinger [Int64], prefetch 4 levels", rates(eytzinger)),
    ]
    table.section("threads: million lookups a second (50% hits)", ["1 thread", "2 threads", "2 vs 1", "2 vs Eytzinger"])
    for (name, rate) in peers {
      table.row([
        name, Format.fixed(rate.one, 2), Format.fixed(rate.two, 2), Format.ratio(rate.two / rate.one),
        Format.ratio(rate.two / peers[2].1.two),
      ])
    }
    table.note("each thread looks every query up from its own offset; median of 5 runs after 1 warm-up")
  }

  /// How many hits calldir does not find and misses it does find (or where it throws).
  private func wrongAnswers(_ reader: CallDirectoryReader, hits: [Int64], misses: [Int64]) -> Int {
    let ours: any LookupPeer = dataset.kind == .blocking ? BlockedLookup(reader: reader) : LabelIdLookup(reader: reader)
    return hits.count { ours.find($0) < 0 } + misses.count { ours.find($0) != -1 }
  }

  /// How many blocks of a file are stored deflated.
  struct BlockCodecs {
    /// The dataset kind's entry blocks: deflated, and in all.
    var entries: (deflated: Int, total: Int)
    /// The label blocks: deflated, and in all.
    var labels: (deflated: Int, total: Int)
  }

  /// How many of the dataset kind's entry blocks, and of the label blocks, are stored deflated.
  func deflatedBlocks(_ reader: CallDirectoryReader) throws -> BlockCodecs {
    let layout = reader.layout
    let entryBlocks = layout.index(dataset.kind).blockCount
    let labelBlocks = layout.labelIndex.blockCount
    let deflatedEntries = try (0..<entryBlocks).filter {
      try layout.entryBlock(dataset.kind, $0).block.codec == .deflate
    }
    let deflatedLabels = try (0..<labelBlocks).filter {
      try layout.labelBlock($0, labelCount: 1).block.codec == .deflate
    }
    return BlockCodecs(entries: (deflatedEntries.count, entryBlocks), labels: (deflatedLabels.count, labelBlocks))
  }
}
