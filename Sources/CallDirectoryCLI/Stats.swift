import CallDirectory
import CallDirectorySystem

/// `calldir stats`: a text histogram of entries per country calling code.
struct Stats {
  let file: String
  let json: Bool
  /// The longest bar, in columns.
  let width: Int
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let reader = try Inputs.openDirectory(file, console: console)
    let content: ContentSummary
    do { content = try ContentSummary(reader, labels: false) } catch {
      throw CommandFailure("\(Inputs.displayName(file)): \(error)")
    }
    let text = json ? JSON.render(content.histogramJSON(file: file)) : content.histogram(width: width).joined(separator: "\n")
    do { try console.print(text) } catch { throw CommandFailure("cannot write: \(error.message)") }
    return CLI.ExitCode.success
  }
}

/// What a directory's entries are, counted in one streaming pass: entries per label and per
/// country calling code.
///
/// Memory is bounded by the number of distinct labels and country codes (at most a few hundred
/// codes), not by the number of entries: the runs are streamed one block at a time. Labels are
/// counted by id, and only the texts of the ten labels with the most entries are read, so long
/// labels that deflate to little cost at most those ten label blocks, whatever the whole table
/// inflates to. A range counts as many entries as it covers (saturating at `Int.max`), and is
/// counted under the country code of its first number (a range wider than one country is rare,
/// and splitting it would need the numbering plan).
struct ContentSummary {
  /// Entries per label id (identification entries only), when labels are counted.
  private var labelEntries: [UInt32: Int] = [:]
  /// The labels with the most entries, most first, with their entries: `rankLabels` fills it.
  private var ranked: [(label: String, entries: Int)] = []
  /// Entries per country calling code, both kinds together.
  private(set) var countryEntries: [Int: Int] = [:]
  /// All entries, both kinds, ranges by their size (saturating).
  private(set) var total = 0

  /// The labels `topLabels` can give at most.
  static let rankedLabelLimit = 10

  /// Streams every run of `reader`, checking each block as it is read.
  /// - Parameter labels: whether to count entries per label and read the text of the top labels
  ///   (`info`); without, no label block is read (`stats`).
  /// - Throws: what streaming throws for a damaged block, label or range section.
  init(_ reader: CallDirectoryReader, labels: Bool) throws {
    try reader.forEachBlockingRun { (numbers: ClosedRange<Int64>) in self.add(numbers, labelId: nil) }
    try reader.forEachIdentificationRunLabelId { (numbers: ClosedRange<Int64>, id: UInt32) in
      self.add(numbers, labelId: labels ? id : nil)
    }
    try rankLabels { (id) throws(FormatError) in try reader.label(id: Int(id)) ?? "" }
  }

  /// A summary of the given runs, for tests: labels get ids in the table's order, unsigned byte
  /// order, as a directory's do.
  init(runs: [(ClosedRange<Int64>, String?)]) {
    let table = Set(runs.compactMap(\.1)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let ids = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($1, UInt32($0)) })
    for (numbers, label) in runs { add(numbers, labelId: label.flatMap { ids[$0] }) }
    rankLabels { table[Int($0)] }
  }

  private mutating func add(_ numbers: ClosedRange<Int64>, labelId: UInt32?) {
    // Numbers are 1 ... Int64.max - 1 (the format's domain), so the size cannot wrap.
    let size = Int(numbers.upperBound &- numbers.lowerBound) &+ 1
    let code = CountryCodes.code(of: numbers.lowerBound)
    countryEntries[code] = Self.saturatingSum(countryEntries[code] ?? 0, size)
    total = Self.saturatingSum(total, size)
    if let labelId { labelEntries[labelId] = Self.saturatingSum(labelEntries[labelId] ?? 0, size) }
  }

  /// Ranks the counted labels, most entries first (ties by id, which is the labels' byte order),
  /// and reads the text of the first `rankedLabelLimit` through `text`.
  private mutating func rankLabels<E: Error>(_ text: (UInt32) throws(E) -> String) throws(E) {
    let top = labelEntries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.rankedLabelLimit)
    ranked = []
    for (id, entries) in top { ranked.append((try text(id), entries)) }
  }

  private static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  /// The `limit` labels with the most entries, most first (ties in the labels' byte order, for
  /// stable output); at most `rankedLabelLimit`.
  func topLabels(_ limit: Int = ContentSummary.rankedLabelLimit) -> [(label: String, entries: Int)] {
    Array(ranked.prefix(limit))
  }

  /// Country codes with their entries, most first (ties by code).
  var countries: [(code: Int, entries: Int)] {
    countryEntries.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// The share of all entries `entries` is, in percent with one decimal: `"45.6%"`.
  func percent(_ entries: Int) -> String {
    guard total > 0 else { return "0.0%" }
    let tenths = Int((Double(entries) / Double(total) * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)%"
  }

  /// The histogram, one line per country code, most entries first:
  /// `+1    ##########################  1200  60.0%`; the longest bar is `width` columns and
  /// every nonempty country gets at least one `#`.
  func histogram(width: Int) -> [String] {
    let rows = countries
    guard let most = rows.first?.entries, most > 0 else { return ["no entries"] }
    let codeWidth = rows.map { String($0.code).count + 1 }.max() ?? 2
    let countWidth = rows.map { String($0.entries).count }.max() ?? 1
    return rows.map { row in
      // Doubles: counts may be near Int.max, where integer scaling would overflow.
      let length = max(1, Int((Double(row.entries) / Double(most) * Double(width)).rounded()))
      let bar = String(repeating: "#", count: length) + String(repeating: " ", count: width - length)
      return padRight("+\(row.code)", codeWidth) + "  " + bar + "  " + padLeft(String(row.entries), countWidth) + "  "
        + padLeft(percent(row.entries), 6)
    }
  }

  /// The histogram's figures as JSON: `{"file":…,"entries":N,"countries":[{"code":1,"entries":N,"percent":60.0}]}`.
  func histogramJSON(file: String) -> JSON.Value {
    .object([
      ("file", .string(Inputs.displayName(file))), ("entries", .int(total)), ("countries", countriesJSON),
    ])
  }

  /// The countries as a JSON array, most entries first.
  var countriesJSON: JSON.Value {
    .array(
      countries.map { row in
        let share = total == 0 ? 0 : (Double(row.entries) / Double(total) * 1000).rounded() / 10
        return .object([("code", .int(row.code)), ("entries", .int(row.entries)), ("percent", .double(share))])
      })
  }

  /// The top labels as a JSON array.
  var topLabelsJSON: JSON.Value {
    .array(topLabels().map { .object([("label", .string($0.label)), ("entries", .int($0.entries))]) })
  }

  private func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  private func padRight(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
