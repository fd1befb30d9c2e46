import Foundation

/// A plain-text table: a title, then sections, each a header row and its rows. Columns are
/// aligned across the whole table, the first to the left and the others to the right.
///
///     var table = Table(title: "nanp-1M")
///     table.section("size", ["bytes", "B/entry"])
///     table.row(["calldir file", "1,650,112", "1.650"])
///     print(table.rendered())
struct Table {
  private struct Section {
    var header: [String]
    var rows: [[String]] = []
    var notes: [String] = []
  }

  /// The line printed above the table.
  let title: String
  private var sections: [Section] = []

  /// An empty table.
  init(title: String) { self.title = title }

  /// Starts a section: `name` heads the first column, `columns` the others.
  mutating func section(_ name: String, _ columns: [String]) {
    sections.append(Section(header: [name] + columns))
  }

  /// Adds a row to the current section.
  mutating func row(_ cells: [String]) {
    sections[sections.count - 1].rows.append(cells)
  }

  /// Adds a note printed under the current section's rows.
  mutating func note(_ text: String) {
    sections[sections.count - 1].notes.append(text)
  }

  /// The table as lines of text.
  func rendered() -> String {
    var widths: [Int] = []
    for section in sections {
      for cells in [section.header] + section.rows {
        for (column, cell) in cells.enumerated() {
          if column == widths.count { widths.append(0) }
          widths[column] = max(widths[column], cell.count)
        }
      }
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return column == 0 ? cell + padding : padding + cell
      }.joined(separator: "  ")
    }
    let rule = String(repeating: "=", count: widths.reduce(0, +) + 2 * max(0, widths.count - 1))
    var lines = [rule, title, rule]
    for section in sections {
      lines.append(line(section.header))
      lines.append(String(repeating: "-", count: line(section.header).count))
      for cells in section.rows { lines.append(line(cells)) }
      for note in section.notes { lines.append("  " + note) }
      lines.append("")
    }
    return lines.joined(separator: "\n")
  }
}

/// Number formatting for the tables.
enum Format {
  /// `1234567` as "1,234,567".
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(character)
    }
    return value < 0 ? "-" + result : result
  }

  /// `value` with `places` decimals.
  static func fixed(_ value: Double, _ places: Int) -> String {
    String(format: "%.\(places)f", value)
  }

  /// A ratio as "1.23x".
  static func ratio(_ value: Double) -> String {
    value.isFinite ? String(format: "%.2fx", value) : "-"
  }

  /// Nanoseconds with one decimal below 1,000 and none above.
  static func nanoseconds(_ value: Double) -> String {
    value < 1_000 ? fixed(value, 1) : grouped(Int(value.rounded()))
  }

  /// Microseconds from nanoseconds, two decimals.
  static func microseconds(_ nanoseconds: Double) -> String {
    fixed(nanoseconds / 1_000, 2)
  }

  /// A rate in millions a second.
  static func millions(_ perSecond: Double) -> String {
    fixed(perSecond / 1e6, 2)
  }

  /// A count of entries as "1M", "300k" or the plain number.
  static func shortCount(_ count: Int) -> String {
    if count >= 1_000_000 && count % 1_000_000 == 0 { return "\(count / 1_000_000)M" }
    if count >= 1_000 && count % 1_000 == 0 { return "\(count / 1_000)k" }
    return "\(count)"
  }
}

