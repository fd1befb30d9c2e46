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
  /// Hit and miss ratios to the array of the same entries packed with deflate off, when the
  /// default file has deflated blocks.
  var plainRatios: (hit: Double, miss: Double)?
  /// Mean nanoseconds of one `label(for:)` hit.
  var labelNanoseconds = Double.nan
  /// Median open time of the dataset's file, in nanoseconds.
  var openNanoseconds = Double.nan
  /// Streaming entries a second.
  var streamRate = Double.nan
  /// Pack entries a second.
  var packRate = Double.nan

  /// The summary table of all datasets, with the design targets checked against the figures.
  static func table(_ summaries: [Summary]) -> String {
    var table = Table(
      title: "summary (design targets: file <= 1.3x bound; callerid file <= gzip -9 listing; lookup <= 2x array)")
    table.section(
      "dataset",
      [
        "entries", "B/entry", "file/bound", "file/gzip", "hit ours/array", "miss ours/array", "label(for:) ns",
        "open us", "stream M/s", "pack M/s",
      ])
    func cell(_ value: Double, _ text: (Double) -> String) -> String { value.isNaN ? "-" : text(value) }
    for summary in summaries {
      table.row([
        summary.dataset, Format.grouped(summary.entries), cell(summary.bytesPerEntry) { Format.fixed($0, 3) },
        cell(summary.overBound, Format.ratio), cell(summary.overGzip, Format.ratio),
        cell(summary.hitRatio, Format.ratio),
        cell(summary.missRatio, Format.ratio), cell(summary.labelNanoseconds, Format.nanoseconds),
        cell(summary.openNanoseconds, Format.microseconds), cell(summary.streamRate, Format.millions),
        cell(summary.packRate, Format.millions),
      ])
    }
    for summary in summaries {
      var verdicts: [String] = []
      if !summary.overBound.isNaN { verdicts.append("bound \(verdict(summary.overBound, 1.3))") }
      if summary.dataset.hasPrefix("callerid") && !summary.overGzip.isNaN {
        verdicts.append("gzip \(verdict(summary.overGzip, 1.0))")
      }
      if !summary.hitRatio.isNaN { verdicts.append("lookup hits \(verdict(summary.hitRatio, 2.0))") }
      if !summary.missRatio.isNaN { verdicts.append("lookup misses \(verdict(summary.missRatio, 2.0))") }
      if let plain = summary.plainRatios {
        verdicts.append("(deflate off: hits \(Format.ratio(plain.hit)), misses \(Format.ratio(plain.miss)))")
      }
      table.note("\(summary.dataset): " + verdicts.joined(separator: ", "))
    }
    return table.rendered()
  }

  private static func verdict(_ value: Double, _ target: Double) -> String {
    "\(Format.ratio(value)) vs <= \(Format.ratio(target)): " + (value <= target ? "met" : "NOT met")
  }
}
