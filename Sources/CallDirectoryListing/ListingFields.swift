// Checks shared by the CSV-based parsers, so both word their errors the same way.

import CallDirectoryFormat

extension ListingError {
  init(file: String, csv error: CSVError) {
    self.init(file: file, line: error.line, message: error.message)
  }
}

/// The column `field` names in a header, or `nil`: `kind`, `number` or `label`, or one of the
/// other names exports give them (`Spec/INPUT.md` 3.1), compared in any ASCII letter case with
/// spaces, tabs, `_` and `-` left out, so `Phone Number`, `phone_number` and ` label` all match.
func columnName(_ field: ArraySlice<UInt8>) -> String? {
  var folded: [UInt8] = []
  for byte in field where byte != 0x20 && byte != 0x09 && byte != 0x5F && byte != 0x2D {
    guard folded.count < longestColumnName else { return nil }
    folded.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
  }
  return columnNamesByWord.first { $0.words.contains(folded) }?.column
}

/// Each column and the words a header may name it by, folded as ``columnName(_:)`` folds them.
/// Only names that cannot mean another column: `caller id`, for one, is a number in one export
/// and a name in the next.
private let columnNamesByWord: [(column: String, words: [[UInt8]])] = [
  ("kind", ["kind"]),
  ("number", ["number", "phone", "phonenumber", "telephone", "msisdn"]),
  ("label", ["label", "name"]),
].map { column, words in (column, words.map { Array($0.utf8) }) }

/// The longest word of ``columnNamesByWord``: a longer field is no column's name.
private let longestColumnName = 11

/// Where a header put each column: the positions of `kind`, `number` and `label`, and how many
/// fields every record after it must have.
struct Columns: Equatable {
  var kind: Int?
  var number: Int
  var label: Int?
  var count: Int

  /// A listing's own header, `kind,number,label`.
  static let listing = Columns(kind: 0, number: 1, label: 2, count: 3)
  /// An identify file's own header, `number,label`.
  static let identification = Columns(kind: nil, number: 0, label: 1, count: 2)
}

