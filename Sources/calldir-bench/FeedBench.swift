import CallDirectory
import Foundation

/// The CallKit feed: entries per second into a sink that only counts (what the feed itself costs,
/// without CallKit's own), and how much dirty memory feeding adds.
///
/// Memory is `RssAnon` from `/proc/self/status` (resident anonymous pages: the process's dirty
/// heap and stack, not the file's mapped pages, which are clean and can be dropped at any time),
/// sampled before the feed and every 2^18 entries during it; the figure is the largest growth.
/// Where `/proc` is missing the column says so.
enum FeedBench {
  /// A sink that counts and folds the numbers, sampling memory as it goes.
  struct CountingSink: CallDirectorySink {
    var isIncremental: Bool { false }
    var count = 0
    var fold: Int64 = 0
    var baseline: Int?
    var peakGrowth = 0

    mutating func sample() {
      guard let baseline, let now = FeedBench.residentAnonymousKiB() else { return }
      peakGrowth = max(peakGrowth, now - baseline)
    }

    mutating func addBlockingEntry(_ number: Int64) {
      count += 1
      fold &+= number
      if count & 0x3_FFFF == 0 { sample() }
    }

    mutating func addIdentificationEntry(_ number: Int64, label: String) {
      count += 1
      fold &+= number ^ Int64(label.utf8.count)
      if count & 0x3_FFFF == 0 { sample() }
    }

    func removeBlockingEntry(_ number: Int64) {}
    func removeIdentificationEntry(_ number: Int64) {}
    func removeAllBlockingEntries() {}
    func removeAllIdentificationEntries() {}
  }

  /// `RssAnon` in KiB, or `nil` without `/proc`.
  static func residentAnonymousKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
      return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    return nil
  }

  /// The table: for each list, its entries, the loads CallKit's cap needs, the feed rate and the
  /// memory growth.
  static func run(configuration: Configuration, scratch: String, sink: Sink) throws -> Table {
    let scale = configuration.scale
    let seed = configuration.seed
    var lists: [(name: String, path: String)] = []

    let nanp = Datasets.nanp(count: 1_000_000 / scale, name: "feed-nanp", seed: seed)
    var builder = DirectoryBuilder()
    for number in nanp.packNumbers { try builder.block(number) }
    lists.append(("nanp-\(Format.shortCount(nanp.count)) (singles)", scratch + "/feed-nanp.calldir"))
    try builder.write(to: lists[0].path)

    let callers = Datasets.callerID(count: 300_000 / scale, labelCount: 45_000 / scale, name: "feed-callerid", seed: seed)
    builder = DirectoryBuilder()
    for (number, label) in zip(callers.packNumbers, callers.packLabels) {
      try builder.identify(number, label: callers.labels[Int(label)])
    }
    lists.append(("callerid-\(Format.shortCount(callers.count)) (labels)", scratch + "/feed-callerid.calldir"))
    try builder.write(to: lists[1].path)

    let heavy = RangesBench.shapes(seed: seed, scale: scale)[1]
    builder = DirectoryBuilder()
    for range in heavy.ranges { try builder.block(range) }
    for number in heavy.singles { try builder.block(number) }
    lists.append(("ranges-heavy: \(heavy.name)", scratch + "/feed-ranges.calldir"))
    try builder.write(to: lists[2].path)
    builder = DirectoryBuilder()

    var table = Table(title: "feed: a directory into a counting CallKit sink")
    table.section("list", ["entries sent", "CallKit loads", "M entries/s", "median ms", "peak RssAnon growth", "runs alone M/s"])
    for list in lists {
      let directory = try CallDirectoryReader(path: list.path)
      let plan = try DirectoryFeed(directory).plan()
      let feed = try DirectoryFeed(directory, limit: .max)
      var growth = 0
      let samples = try measure(configuration.streamRepetitions, sink: sink) {
        var counter = CountingSink()
        counter.baseline = residentAnonymousKiB()
        try feed.feedWhole(into: &counter)
        counter.sample()
        growth = max(growth, counter.peakGrowth)
        return counter.count ^ Int(truncatingIfNeeded: counter.fold)
      }
      // The reader's run stream alone: what the feed adds on top of reading.
      let runs = try measure(configuration.streamRepetitions, sink: sink) {
        var count = 0
        try directory.forEachBlockingRun { count &+= Int($0.upperBound &- $0.lowerBound) &+ 1 }
        try directory.forEachIdentificationRun { range, _ in count &+= Int(range.upperBound &- range.lowerBound) &+ 1 }
        return count
      }
      let memory = residentAnonymousKiB() == nil ? "no /proc" : "\(Format.grouped(growth)) KiB"
      table.row([
        list.name, Format.grouped(plan.additions), "\(plan.loadsNeeded)",
        Format.millions(Double(plan.additions) / samples.median), Format.fixed(samples.median * 1_000, 1), memory,
        Format.millions(Double(plan.additions) / runs.median),
      ])
    }
    table.note("files memory-mapped from disk; ranges expanded number by number as they are sent")
    table.note("CallKit loads: loads of at most 2,000,000 additions the list needs (a FeedCursor resumes each)")
    table.note("runs alone: forEachBlockingRun + forEachIdentificationRun with an empty body (numbers not expanded)")
    table.note(
      "memory: largest growth of RssAnon (/proc/self/status) over its value before the feed, sampled every 262,144 entries")
    return table
  }
}
