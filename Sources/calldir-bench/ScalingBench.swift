import CallDirectory
import Foundation

/// Size, open, lookup and pack as the list grows: n = 10^4, 10^5, ... up to `--scaling-max`
/// (10^8 by default), blocking numbers uniform over 300 NANP area codes, as `nanp-1M`.
///
/// The numbers are made ascending directly (geometric gaps over the ranks of the space, so about
/// n numbers, never a set of them in memory), which is what lets n reach 10^8 in about 3 GB.
enum ScalingBench {
  static func run(configuration: Configuration, scratch: String, sink: Sink) throws -> Table {
    let maximum = configuration.scalingMaximum ?? (configuration.quick ? 1_000_000 : 100_000_000)
    var table = Table(
      title: "scaling: blocking numbers uniform over 300 NANP area codes, n = 10^4 ... \(Format.grouped(maximum))")
    table.section(
      "n",
      [
        "file bytes", "B/entry", "vs bound", "pack M/s", "open us", "p50 hit ns", "p50 miss ns", "array hit", "array miss",
        "eytz hit", "eytz miss", "hit/eytz", "miss/eytz", "chained hit", "chained/eytz hit", "chained/eytz miss", "instr",
        "instr array", "instr eytz", "cold pages", "cold new",
      ])
    var random = SeededGenerator.derived(from: configuration.seed, "scaling")
    let space = NANPSpace(areaCount: 300, using: &random)
    var target = 10_000
    while target <= maximum {
      FileHandle.standardError.write(Data("  [scaling] n = \(Format.grouped(target))\n".utf8))
      table.row(try row(target, space: space, configuration: configuration, scratch: scratch, sink: sink))
      _ = fflush(nil)
      target *= 10
    }
    table.note("pack: DirectoryBuilder add + encoded() of the numbers sorted in memory (one run from 10^7, else median of 3)")
    table.note("open: median of 1,000 CallDirectoryReader(path:) on a warm file; lookups: p50 of 16-lookup batch means,")
    table.note(
      "65,536 random hits and misses, 3 interleaved passes after 1 warm-up; array: binary search over a sorted [Int64]; eytz: the"
    )
    table.note("same numbers in Eytzinger order, searched branch-free with a prefetch 4 levels down (the in-memory limit);")
    table.note(
      "chained: p50 of 16-lookup batch means again, each lookup's query chosen by the answer before it (a lookup's latency:"
    )
    table.note("no overlap with the next lookup); chained hit: calldir's, in ns; chained/eytz: calldir over the Eytzinger array;")
    table.note(
      "instr: instructions per lookup (calldir isBlocked, array, eytz), 8,192 lookups half hits, counted by callgrind"
        + (InstructionCount.valgrind == nil ? " (not installed: -)" : "")
        + "; cold pages: open + one hit by a reader in service (its first lookup before the probes), median of 8;"
    )
    table.note(
      "cold new: open + one hit by a new reader, its first lookup (the top or the checked top's group, the group checks, one group of records, the block), median of 8"
    )
    return table
  }