/// Calls `body` with each non-blank record of `bytes`, read as `format`, after an optional
/// first-record header naming columns from `known`: the record loop both table parsers share.
/// `body` gets the header's columns, or `nil` when there was none and positions apply. With
/// `trailingLabelOptional`, a record may leave out a label column that comes last (a listing's
/// block rows, `block,+12025550100`).
///
/// Past the header, a CSV record is first offered to `plainLine` with where it begins, its line
/// and the columns: it reads a plain line itself (`PlainLine`), hands its entry on and returns
/// where the next line begins, or returns `nil` and the general reader reads the record.
///
/// - Returns: The count of blank and comment lines skipped.
@discardableResult
func forEachRecord(
  _ bytes: [UInt8], file: String, format: TableFormat, known: [String], required: [String],
  trailingLabelOptional: Bool = false, parser: PhoneNumberParser, state: inout TableReadState,
  onBadLine: BadLineHandler? = nil,
  plainLine: (_ start: Int, _ line: Int, _ columns: Columns?) throws(ListingError) -> Int? = { _, _, _ in nil },
  _ body: (CSVRecord, Columns?) throws(ListingError) -> Void
) throws(ListingError) -> Int {
  // Two optionals rather than an enum, so that `next()` mutates the reader in place.
  var csv = format == .csv ? CSVReader(bytes, atStart: state.atStart) : nil
  var tsv = format == .tsv ? TSVReader(bytes, atStart: state.atStart) : nil
  state.atStart = false
  var sawRecord: Bool {
    get { state.sawRecord }
    set { state.sawRecord = newValue }
  }
  var columns: Columns? {
    get { state.columns }
    set { state.columns = newValue }
  }
  var blank = 0
  // `#` begins a comment line, as in a block list, wherever it cannot begin data: in any column
  // but a label (a number or a kind never begins with `#`), so not after a header that puts the
  // label first.
  var commentsAllowed: Bool { columns?.label != 0 }
  while true {
    if commentsAllowed, let start = csv?.position, let line = csv?.currentLine, startsComment(bytes, at: start) {
      // Read as a line, not as CSV: a comment's quotes are no field's.
      let end = bytes[start...].firstIndex(of: lineFeed).map { $0 + 1 } ?? bytes.count
      csv?.resume(at: end, line: line &+ 1)
      blank += 1
      continue
    }
    if sawRecord, let start = csv?.position, let line = csv?.currentLine {
      do throws(ListingError) {
        if let next = try plainLine(start, line, columns) {
          csv?.resume(at: next, line: line &+ 1)  // a plain line is one line; lines are counted below Int.max
          continue
        }
      } catch {
        // A plain line is one line: the bad one ends at its LF.
        guard let onBadLine else { throw error }
        let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        try onBadLine(error, withoutLineBreak(start..<end, in: bytes), state.headerLine)
        csv?.resume(at: end, line: line &+ 1)
        continue
      }
    }
    let recordStart = csv?.position ?? 0
    let next: CSVRecord?
    do throws(CSVError) { next = csv != nil ? try csv?.next() ?? nil : try tsv?.next() ?? nil } catch {
      throw ListingError(file: file, csv: error)
    }
    guard let record = next else { return blank }
    let recordRange = csv.map { withoutLineBreak(recordStart..<$0.position, in: bytes) } ?? tsv?.lastRecordRange ?? 0..<0
    if record.isBlank || (tsv != nil && commentsAllowed && startsComment(bytes, at: recordRange.lowerBound)) {
      blank += 1
      continue
    }
    if !sawRecord {
      sawRecord = true
      columns = try header(record, known: known, required: required, parser: parser, file: file)
      if columns != nil {
        state.headerLine = Array(bytes[recordRange])
        continue
      }
    }
    do throws(ListingError) {
      if let columns, record.count != columns.count,
        !(trailingLabelOptional && columns.label == columns.count - 1 && record.count == columns.count - 1)
      {
        throw ListingError(
          file: file, line: record.line,
          message:
            "expected \(columns.count) fields, as the header names, found \(record.count)\(separatorHint(record, format: format))"
        )
      }
      try body(record, columns)
    } catch {
      guard let onBadLine else { throw error }
      try onBadLine(error, recordRange, state.headerLine)
    }
  }
}

/// Whether the line at `start` is a comment: its first byte that is not a space or a tab is `#`.
private func startsComment(_ bytes: [UInt8], at start: Int) -> Bool {
  // By index, not through a slice: this runs once a record.
  var index = start
  while index < bytes.count && isSpaceOrTab(bytes[index]) { index += 1 }
  return index < bytes.count && bytes[index] == 0x23
}

/// Where a table input read in pieces stands between pieces (each piece ending where a record
/// does): whether the next piece begins the input, whether its first record (a header or not)
/// was read, and the columns a header named. A fresh state reads a whole input.
///
///     var state = TableReadState()
///     var reader = try LineReader(path: "names.csv", quotedFields: true)
///     while let (piece, _) = try reader.nextPiece(size: 8 << 20) {
///       try IdentifyCSVParser.forEachEntry(
///         bytes: piece, file: "names.csv", parser: .formatDomain, format: .csv, state: &state
///       ) { entry, _ in print(entry.numbers) }
///     }
public struct TableReadState: Sendable {
  var atStart = true
  var sawRecord = false
  var columns: Columns?

  /// The state before the first piece.
  public init() {}

  /// The input's header line, when its first record named its columns.
  public internal(set) var headerLine: [UInt8]?
}

