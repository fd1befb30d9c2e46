import CallDirectoryFormat

/// Reads an identification list: RFC 4180 CSV (see ``CSVReader``) of `number,label` records.
///
/// - Every record has exactly two fields, `number,label`, unless the first record is a header:
///   some field names the number or the label column (`number`, `Phone Number`, `label`, `Name`:
///   `Spec/INPUT.md` 3.1) and none is a number. A header names both columns, in any order, and
///   nothing else; the records after it follow its order.
///   Blank lines are skipped, and so are `#` comment lines unless a header puts the label first.
///   With ``TableFormat/tsv`` fields are tab-separated (``TSVReader``).
/// - The number goes through the given ``PhoneNumberParser``, which ignores spaces around it.
/// - The label loses the spaces and tabs around it unless it is quoted, and must then be
///   1 ... 65,534 UTF-8 bytes (`Limits.isValidLabelLength`); labels with commas, quotes or line
///   breaks must be quoted.
///
/// Every record is `EntryKind.identification` with the line on which its CSV record begins.
///
///     let text = "label,number\nAcme Support,+12025550123\n"
///     try IdentifyCSVParser.parse(bytes: Array(text.utf8), file: "names.csv", parser: .formatDomain) { record in
///       print(record.number, record.label ?? "")  // 12025550123 Acme Support
///     }
public enum IdentifyCSVParser {
  /// The header words, in order.
  static let header = ["number", "label"]

  /// Parses `bytes`, handing each entry to `body` in input order.
  ///
  /// - Parameters:
  ///   - bytes: The whole input, UTF-8.
  ///   - file: The input's name for messages; `-` is shown as `<stdin>`.
  ///   - parser: How numbers are read.
  ///   - format: CSV, or tab-separated values.
  ///   - body: Called once per entry; an error it throws stops parsing and is rethrown.
  /// - Throws: ``ListingError`` at the first problem: malformed CSV or UTF-8, a record without
  ///   exactly two fields, a bad number, an empty or over-long label.
  /// - Returns: The count of blank lines skipped.
  /// - Complexity: O(*n*) in the input; labels are slices of the input.
  @discardableResult
  public static func parse(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, format: TableFormat = .csv,
    each body: (ListingRecord) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    var state = TableReadState()
    return try read(bytes, file: file, parser: parser, format: format, state: &state, general: body) {
      (entry, line) throws(ListingError) in
      let numbers = entry.number...entry.number
      try body(ListingRecord(kind: .identification, numbers: numbers, labelUTF8: bytes[entry.label], line: line))
    }
  }

  /// Parses `bytes` as ``parse(bytes:file:parser:format:each:)`` does, handing each entry to
  /// `body` with its label's UTF-8 bytes lent as a span of the input, valid for the call (see
  /// ``ListingParser/forEachEntry(bytes:file:parser:format:_:)``).
  ///
  /// - Throws: ``ListingError`` at the first problem, as the records' form does.
  /// - Returns: The count of blank lines skipped.
  /// - Complexity: O(*n*) in the input.
  @discardableResult
  public static func forEachEntry(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, format: TableFormat = .csv,
    _ body: (ListingEntry, Span<UInt8>) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    var state = TableReadState()
    return try forEachEntry(bytes: bytes, file: file, parser: parser, format: format, state: &state, body)
  }

  /// Parses `bytes`, one piece of an input read in pieces that each end where a record does,
  /// as ``forEachEntry(bytes:file:parser:format:_:)`` parses a whole input: `state` carries
  /// the header from piece to piece. Line numbers count from the piece's first line.
  ///
  /// A line that cannot be read, or that `body` refuses, goes to `onBadLine` when it is given
  /// (``BadLineHandler``), which skips it or stops.
  ///
  /// - Throws: ``ListingError`` at the first problem.
  /// - Returns: The count of blank lines skipped.
  /// - Complexity: O(*n*) in the piece.
  @discardableResult
  public static func forEachEntry(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, format: TableFormat, state: inout TableReadState,
    onBadLine: BadLineHandler? = nil, _ body: (ListingEntry, Span<UInt8>) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    try read(
      bytes, file: file, parser: parser, format: format, state: &state, onBadLine: onBadLine,
      general: { (record) throws(ListingError) in try record.lend(body) }
    ) {
      (entry, line) throws(ListingError) in try entry.lend(from: bytes, line: line, to: body)
    }
  }

  /// The loop both forms share: a plain line goes to `plain` with its line, any other record is
  /// read by the general reader into a record for `general`.
  private static func read(
    _ bytes: [UInt8], file: String, parser: PhoneNumberParser, format: TableFormat, state: inout TableReadState,
    onBadLine: BadLineHandler? = nil,
    general: (ListingRecord) throws(ListingError) -> Void, plain: (PlainLine.Entry, Int) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    try forEachRecord(
      bytes, file: file, format: format, known: header, required: header, parser: parser, state: &state,
      onBadLine: onBadLine,
      plainLine: { (start, line, columns) throws(ListingError) in
        guard columns == nil || columns == .identification,
          let entry = PlainLine.identification(bytes, at: start, parser: parser)
        else { return nil }
        try plain(entry, line)
        return entry.next
      }
    ) { (record, columns) throws(ListingError) in
      if let columns, let label = columns.label {
        let numbers = try parseNumbers(record[columns.number], with: parser, file: file, line: record.line)
        let text = try parseLabel(record, at: label, file: file)
        try general(ListingRecord(kind: .identification, numbers: numbers, labelUTF8: text, line: record.line))
        return
      }
      guard record.count == 2 else {
        // TSV has no quoting: a label cannot hold a tab at all (Spec/INPUT.md 3.2).
        let many = format == .csv ? "; quote labels that contain commas" : "; a label cannot contain a tab"
        let hint = record.count > 2 ? many : separatorHint(record, format: format)
        throw ListingError(
          file: file, line: record.line,
          message: "expected 2 fields (number,label), found \(record.count)\(hint)")
      }
      let numbers = try parseNumbers(record[0], with: parser, file: file, line: record.line)
      let label = try parseLabel(record, at: 1, file: file)
      try general(ListingRecord(kind: .identification, numbers: numbers, labelUTF8: label, line: record.line))
    }
  }

  /// Parses `bytes` into an array of records.
  ///
  /// - Throws: ``ListingError`` at the first problem.
  /// - Complexity: O(*n*) in the input.
  public static func parse(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, format: TableFormat = .csv
  ) throws(ListingError) -> [ListingRecord] {
    var records: [ListingRecord] = []
    try parse(bytes: bytes, file: file, parser: parser, format: format) { records.append($0) }
    return records
  }
}
