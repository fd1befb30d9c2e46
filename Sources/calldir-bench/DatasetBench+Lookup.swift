import CallDirectory
import Foundation

extension DatasetBench {
  /// The lookup sections: number search (hits and misses) and, for identification, `label(for:)`.
  func lookups(
    _ reader: CallDirectoryReader, plain: CallDirectoryReader?, codecs: BlockCodecs, into table: inout Table,
    _ summary: inout Summary
  ) throws {
    var random = SeededGenerator.derived(from: configuration.seed, dataset.name + " queries")
    let hits = dataset.numbers.sample(configuration.lookupQueries, using: &random)
    let misses = Array(dataset.misses.prefix(configuration.lookupQueries))
    guard let mapped = MappedSortedFile(path: scratch + "/" + dataset.name + ".i64") else {
      throw BenchError.io("cannot map the raw Int64 file")
    }
    let array = SortedArrayPeer(
      numbers: dataset.numbers, labelIndices: dataset.labelIndices, labels: dataset.labels, returnsLabel: false)
    let batch = configuration.lookupBatch
    func ours(_ reader: CallDirectoryReader, _ suffix: String, _ queries: [Int64]) -> LookupContender {
      dataset.kind == .blocking
        ? LookupContender(
          "calldir isBlocked (mmap)" + suffix, BlockedLookup(reader: reader), queries: queries, batch: batch)
        : LookupContender(
          "calldir labelId(for:) (mmap)" + suffix, LabelIdLookup(reader: reader), queries: queries, batch: batch)
    }
    // The array is contender 1: every ratio is taken against it.
    func contenders(_ queries: [Int64]) -> [LookupContender] {
      [
        ours(reader, "", queries),
        LookupContender("sorted [Int64], binary search", array, queries: queries, batch: batch),
        LookupContender("mmapped raw Int64 file, binary search", mapped, queries: queries, batch: batch),
      ] + (plain.map { [ours($0, ", deflate off", queries)] } ?? [])
    }
    let hitContenders = contenders(hits)
    let hitTimings = LookupContender.compare(hitContenders, configuration.lookupRepetitions, sink: sink)
    let missTimings = LookupContender.compare(contenders(misses), configuration.lookupRepetitions, sink: sink)

    table.section(
      "lookup, ns per lookup (warm)",
      ["hit mean", "hit p50", "hit p99", "miss mean", "miss p50", "miss p99", "hit vs array", "miss vs array"])
    for index in hitContenders.indices {
      let hit = hitTimings[index]
      let miss = missTimings[index]
      table.row([
        hitContenders[index].name, Format.nanoseconds(hit.mean), Format.nanoseconds(hit.batchMeans.median),
        Format.nanoseconds(hit.batchMeans.percentile(99)), Format.nanoseconds(miss.mean),
        Format.nanoseconds(miss.batchMeans.median), Format.nanoseconds(miss.batchMeans.percentile(99)),
        Format.ratio(hit.mean / hitTimings[1].mean), Format.ratio(miss.mean / missTimings[1].mean),
      ])
    }
    summary.hitRatio = hitTimings[0].mean / hitTimings[1].mean
    summary.missRatio = missTimings[0].mean / missTimings[1].mean
    if plain != nil {
      summary.plainRatios = (hitTimings[3].mean / hitTimings[1].mean, missTimings[3].mean / missTimings[1].mean)
    }
    let repetitions = configuration.lookupRepetitions
    table.note(
      "\(Format.grouped(hits.count)) random hits and as many misses from the same number space, "
        + "\(repetitions.samples) interleaved passes after \(repetitions.warmup) warm-up;")
    table.note("timed in batches of \(batch) lookups: mean = all time / all lookups, p50/p99 are of the batch means;")
    let wrong = wrongAnswers(reader, hits: hits, misses: misses)
    if wrong > 0 { table.note("WARNING: calldir answered \(wrong) of the queries wrongly or threw") }
    let slow = (hitTimings + missTimings).map { $0.batchMeans.countAbove(10 * $0.batchMeans.median) }.reduce(0, +)
    table.note("batches over 10x their median (preemption, interrupts; kept in the mean): \(slow)")
    table.note(
      "calldir \(dataset.kind.rawValue) entry blocks deflated: \(codecs.entries.deflated) of \(codecs.entries.total)"
        + (dataset.kind == .identification
          ? "; label blocks deflated: \(codecs.labels.deflated) of \(codecs.labels.total)" : "")
        + " (a lookup that lands in a deflated block inflates it)")

    guard dataset.kind == .identification else { return }
    let labelHits = Array(hits.prefix(configuration.labelQueries))
    let labelArray = SortedArrayPeer(
      numbers: dataset.numbers, labelIndices: dataset.labelIndices, labels: dataset.labels, returnsLabel: true)
    let labelBatch = configuration.labelBatch
    let labelContenders =
      [
        LookupContender(
          "calldir label(for:) (mmap)", LabelLookup(reader: reader), queries: labelHits, batch: labelBatch),
        LookupContender("sorted [Int64] + [String] labels", labelArray, queries: labelHits, batch: labelBatch),
      ]
      + (plain.map {
        [
          LookupContender(
            "calldir label(for:), deflate off", LabelLookup(reader: $0), queries: labelHits, batch: labelBatch)
        ]
      } ?? [])
    let labelTimings = LookupContender.compare(labelContenders, repetitions, sink: sink)
    table.section("label(for:) hits, ns per lookup (warm)", ["mean", "p50", "p99", "vs array"])
    for index in labelContenders.indices {
      let timing = labelTimings[index]
      table.row([
        labelContenders[index].name, Format.nanoseconds(timing.mean), Format.nanoseconds(timing.batchMeans.median),
        Format.nanoseconds(timing.batchMeans.percentile(99)), Format.ratio(timing.mean / labelTimings[1].mean),
      ])
    }
    table.note(
      "\(Format.grouped(labelHits.count)) random hits, batches of \(configuration.labelBatch); "
        + "\(reader.labelCount) labels in \(reader.layout.labelIndex.blockCount) label blocks")
    summary.labelNanoseconds = labelTimings[0].mean
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
