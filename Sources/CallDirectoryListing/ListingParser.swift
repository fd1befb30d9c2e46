import CallDirectoryFormat

/// Reads a listing: the RFC 4180 CSV (see ``CSVReader``) that ``ListingWriter`` writes, with
/// records `kind,number,label`.
///
/// - The first record may be a header: some field names a column (`kind`, `number`, `label`, or
///   another name of one, `Spec/INPUT.md` 3.1) and none is a number. A header names `kind` and
///   `number`, and optionally `label`, in any order and nothing else; the records after it follow
///   its order. Without a header, fields are positional. Blank lines are skipped, and so are `#`
///   comment lines unless a header puts the label first. With ``TableFormat/tsv`` fields are
///   tab-separated (``TSVReader``).
/// - `kind` is exactly `block`, `identify` or `allow` (lower case; spaces around it unquoted are
///   dropped).
/// - A `block` record has two fields, or three with an empty label.
/// - An `identify` record has three fields; the label, without the spaces and tabs around it
///   unless quoted, must be 1 ... 65,534 UTF-8 bytes (`Limits.isValidLabelLength`).
/// - Numbers go through the given parser. To read back every number a call directory can hold
///   (`+1` ... `+9223372036854775806`), pass ``PhoneNumberParser/formatDomain``.
///
///     let text = "kind,number,label\nblock,+33612345678,\nidentify,+12025550100,Pharmacy\n"
///     try ListingParser.parse(bytes: Array(text.utf8), file: "list.csv", parser: .formatDomain) { record in
///       print(record.kind, record.number, record.label ?? "")
///     }
public enum ListingParser {
  /// The header words, in order.
  static let header = ["kind", "number", "label"]
  /// The kinds' words as bytes, compared with each record's first field.
  private static let blockWord = Array(ListingKind.blocking.rawValue.utf8)
  private static let identifyWord = Array(ListingKind.identification.rawValue.utf8)
  private static let allowWord = Array(ListingKind.exception.rawValue.utf8)

  /// Parses `bytes`, handing each entry to `body` in input order.
  ///
  /// - Parameters:
  ///   - bytes: The whole input, UTF-8.
  ///   - file: The input's name for messages; `-` is shown as `<stdin>`.
  ///   - parser: How numbers are read; usually ``PhoneNumberParser/formatDomain``.
  ///   - format: CSV, or tab-separated values.
  ///   - body: Called once per entry; an error it throws stops parsing and is rethrown.
  /// - Throws: ``ListingError`` at the first problem: malformed CSV or UTF-8, a wrong field
  ///   count, an unknown kind, a bad number, a block entry with a label, an identify entry
  ///   without a valid label.
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
      let label = entry.kind == .identification ? bytes[entry.label] : nil
      try body(ListingRecord(kind: entry.kind, numbers: entry.number...entry.number, labelUTF8: label, line: line))
    }
  }

  /// Parses `bytes` as ``parse(bytes:file:parser:format:each:)`` does, handing each entry to
  /// `body` with its label's UTF-8 bytes lent as a span of `bytes` (empty for a blocking entry),
  /// valid for the call: no record is made and no reference counted a line, the form a pack
  /// reads millions of lines in.
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
      bytes, file: file, format: format, known: header, required: ["kind", "number"],
      trailingLabelOptional: true, parser: parser, state: &state,
      onBadLine: onBadLine,
      plainLine: { (start, line, columns) throws(ListingError) in
        // Positional fields, or a header that names them in their own order.
        guard columns == nil || columns == .listing, let entry = PlainLine.listing(bytes, at: start, parser: parser) else {
          return nil
        }
        try plain(entry, line)
        return entry.next
      }
    ) { (record, columns) throws(ListingError) in
      if let columns, let kind = columns.kind {
        let label = columns.label.flatMap { $0 < record.count ? $0 : nil }
        try general(entry(record, kind: kind, number: columns.number, label: label, parser: parser, file: file))
        return
      }
      guard record.count == 2 || record.count == 3 else {
        let message = "expected 3 fields (kind,number,label), found \(record.count)\(separatorHint(record, format: format))"
        throw ListingError(file: file, line: record.line, message: message)
      }
      try general(entry(record, kind: 0, number: 1, label: record.count == 3 ? 2 : nil, parser: parser, file: file))
    }
  }

  /// One record from its fields at the positions given; `label` is `nil` when the record has no
  /// label field. The kind and an empty label are read in place: a slice of each field a line
  /// would cost two reference counts more.
  private static func entry(
    _ record: CSVRecord, kind: Int, number: Int, label: Int?, parser: PhoneNumberParser, file: String
  ) throws(ListingError) -> ListingRecord {
    let line = record.line
    for (word, unlabelled) in [(blockWord, ListingKind.blocking), (allowWord, .exception)] where record.field(kind, equals: word)
    {
      let numbers = try parseNumbers(record[number], with: parser, file: file, line: line)
      if let label, !record.fieldIsBlank(label) {
        throw ListingError(
          file: file, line: line, message: "\(unlabelled.rawValue) entry has a label (leave the label field empty)")
      }
      return ListingRecord(kind: unlabelled, numbers: numbers, label: nil, line: line)
    }
    if record.field(kind, equals: identifyWord) {
      let numbers = try parseNumbers(record[number], with: parser, file: file, line: line)
      guard let label else {
        throw ListingError(file: file, line: line, message: "identify entry has no label field")
      }
      let text = try parseLabel(record, at: label, file: file)
      return ListingRecord(kind: .identification, numbers: numbers, labelUTF8: text, line: line)
    }
    let shown = record.string(at: kind)
    // A number first, where the kind goes: the file is most likely a list of numbers, or of
    // numbers and labels, given where a listing goes. (Under a header that puts the kind
    // elsewhere, a number in its place is a row out of the header's order instead.)
    let hint =
      kind != 0 || (try? parser.parseEntry(utf8: record[kind])) == nil
      ? "" : "; a file of number,label lines is given with --identify, one of numbers with --block"
    throw ListingError(
      file: file, line: line, message: "unknown kind \"\(shown)\" (expected \(ListingKind.expectedWords))\(hint)")
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