  private static func row(
    _ target: Int, space: NANPSpace, configuration: Configuration, scratch: String, sink: Sink
  ) throws -> [String] {
    var random = SeededGenerator.derived(from: configuration.seed, "scaling-\(target)")
    let numbers = ascending(about: target, in: space, using: &random)
    let count = numbers.count
    let runs = count >= 10_000_000 ? Repetitions(warmup: 0, samples: 1) : Repetitions(warmup: 1, samples: 3)
    var file: [UInt8] = []
    let pack = try measure(runs, sink: sink) {
      var builder = DirectoryBuilder()
      for number in numbers { try builder.block(number) }
      file = try builder.encoded()
      return file.count
    }
    let path = scratch + "/scaling.calldir"
    try Files.write(file, to: path)
    let bytes = file.count
    file = []
    let bound = Bound.log2Binomial(Double(space.size), Double(count)) / 8
    let reader = try CallDirectoryReader(path: path)
    let numbersPath = scratch + "/scaling.i64"
    try MappedSortedFile.write(numbers, to: numbersPath)
    defer { Files.remove(numbersPath) }

    var opens = Samples()
    for _ in 0..<1_100 {
      let before = monotonicNanoseconds()
      let opened = try CallDirectoryReader(path: path)
      let after = monotonicNanoseconds()
      sink.consume(opened.blockingCount)
      opens.append(Double(after &- before))
    }

    let queries = 1 << 16
    let hits = numbers.sample(queries, using: &random)
    let array = SortedArrayPeer(numbers: numbers, labelIndices: [], labels: [])
    var misses: [Int64] = []
    while misses.count < queries {
      let number = space.random(using: &random)
      if array.position(of: number) == nil { misses.append(number) }
    }
    let repetitions = Repetitions(warmup: 1, samples: 3)
    let eytzinger = EytzingerPeer(sorted: numbers)
    func timings(_ probes: [Int64]) -> [LookupTiming] {
      LookupContender.compare(
        [
          LookupContender("calldir", BlockedLookup(reader: reader), queries: probes, batch: 16, chained: true),
          LookupContender("array", array, queries: probes, batch: 16),
          LookupContender("eytzinger", eytzinger, queries: probes, batch: 16, chained: true),
        ], repetitions, sink: sink)
    }
    let hit = timings(hits)
    let miss = timings(misses)
    let counted = zip(hits.prefix(4_096), misses.prefix(4_096)).flatMap { [$0, $1] }
    let instructions = InstructionCount.count(
      [.calldir, .array, .eytzinger], directory: path, numbers: numbersPath, queries: counted, scratch: scratch)
    // The median cold pages of 8 hits, by a reader in service or by a new reader each; "-"
    // where the system calls are missing.
    func coldPages(_ probes: ArraySlice<Int64>, inService: Bool) throws -> String {
      guard
        let results = try ColdPages.measure(
          path: path, probes: Array(probes), inService: inService,
          lookup: { reader, number in (try? reader.isBlocked(number)) == true ? 1 : 0 }, sink: sink)
      else { return "-" }
      var pages = Samples()
      for probe in results { pages.append(Double(probe.afterLookup)) }
      return Format.fixed(pages.median, 0)
    }
    let cold = try coldPages(hits.prefix(8), inService: true)
    let coldNew = try coldPages(hits.dropFirst(8).prefix(8), inService: false)
    let p50 = { (timing: LookupTiming) in timing.batchMeans.median }
    let chained = { (timing: LookupTiming) in timing.chainedMeans.median }
    return [
      Format.grouped(count), Format.grouped(bytes), Format.fixed(Double(bytes) / Double(count), 3),
      Format.ratio(Double(bytes) / bound), Format.millions(Double(count) / pack.median),
      Format.microseconds(opens.median), Format.nanoseconds(p50(hit[0])), Format.nanoseconds(p50(miss[0])),
      Format.nanoseconds(p50(hit[1])), Format.nanoseconds(p50(miss[1])), Format.nanoseconds(p50(hit[2])),
      Format.nanoseconds(p50(miss[2])), Format.ratio(p50(hit[0]) / p50(hit[2])), Format.ratio(p50(miss[0]) / p50(miss[2])),
      Format.nanoseconds(chained(hit[0])), Format.ratio(chained(hit[0]) / chained(hit[2])),
      Format.ratio(chained(miss[0]) / chained(miss[2])),
    ] + instructions.map { $0.map { Format.fixed($0, 0) } ?? "-" } + [
      cold, coldNew,
    ]
  }

  /// About `count` numbers of `space`, ascending and distinct: each rank is kept with probability
  /// `count / size`, drawn as geometric gaps between kept ranks.
  static func ascending(about count: Int, in space: NANPSpace, using random: inout SeededGenerator) -> [Int64] {
    let p = Double(count) / Double(space.size)
    let scale = 1 / log1p(-p)
    var numbers: [Int64] = []
    numbers.reserveCapacity(count + count / 50 + 100)
    var rank: Int64 = -1
    while true {
      let u = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &random)
      rank += 1 + Int64(log(u) * scale)  // log(u) <= 0 and scale < 0: the gap is at least 1
      guard rank < space.size else { break }
      numbers.append(space.number(rank))
    }
    return numbers
  }
}