/// The headline figures of one dataset, for the closing summary.
struct Summary {
  /// The dataset's name.
  var dataset = ""
  /// Its entry count.
  var entries = 0
  /// Our file's bytes per entry.
  var bytesPerEntry = Double.nan
  /// File size over the information-theoretic bound (blocking with a closed-form space only).
  var overBound = Double.nan
  /// File size over the gzip -9 listing.
  var overGzip = Double.nan
  /// Mean hit lookup time, ours over the sorted array.
  var hitRatio = Double.nan
  /// Mean miss lookup time, ours over the sorted array.
  var missRatio = Double.nan
  /// p50 (of 16-lookup batch means) of hits, ours over the sorted array.
  var hitP50Ratio = Double.nan
  /// p50 of misses, ours over the sorted array.
  var missP50Ratio = Double.nan
  /// Our p50 nanoseconds, hits and misses.
  var lookupP50: (hit: Double, miss: Double)?
  /// SQLite's best configuration's p50 nanoseconds (the faster layout), hits and misses.
  var sqliteBestP50: (hit: Double, miss: Double)?
  /// SQLite's common configuration's p50 nanoseconds (statement prepared once), hits and misses.
  var sqliteCommonP50: (hit: Double, miss: Double)?
  /// Hit and miss ratios to the array of the same entries packed with deflate off, when the
  /// default file has deflated blocks.
  var plainRatios: (hit: Double, miss: Double)?
  /// Mean nanoseconds of one `label(for:)` hit.
  var labelNanoseconds = Double.nan
  /// Median open time of the dataset's file, in nanoseconds.
  var openNanoseconds = Double.nan
  /// Median open time of the 10,000-entry file, in nanoseconds.
  var openSmallNanoseconds = Double.nan
  /// The file's pages a cold open plus one cold lookup reads (median, the worse of hits and
  /// misses): `isBlocked` or `labelId(for:)`.
  var coldPages: Int?
  /// The same for the first lookup of a new reader, which checks the parts of the index it reads
  /// (the top, the group checks and one group of records, `Spec/FORMAT.md` 5.4), or the whole
  /// index in a file without group checks.
  var coldFirstLookupPages: Int?
  /// The same for `label(for:)`, which also reads the label's block: 4 KiB and 16 KiB pages.
  var coldLabelPages: (small: Int, apple: Int)?
  /// Streaming entries a second.
  var streamRate = Double.nan
  /// Streaming identification entries a second as numbers and label ids (no String an entry).
  var streamLabelIdRate: Double?
  /// Streaming identification entries a second with a String an entry, the first stream of a
  /// newly opened reader (its label cache empty).
  var streamFirstRate: Double?
  /// The largest growth of dirty memory while streaming, in KiB.
  var streamDirtyKiB: Int?
  /// Verifier entries a second.
  var verifyRate = Double.nan
  /// Verifier entries a second with every check on one thread.
  var verifySerialRate = Double.nan
  /// Pack entries a second, shuffled in memory.
  var packRate = Double.nan
  /// Pack entries a second, sorted in memory.
  var packSortedRate = Double.nan
  /// Pack inputs a second, shuffled with 10% duplicates.
  var packDuplicatesRate = Double.nan
  /// Pack lines a second from the CSV listing, end to end.
  var packListingRate = Double.nan
  /// Peak memory growth of the end-to-end pack, bytes an entry.
  var packPeakBytesPerEntry = Double.nan

  /// The summary table of all datasets.
  static func table(_ summaries: [Summary]) -> String {
    var table = Table(title: "summary")
    table.section(
      "dataset",
      [
        "entries", "B/entry", "file/bound", "file/gzip", "p50 hit/array", "p50 miss/array", "p50 hit ns", "p50 miss ns",
        "open us", "cold pages", "stream M/s", "dirty KiB", "verify M/s", "pack sorted", "shuffled", "dups", "listing",
      ])
    func cell(_ value: Double, _ text: (Double) -> String) -> String { value.isNaN ? "-" : text(value) }
    for summary in summaries {
      table.row([
        summary.dataset, Format.grouped(summary.entries), cell(summary.bytesPerEntry) { Format.fixed($0, 3) },
        cell(summary.overBound, Format.ratio), cell(summary.overGzip, Format.ratio),
        cell(summary.hitP50Ratio, Format.ratio), cell(summary.missP50Ratio, Format.ratio),
        summary.lookupP50.map { Format.nanoseconds($0.hit) } ?? "-",
        summary.lookupP50.map { Format.nanoseconds($0.miss) } ?? "-",
        cell(summary.openNanoseconds, Format.microseconds), summary.coldPages.map(String.init) ?? "-",
        cell(summary.streamRate, Format.millions), summary.streamDirtyKiB.map(String.init) ?? "-",
        cell(summary.verifyRate, Format.millions), cell(summary.packSortedRate, Format.millions),
        cell(summary.packRate, Format.millions), cell(summary.packDuplicatesRate, Format.millions),
        cell(summary.packListingRate, Format.millions),
      ])
    }
    table.note("pack columns in M entries (or lines) a second; dirty KiB: Private_Dirty growth while streaming")
    return table.rendered()
  }
}

