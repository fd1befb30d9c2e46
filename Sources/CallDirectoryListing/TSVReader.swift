/// Which text table an identify or listing input is: RFC 4180 CSV, or tab-separated values.
///
///     let format = TableFormat(rawValue: "tsv") ?? .csv
///     try IdentifyCSVParser.parse(bytes: bytes, file: "names.tsv", parser: .formatDomain, format: format) { record in
///       print(record.number)
///     }
public enum TableFormat: String, Sendable, CaseIterable {
  /// RFC 4180 CSV (see ``CSVReader``).
  case csv
  /// Tab-separated values (see ``TSVReader``).
  case tsv
}

/// Reads tab-separated values from bytes held in memory, one record a line.
///
/// - Fields are separated by a tab; records end with LF, a CR before the LF being dropped; the
///   last record may end without either. There is no quoting: a tab or a line break cannot occur
///   inside a field, and `"` is an ordinary character.
/// - A UTF-8 byte order mark at the very start is skipped. Every line must be well-formed UTF-8.
/// - Spaces are data: nothing is trimmed.
///
/// ```swift
/// var reader = TSVReader(bytes)
/// while let record = try reader.next() { print(record.line, record.string(at: 0)) }
/// ```
public struct TSVReader: Sendable {
  private let input: [UInt8]
  private var lines: TextLines
  /// The bytes of the record `next()` read last, without its line break.
  private(set) var lastRecordRange = 0..<0

  /// Creates a reader over `input`, skipping a leading UTF-8 byte order mark.
  ///
  /// - Complexity: O(1); the input is shared, not copied.
  public init(_ input: [UInt8]) {
    self.init(input, atStart: true)
  }

  /// Creates a reader over `input`, which begins the input when `atStart` is true (a leading
  /// byte order mark is then skipped) and is a later piece of an input read in pieces when it
  /// is false (a byte order mark is then data).
  ///
  /// - Complexity: O(1); the input is shared, not copied.
  public init(_ input: [UInt8], atStart: Bool) {
    self.input = input
    lines = TextLines(input, atStart: atStart)
  }

  /// Reads the next record, or returns `nil` at the end of the input.
  ///
  /// - Throws: ``CSVError`` with kind ``CSVError/Kind/invalidUTF8`` for a line that is not
  ///   well-formed UTF-8, or ``CSVError/Kind/bareCarriageReturn`` for a CR not before the LF.
  /// - Complexity: O(*m*) in the length of the line.
  public mutating func next() throws(CSVError) -> CSVRecord? {
    guard let (range, line) = lines.next() else { return nil }
    lastRecordRange = range
    let (position, last) = (range.lowerBound, range.upperBound)
    if input[position..<last].contains(0x0D) { throw CSVError(kind: .bareCarriageReturn, line: line) }
    if input.firstInvalidUTF8Index(in: position..<last) != nil { throw CSVError(kind: .invalidUTF8, line: line) }
    var fields: [CSVRecord.Field] = []
    var fieldStart = position
    var blank = true
    for index in position..<last {
      let byte = input[index]
      if byte == 0x09 {
        fields.append(.init(range: fieldStart..<index, isUnescaped: false))
        fieldStart = index + 1
        blank = false
      } else if byte != 0x20 {
        blank = false
      }
    }
    fields.append(.init(range: fieldStart..<last, isUnescaped: false))
    return CSVRecord(line: line, isBlank: blank, input: input, unescaped: [], fields: fields)
  }
}
