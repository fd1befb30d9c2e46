// The calldir benchmark: seeded datasets, our file format against its peers, one table per dataset.
//
//     swift run -c release calldir-bench [--quick] [--only NAME] [--seed N] [--keep] [--scaling]
import CallDirectory
import Foundation

let configuration: Configuration
do {
  guard let parsed = try Configuration.parse(Array(CommandLine.arguments.dropFirst())) else {
    print(Configuration.usage)
    exit(0)
  }
  configuration = parsed
} catch {
  FileHandle.standardError.write(Data("calldir-bench: \(error.message)\n\(Configuration.usage)\n".utf8))
  exit(2)
}
if let child = configuration.packChild { exit(PackChild.main(child)) }
if let child = configuration.instructionsChild { exit(InstructionCount.main(child)) }

/// A dataset the run can make: its name, and how to generate it under that name.
struct Plan {
  let name: String
  let make: (String) -> Dataset
  /// Whether it runs only with `--large` (or when named in full by `--only`).
  let large: Bool

  init(_ base: String, _ count: Int, large: Bool = false, _ make: @escaping (String) -> Dataset) {
    name = "\(base)-\(Format.shortCount(count))"
    self.large = large
    self.make = make
  }
}

let seed = configuration.seed
let (nanpCount, callerIDCount, spamCount) = (
  1_000_000 / configuration.scale, 300_000 / configuration.scale, 1_000_000 / configuration.scale
)
let (largeCount, worldCount) = (10_000_000 / configuration.scale, 100_000 / configuration.scale)
let plans = [
  Plan("nanp", nanpCount) { Datasets.nanp(count: nanpCount, name: $0, seed: seed) },
  Plan("nanp", largeCount, large: true) { Datasets.nanp(count: largeCount, name: $0, seed: seed) },
  Plan("world", worldCount) { Datasets.world(count: worldCount, name: $0, seed: seed) },
  Plan("callerid", callerIDCount) {
    Datasets.callerID(count: callerIDCount, labelCount: 45_000 / configuration.scale, name: $0, seed: seed)
  },
  Plan("spam", spamCount) { Datasets.spam(count: spamCount, labelCount: 1_000, name: $0, seed: seed) },
]
let selected = plans.filter {
  configuration.selects($0.name) && (!$0.large || configuration.large || configuration.only == $0.name)
}
if selected.isEmpty && !["ranges", "real", "resolver", "feed", "changes", "scaling"].contains(configuration.only ?? "") {
  let names = plans.map(\.name).joined(separator: ", ")
  FileHandle.standardError.write(Data("calldir-bench: no dataset \(configuration.only ?? "") (have \(names))\n".utf8))
  exit(2)
}

if isDebugBuild() {
  print("WARNING: this is a debug build; its timings mean nothing. Run: swift run -c release calldir-bench\n")
}
print(
  "calldir-bench: seed \(seed)\(configuration.quick ? ", --quick (a tenth of the sizes)" : ""), "
    + "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.operatingSystemVersionString)")
let clock = clockOverhead()
print(
  "clock: clock_gettime(CLOCK_MONOTONIC), \(Format.nanoseconds(clock)) ns a read; every figure is measured in this run, "
    + "peers side by side; SQLite \(SQLiteFile.version)\n")

let started = monotonicNanoseconds()
let sink = Sink()
var summaries: [Summary] = []
var rangeHeavyBytes: Double?
do {
  let scratch = try Files.makeScratchDirectory()
  defer {
    if configuration.keep { print("generated files kept in \(scratch)") } else { Files.remove(scratch) }
  }
  let smallEntries = 10_000
  let small = Datasets.nanp(count: smallEntries, name: "open-10k", seed: seed)
  var smallBuilder = DirectoryBuilder()
  for number in small.packNumbers { try smallBuilder.block(number) }
  let smallPath = scratch + "/open-10k.calldir"
  try smallBuilder.write(to: smallPath)

  for plan in selected {
    let generationStart = monotonicNanoseconds()
    let dataset = plan.make(plan.name)
    let generation = Double(monotonicNanoseconds() &- generationStart) / 1e9
    let bench = DatasetBench(
      dataset: dataset, configuration: configuration, scratch: scratch, smallFile: (smallPath, smallEntries), sink: sink,
      clockNanoseconds: clock)
    let (table, summary) = try bench.run()
    print(table.rendered())
    print("(generated in \(Format.fixed(generation, 2)) s)\n")
    _ = fflush(nil)  // nil: every output stream, so the table appears before the next progress line
    summaries.append(summary)
  }
  if configuration.selects("ranges") {
    let (table, heavy) = try RangesBench.run(seed: seed, scale: configuration.scale, sink: sink)
    rangeHeavyBytes = heavy
    print(table.rendered() + "\n")
  }
  if configuration.selects("real"), let table = try RealDataBench.run(scratch: scratch, sink: sink) {
    print(table.rendered() + "\n")
  }
  if configuration.selects("feed") {
    print(try FeedBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n")
  }
  if configuration.selects("changes") {
    print(try ChangesetBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n")
  }
  if configuration.selects("resolver") {
    print(try ResolverBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n")
  }
  if configuration.selects("scaling") {
    print(try ScalingBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n")
  }
} catch {
  FileHandle.standardError.write(Data("calldir-bench: \(error)\n".utf8))
  exit(1)
}

if !summaries.isEmpty {
  print(Summary.table(summaries) + "\n")
  print(Targets.evaluate(summaries, rangeHeavyBytesPerNumber: rangeHeavyBytes).rendered())
}
let seconds = Double(monotonicNanoseconds() &- started) / 1e9
print("total \(Format.fixed(seconds, 1)) s; result checksum \(String(sink.value, radix: 16)) (keeps the work alive)")