/// The targets, each checked against the figures of this run.
struct Targets {
  /// One target: what, the figure, the limit and whether it is met.
  struct Check {
    let target: String
    let measured: String
    let met: Bool?
  }

  private(set) var checks: [Check] = []
  /// Figures next to the targets that no target covers.
  private(set) var notes: [String] = []

  /// Adds a check; `met` is `nil` when the figure was not measured in this run.
  mutating func add(_ target: String, _ measured: String, _ met: Bool?) {
    checks.append(Check(target: target, measured: measured, met: met))
  }

  /// The checks that the dataset summaries (and the ranges table) can decide.
  static func evaluate(_ summaries: [Summary], rangeHeavyBytesPerNumber: Double?) -> Targets {
    var targets = Targets()
    func find(_ prefix: String) -> Summary? { summaries.first { $0.dataset.hasPrefix(prefix) } }
    let nanp1M = summaries.first { $0.dataset == "nanp-1M" } ?? find("nanp")
    if let nanp = nanp1M, !nanp.overBound.isNaN {
      targets.add(
        "size: \(nanp.dataset) at most 1.10x the bound", Format.fixed(nanp.overBound, 3) + "x", nanp.overBound <= 1.10)
    }
    if let bytes = rangeHeavyBytesPerNumber {
      targets.add("size: 12 ranges of 1M + singles, at most 0.2 B a number", Format.fixed(bytes, 4) + " B", bytes <= 0.2)
    }
    let large = summaries.filter { $0.dataset.hasPrefix("nanp") }.max { $0.entries < $1.entries }
    if let large, !large.hitP50Ratio.isNaN {
      let worst = max(large.hitP50Ratio, large.missP50Ratio)
      targets.add(
        "lookup: p50 within 1.2x the sorted array on \(large.dataset), hits and misses",
        "\(Format.ratio(large.hitP50Ratio)), \(Format.ratio(large.missP50Ratio))", worst <= 1.2)
    }
    for summary in summaries {
      guard let ours = summary.lookupP50 else { continue }
      if let best = summary.sqliteBestP50 {
        targets.add(
          "lookup: faster than SQLite best (\(summary.dataset)), p50 hits and misses",
          "ours/SQLite \(Format.ratio(ours.hit / best.hit)), \(Format.ratio(ours.miss / best.miss))",
          ours.hit < best.hit && ours.miss < best.miss)
      }
      if let common = summary.sqliteCommonP50 {
        let speedup = min(common.hit / ours.hit, common.miss / ours.miss)
        targets.add(
          "lookup: at least 8x faster than SQLite common (\(summary.dataset))",
          "\(Format.fixed(common.hit / ours.hit, 1))x, \(Format.fixed(common.miss / ours.miss, 1))x", speedup >= 8)
      }
    }
    let opens = summaries.filter { !$0.openNanoseconds.isNaN }
    if let slowest = opens.max(by: { $0.openNanoseconds < $1.openNanoseconds }) {
      targets.add(
        "open: at most 50 us warm (slowest: \(slowest.dataset))", Format.microseconds(slowest.openNanoseconds) + " us",
        slowest.openNanoseconds <= 50_000)
      if let small = opens.first?.openSmallNanoseconds, let largest = opens.max(by: { $0.entries < $1.entries }) {
        let ratio = largest.openNanoseconds / small
        targets.add(
          "open: constant in size (10k vs \(largest.dataset), within noise: taken as 1.5x)",
          "\(Format.microseconds(small)) vs \(Format.microseconds(largest.openNanoseconds)) us (\(Format.ratio(ratio)))",
          ratio <= 1.5)
      }
    }
    for summary in summaries {
      if let pages = summary.coldPages {
        targets.add(
          "cold lookup: at most 3 pages (\(summary.dataset), open + lookup, reader in service)", "\(pages) pages", pages <= 3)
      }
      if let pages = summary.coldFirstLookupPages {
        targets.add(
          "cold lookup: at most 4 pages (\(summary.dataset), open + a new reader's first lookup, its checks included)",
          "\(pages) pages", pages <= 4)
      }
      if let label = summary.coldLabelPages {
        targets.notes.append(
          "\(summary.dataset): a cold label(for:), the lookup and then the label's text from its label block, reads "
            + "\(label.small) pages of 4 KiB, \(label.apple) of 16 KiB (median)")
      }
    }
    // Streaming and pack rates are targets for block lists (numbers); identification streams and
    // listings are checked below, the rest of identification is shown in its tables.
    let blocking = summaries.filter { $0.dataset.hasPrefix("nanp") || $0.dataset.hasPrefix("world") }
    for summary in blocking {
      targets.add(
        "streaming: at least 50M entries/s (\(summary.dataset))", Format.millions(summary.streamRate) + " M/s",
        summary.streamRate >= 50e6)
    }
    for summary in summaries {
      guard let idRate = summary.streamLabelIdRate else { continue }
      targets.add(
        "streaming: at least 50M entries/s (\(summary.dataset), label ids)", Format.millions(idRate) + " M/s", idRate >= 50e6)
      targets.add(
        "streaming: at least 50M entries/s (\(summary.dataset), a label String an entry)",
        Format.millions(summary.streamRate) + " M/s"
          + (summary.streamFirstRate.map { " (a new reader's first stream: " + Format.millions($0) + ")" } ?? ""),
        summary.streamRate >= 50e6)
    }
    for summary in summaries {
      if let dirty = summary.streamDirtyKiB {
        targets.add("streaming: dirty memory at most 64 KB (\(summary.dataset))", "\(dirty) KiB", dirty * 1024 <= 64_000)
      }
    }
    for summary in summaries {
      targets.add(
        "verify: at least 20M entries/s (\(summary.dataset))",
        Format.millions(summary.verifyRate) + " M/s (one thread: " + Format.millions(summary.verifySerialRate) + ")",
        summary.verifyRate >= 20e6)
    }
    for summary in blocking {
      targets.add(
        "pack: sorted in memory at least 10M/s (\(summary.dataset))", Format.millions(summary.packSortedRate) + " M/s",
        summary.packSortedRate >= 10e6)
      targets.add(
        "pack: with sort and de-duplication at least 5M/s (\(summary.dataset))",
        Format.millions(summary.packDuplicatesRate) + " M/s", summary.packDuplicatesRate >= 5e6)
      targets.add(
        "pack: text listing end to end at least 2M lines/s (\(summary.dataset))",
        Format.millions(summary.packListingRate) + " M/s", summary.packListingRate >= 2e6)
    }
    // The listing target read for identification listings too, whose lines carry labels.
    for summary in summaries where !blocking.contains(where: { $0.dataset == summary.dataset }) {
      targets.add(
        "pack: text listing end to end at least 2M lines/s (\(summary.dataset), labelled lines)",
        Format.millions(summary.packListingRate) + " M/s", summary.packListingRate >= 2e6)
    }
    return targets
  }

  /// The checks as a table.
  func rendered() -> String {
    var table = Table(title: "targets (issue 5), measured in this run")
    table.section("target", ["measured", "verdict"])
    for check in checks {
      table.row([check.target, check.measured, check.met.map { $0 ? "met" : "NOT met" } ?? "not measured"])
    }
    for note in notes { table.note(note) }
    return table.rendered()
  }
}
