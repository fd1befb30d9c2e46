import CallDirectory
import Foundation

/// Real numbering data, when `Samples/datasets/make` has written it (into `$CALLDIR_DATASETS`, or
/// the cache's `calldir/datasets`): the French regulator's allocations and libphonenumber's nested
/// carrier and geocoding prefixes. For each: the directory against `gzip -9` and `xz -9` of its
/// own listing, pack time, and label lookups against an in-memory peer (the flattened ranges'
/// first numbers in a sorted `[Int64]`, binary-searched, with their labels in a `[String]`); then
/// the changeset between two releases of the carrier prefixes against their real churn.
enum RealDataBench {
  static let names = ["fr-ranges", "carrier-9.0.43", "geocoding-9.0.43"]

  static var directory: String {
    if let given = ProcessInfo.processInfo.environment["CALLDIR_DATASETS"] { return given }
    let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
    return cache + "/calldir/datasets"
  }

  /// The table, or `nil` when the datasets are not there.
  static func run(scratch: String, sink: Sink) throws -> Table? {
    let present = names.filter { FileManager.default.fileExists(atPath: "\(directory)/\($0).csv") }
    guard !present.isEmpty else { return nil }
    var table = Table(title: "real numbering data (\(directory))")
    table.section(
      "listing",
      ["ranges", "listing", "gzip -9", "xz -9", "calldir", "/ xz", "pack s", "label ns", "peer ns", "range : entry ns"])
    for name in present {
      let listingPath = "\(directory)/\(name).csv"
      let listing = try [UInt8](Data(contentsOf: URL(fileURLWithPath: listingPath)))
      let packStart = monotonicNanoseconds()
      let records = try ListingParser.parse(bytes: listing, file: listingPath, parser: .formatDomain)
      var builder = DirectoryBuilder()
      for record in records { try builder.identify(record.numbers, label: record.label ?? "") }
      let bytes = try builder.encoded()
      let packSeconds = Double(monotonicNanoseconds() &- packStart) / 1e9
      let copy = "\(scratch)/\(name).csv"
      try Data(listing).write(to: URL(fileURLWithPath: copy))
      let compressed = ExternalCompressor.compress(copy, with: ExternalCompressor.standard)
      let xz = compressed.last?.bytes
      let reader = try CallDirectoryReader(bytes: bytes)
      // The peer: the flattened ranges, as a reader hands them out.
      var firsts: [Int64] = []
      var lasts: [Int64] = []
      var labels: [String] = []
      try reader.forEachIdentificationRun { run, label in
        firsts.append(run.lowerBound)
        lasts.append(run.upperBound)
        labels.append(label)
      }
      var random = SeededGenerator.derived(from: 1, name)
      let probes: [Int64] = (0..<200_000).map { _ in
        let record = records[Int.random(in: 0..<records.count, using: &random)]
        return Int64.random(in: record.numbers, using: &random)
      }
      let ours = try time(probes) { try reader.label(for: $0)?.utf8.count ?? 0 }
      // The goal compares lookups into ranges with lookups into single entries of one file: the
      // list with 20,000 single entries added apart from its ranges (numbers none of them holds).
      var singlesRandom = SeededGenerator.derived(from: 2, name)
      var singles = Set<Int64>()
      while singles.count < 20_000 {
        let number = Int64.random(in: 19_000_000_000...19_999_999_999, using: &singlesRandom)
        if try reader.label(for: number) == nil { singles.insert(number) }
      }
      for number in singles { try builder.identify(number, label: "Single") }
      let mixed = try CallDirectoryReader(bytes: try builder.encoded())
      let inRanges = try time(probes) { try mixed.label(for: $0)?.utf8.count ?? 0 }
      let entries = try time(Array(singles).shuffled(using: &singlesRandom)) { try mixed.label(for: $0)?.utf8.count ?? 0 }
      let peer = time(probes) { number in
        var low = 0
        var high = firsts.count
        while low < high {
          let middle = (low + high) / 2
          if firsts[middle] <= number { low = middle + 1 } else { high = middle }
        }
        return low > 0 && number <= lasts[low - 1] ? labels[low - 1].utf8.count : 0
      }
      sink.consume(ours.checksum &+ peer.checksum &+ entries.checksum &+ inRanges.checksum)
      table.row([
        name, Format.grouped(records.count), Format.grouped(listing.count),
        compressed.first?.bytes.map(Format.grouped) ?? "-", xz.map(Format.grouped) ?? "-", Format.grouped(bytes.count),
        xz.map { Format.fixed(Double(bytes.count) / Double($0), 2) + "x" } ?? "-", Format.fixed(packSeconds, 2),
        Format.fixed(ours.nanoseconds, 0), Format.fixed(peer.nanoseconds, 0),
        "\(Format.fixed(inRanges.nanoseconds, 0)) : \(Format.fixed(entries.nanoseconds, 0))",
      ])
    }
    try churn(into: &table)
    table.note(
      "pack: parse and build in this process; label ns: label(for:) of random numbers inside the listed ranges; peer: a "
        + "binary search over the same flattened ranges in memory; range : entry: label(for:) into the ranges and into "
        + "20,000 single entries (+1 9 numbers no range holds) added to the same file")
    return table
  }

  /// The changeset between the two carrier releases, against the churn of their listings.
  private static func churn(into table: inout Table) throws {
    let paths = ["carrier-8.12.57", "carrier-9.0.43"].map { "\(directory)/\($0).csv" }
    guard paths.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else { return }
    var directories: [[UInt8]] = []
    var maps: [[ClosedRange<Int64>: String]] = []
    for path in paths {
      let records = try ListingParser.parse(
        bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), file: path, parser: .formatDomain)
      var builder = DirectoryBuilder()
      var map: [ClosedRange<Int64>: String] = [:]
      for record in records {
        try builder.identify(record.numbers, label: record.label ?? "")
        map[record.numbers] = record.label
      }
      directories.append(try builder.encoded())
      maps.append(map)
    }
    let removed = maps[0].keys.filter { maps[1][$0] == nil }.count
    let added = maps[1].keys.filter { maps[0][$0] == nil }.count
    let relabelled = maps[1].filter { entry in maps[0][entry.key].map { $0 != entry.value } ?? false }.count
    let changes = try Changeset.diff(
      old: try CallDirectoryReader(bytes: directories[0]), new: try CallDirectoryReader(bytes: directories[1]))
    table.section("carrier 8.12.57 -> 9.0.43", ["prefixes removed", "added", "relabelled", "changeset", "new file", "share"])
    table.row([
      "", Format.grouped(removed), Format.grouped(added), Format.grouped(relabelled), Format.grouped(changes.count),
      Format.grouped(directories[1].count), Format.fixed(100 * Double(changes.count) / Double(directories[1].count), 1) + "%",
    ])
  }

  /// The mean time of `body` over `probes`, five passes, and a checksum of what it returned.
  private static func time(_ probes: [Int64], _ body: (Int64) throws -> Int) rethrows -> (nanoseconds: Double, checksum: Int) {
    var checksum = 0
    let start = monotonicNanoseconds()
    for _ in 0..<5 { for probe in probes { checksum &+= try body(probe) } }
    return (Double(monotonicNanoseconds() &- start) / Double(5 * probes.count), checksum)
  }
}
