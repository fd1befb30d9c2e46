import CallDirectory
import CallDirectoryCallKitModel
import Foundation
import Testing

#if canImport(Glibc)
  /// glibc's `malloc_trim`: returns the heap's free pages to the system, so that the resident
  /// size the figure starts from holds no page freed by the list's building, which the feed could
  /// reuse unseen.
  @_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32
#endif

/// The figures of issue 26, at CallKit's real cap: loads and entries sent for each kind of
/// history, and the extension side's dirty memory while it feeds 2,000,000 labelled entries.
/// Run alone for a clean memory figure (`swift test --filter AppGroupFigureTests`).
@Suite(.serialized) struct AppGroupFigureTests {
  /// 200,000 blocked numbers, every seventh from a base; `churn` in 1,000 of them moved by one.
  static func spaced(churn: Int, version: UInt64) -> GroupList {
    var list = GroupList(version: version)
    for index in 0..<Int64(200_000) {
      let moved = churn > 0 && index % 1_000 < Int64(churn)
      let number = 33_100_000_000 + 7 * index + (moved ? 1 : 0)
      list.blocking.append(number...number)
    }
    return list
  }

  /// The loads and entries of each kind of history, all through the updater and the loader.
  @Test func loadsAndEntriesForEachKindOfHistory() throws {
    var phone = try Phone(cap: Limits.callKitMaximumEntriesPerLoad)
    let base = Self.spaced(churn: 0, version: 1)
    _ = try phone.updater.install(directory: try base.bytes())
    #expect(phone.converge() == 1)

    func sent(since start: Int) -> (loads: Int, additions: Int, removals: Int) {
      let loads = phone.store.history[start...]
      return (loads.count, loads.reduce(0) { $0 + $1.additions }, loads.reduce(0) { $0 + $1.removals })
    }

    // A 1% changeset: 2,000 of 200,000 numbers move.
    var start = phone.store.history.count
    let churned = Self.spaced(churn: 10, version: 2)
    _ = try phone.updater.apply(changeset: try churned.changeset(from: base))
    phone.converge()
    let changes = sent(since: start)
    print("figure: 1% changeset of 200,000: \(changes.loads) load, \(changes.additions) additions, \(changes.removals) removals")
    #expect(phone.lastReport?.action == .changes && changes.loads == 1 && changes.additions == 2_000)
    #expect(phone.holds(churned))

    // A full replacement: another list of the same size.
    start = phone.store.history.count
    var other = Self.spaced(churn: 0, version: 3)
    other.blocking = other.blocking.map { ($0.lowerBound + 3)...($0.upperBound + 3) }
    _ = try phone.updater.install(directory: try other.bytes())
    phone.converge()
    let replaced = sent(since: start)
    print(
      "figure: full replacement of 200,000: \(replaced.loads) load, \(replaced.additions) additions, \(replaced.removals) removals"
    )
    #expect(phone.lastReport?.action == .replaced && replaced.loads == 1 && replaced.additions == 200_000)

    // A list over the cap: 2,500,000 numbers in two ranges and 200,000 singles.
    start = phone.store.history.count
    var big = other
    big.version = 4
    big.blocking += [44_100_000_000...44_101_499_999, 44_200_000_000...44_200_999_999]
    _ = try phone.updater.install(directory: try big.bytes())
    phone.converge()
    let over = sent(since: start)
    print("figure: 2,700,000 over the cap: \(over.loads) loads, \(over.additions) additions, \(over.removals) removals")
    #expect(over.loads == 2 && over.additions == 2_700_000)
    #expect(phone.store.blocking.count == 2_700_000)
    #expect(!phone.updater.reloadNeeded)
  }

  /// A sink that counts and samples the process's resident anonymous memory as it goes.
  struct SamplingSink: CallDirectorySink {
    var isIncremental: Bool { false }
    var count = 0
    var baseline = Self.residentAnonymousKiB()
    var peakGrowth = 0
    static func residentAnonymousKiB() -> Int? {
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
      for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
      }
      return nil
    }

    mutating func sample() {
      guard count & 0xFFFF == 0, let baseline, let now = Self.residentAnonymousKiB() else { return }
      peakGrowth = max(peakGrowth, now - baseline)
    }

    mutating func addBlockingEntry(_ number: Int64) {
      count += 1
      sample()
    }

    mutating func addIdentificationEntry(_ number: Int64, label: String) {
      count += 1
      sample()
    }

    func removeBlockingEntry(_ number: Int64) {}
    func removeIdentificationEntry(_ number: Int64) {}
    func removeAllBlockingEntries() {}
    func removeAllIdentificationEntries() {}
  }

  /// The loader's dirty memory while it verifies and feeds 2,000,000 entries, every one labelled
  /// (400,000 singles under 5,000 labels, and ranges), against an extension's 6 MB.
  @Test func dirtyMemoryWhileFeedingTwoMillionLabelledEntries() throws {
    let folder = try TemporaryContainer()
    var list = GroupList(version: 1)
    for index in 0..<Int64(400_000) {
      let number = 33_600_000_000 + 3 * index
      list.identification.append((number...number, "Caller \(index % 5_000)"))
    }
    for index in 0..<Int64(1_600) {
      let first = 34_000_000_000 + 10_000 * index
      list.identification.append((first...(first + 999), "Range \(index)"))
    }
    let updater = ListUpdater(container: folder.container, trustedKeys: [GroupKeys.provider.publicKey])
    _ = try updater.install(directory: try list.bytes())
    let loader = CallDirectoryLoader(container: folder.container, trust: TrustPolicy(trustedKeys: [GroupKeys.provider.publicKey]))
    #if canImport(Glibc)
      _ = mallocTrim(0)
    #endif
    var sink = SamplingSink()
    let outcome = loader.load(into: &sink)
    #expect(outcome == .complete(LoadReport(action: .whole, additions: 2_000_000)))
    #expect(sink.count == 2_000_000)
    let environment = ProcessInfo.processInfo.environment
    if sink.baseline != nil, environment["ASAN_OPTIONS"] == nil, environment["TSAN_OPTIONS"] == nil {
      print(
        "figure: the loader's peak dirty-memory growth feeding 2,000,000 labelled entries: \(sink.peakGrowth) KiB (budget 6,144)")
      // Loose, as other tests run in this process at the same time; run alone for the figure.
      #expect(sink.peakGrowth < 32 * 1_024)
    }
  }
}