/// The columns `record` names when it is a header: some field is a column's name
/// (``columnName(_:)``) and none is a number or range, which tells a header from data whose label happens to
/// be `Label`. Every field of a header must then be one of `known`, once, with `required` all
/// present.
func header(
  _ record: CSVRecord, known: [String], required: [String], parser: PhoneNumberParser, file: String
) throws(ListingError) -> Columns? {
  let names = (0..<record.count).map { columnName(record[$0]) }
  guard names.contains(where: { $0 != nil }) else { return nil }
  for index in 0..<record.count where (try? parser.parseEntry(utf8: record[index])) != nil { return nil }
  let line = record.line
  let unknown = (0..<record.count).filter { names[$0].map { !known.contains($0) } ?? true }
  // A field with a digit in it is a number the parser refused rather than a column's name: data
  // whose label happens to be `Label` gets its number's error, not a header's.
  if let index = unknown.first(where: { record[$0].contains { $0 &- 0x30 <= 9 } }) {
    _ = try parseNumbers(record[index], with: parser, file: file, line: line)
  }
  if !unknown.isEmpty {
    let shown = unknown.map { "\"\(record.string(at: $0))\"" }.joined(separator: ", ")
    throw ListingError(
      file: file, line: line,
      message: "unknown column\(unknown.count == 1 ? "" : "s") \(shown) in the header (known: \(known.joined(separator: ", ")))")
  }
  var positions: [String: Int] = [:]
  for (index, name) in names.enumerated() {
    guard let name else { continue }
    if positions[name] != nil {
      throw ListingError(file: file, line: line, message: "column \"\(name)\" named twice in the header")
    }
    positions[name] = index
  }
  for name in required where positions[name] == nil {
    throw ListingError(file: file, line: line, message: "the header has no \"\(name)\" column")
  }
  guard let number = positions["number"] else {
    throw ListingError(file: file, line: line, message: "the header has no \"number\" column")
  }
  return Columns(kind: positions["kind"], number: number, label: positions["label"], count: record.count)
}

/// A hint for a record of one field that holds another separator than `format`'s: a file
/// separated by semicolons (spreadsheets in many locales write them), or CSV read as TSV and
/// TSV as CSV.
func separatorHint(_ record: CSVRecord, format: TableFormat) -> String {
  guard record.count == 1 else { return "" }
  switch format {
  case .csv:
    if record[0].contains(tab) { return "; fields are separated by commas, and a tab-separated file is read with --format tsv" }
    if record[0].contains(semicolon) { return "; fields are separated by commas, not semicolons" }
  case .tsv:
    if record[0].contains(comma) { return "; fields are separated by tabs, and a comma-separated file is read with --format csv" }
    if record[0].contains(semicolon) { return "; fields are separated by tabs, not semicolons" }
  }
  return ""
}

/// The number or range in `field` (see `PhoneNumberParser.parseEntry(utf8:)`), or a located error
/// quoting the parser's message.
func parseNumbers(
  _ field: ArraySlice<UInt8>, with parser: PhoneNumberParser, file: String, line: Int
) throws(ListingError) -> ClosedRange<Int64> {
  do {
    return try parser.parseEntry(utf8: field)
  } catch {
    throw ListingError(file: file, line: line, message: error.description)
  }
}

/// The number in `field`, or a located error quoting the parser's message.
func parseNumber(
  _ field: ArraySlice<UInt8>, with parser: PhoneNumberParser, file: String, line: Int
) throws(ListingError) -> Int64 {
  do {
    return try parser.parse(utf8: field)
  } catch {
    throw ListingError(file: file, line: line, message: error.description)
  }
}

/// The label in field `index` of `record`, or a located error as ``parseLabel(_:file:line:)``
/// gives. An unquoted label loses the spaces and tabs around it, which exports write after a
/// comma (`+12025550100, Acme`) and nobody means; a quoted one is kept as it is, which is how a
/// label that begins or ends with a space is written (`Spec/INPUT.md` 2).
func parseLabel(_ record: CSVRecord, at index: Int, file: String) throws(ListingError) -> ArraySlice<UInt8> {
  let field = record[index]
  return try parseLabel(record.isQuoted(index) ? field : trimmingBlanks(field), file: file, line: record.line)
}

/// The label in `field`, as it is, or a located error when it is empty or longer than
/// `Limits.maximumLabelBytes`. The field is already known to be UTF-8.
func parseLabel(_ field: ArraySlice<UInt8>, file: String, line: Int) throws(ListingError) -> ArraySlice<UInt8> {
  guard Limits.isValidLabelLength(field.count) else {
    let message =
      field.isEmpty
      ? "empty label (labels need \(Limits.minimumLabelBytes) to \(Limits.maximumLabelBytes) UTF-8 bytes)"
      : "label of \(field.count) UTF-8 bytes is too long (at most \(Limits.maximumLabelBytes))"
    throw ListingError(file: file, line: line, message: message)
  }
  return field
}
