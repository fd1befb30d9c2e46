// The calldir benchmark: seeded datasets, our file format against its peers, one table per dataset.
//
//     swift run -c release calldir-bench [--quick] [--only NAME] [--seed N] [--keep]
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

/// A dataset the run can make: its name, and how to generate it under that name.
struct Plan {
  let name: String
  let make: (String) -> Dataset

  init(_ base: String, _ count: Int, _ make: @escaping (String) -> Dataset) {
    name = "\(base)-\(Format.shortCount(count))"
    self.make = make
  }
}

let seed = configuration.seed
let (nanpCount, callerIDCount, spamCount) = (
  1_000_000 / configuration.scale, 300_000 / configuration.scale, 1_000_000 / configuration.scale
)
let plans = [
  Plan("nanp", nanpCount) { Datasets.nanp(count: nanpCount, name: $0, seed: seed) },
  Plan("callerid", callerIDCount) {
    Datasets.callerID(count: callerIDCount, labelCount: 45_000 / configuration.scale, name: $0, seed: seed)
  },
  Plan("spam", spamCount) { Datasets.spam(count: spamCount, labelCount: 1_000, name: $0, seed: seed) },
]
let selected = plans.filter { configuration.selects($0.name) }
if selected.isEmpty && configuration.only != "ranges" && configuration.only != "resolver" && configuration.only != "feed"
  && configuration.only != "changes"
{
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
print("clock: clock_gettime(CLOCK_MONOTONIC); every figure is measured in this run, peers side by side\n")

let started = monotonicNanoseconds()
let sink = Sink()
var summaries: [Summary] = []
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
      dataset: dataset, configuration: configuration, scratch: scratch, smallFile: (smallPath, smallEntries), sink: sink
    )
    let (table, summary) = try bench.run()
    print(table.rendered())
    print("(generated in \(Format.fixed(generation, 2)) s)\n")
    _ = fflush(nil)  // nil: every output stream, so the table appears before the next progress line
    summaries.append(summary)
  }
  if configuration.selects("ranges") {
    print(try RangesBench.run(seed: seed, scale: configuration.scale, sink: sink).rendered() + "\n")
  }
  if configuration.selects("feed") { print(try FeedBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n") }
  if configuration.selects("changes") { print(try ChangesetBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n") }
  if configuration.selects("resolver") {
    print(try ResolverBench.run(configuration: configuration, scratch: scratch, sink: sink).rendered() + "\n")
  }
} catch {
  FileHandle.standardError.write(Data("calldir-bench: \(error)\n".utf8))
  exit(1)
}

print(Summary.table(summaries))
let seconds = Double(monotonicNanoseconds() &- started) / 1e9
print("total \(Format.fixed(seconds, 1)) s; result checksum \(String(sink.value, radix: 16)) (keeps the work alive)")
