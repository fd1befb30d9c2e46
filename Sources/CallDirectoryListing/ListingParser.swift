import CallDirectoryFormat

/// Reads a listing: the RFC 4180 CSV (see ``CSVReader``) that ``ListingWriter`` writes, with
/// records `kind,number,label`.
///
/// - The first non-blank record is skipped when it is the header `kind,number,label` in any
///   letter case. Blank lines are skipped.
/// - `kind` is exactly `block` or `identify` (lower case, as written): the raw values of
///   `EntryKind`.
/// - A `block` record has two fields, or three with an empty label.
/// - An `identify` record has three fields; the label is taken verbatim and must be
///   1 ... 65,534 UTF-8 bytes (`Limits.isValidLabelLength`).
/// - Numbers go through the given parser. To read back every number a call directory can hold
///   (`+1` ... `+9223372036854775806`), pass ``PhoneNumberParser/formatDomain``.
public enum ListingParser {
  /// The header words, in order.
  static let header = ["kind", "number", "label"]

  /// Parses `bytes`, handing each entry to `body` in input order.
  ///
  /// - Parameters:
  ///   - bytes: The whole input, UTF-8.
  ///   - file: The input's name for messages; `-` is shown as `<stdin>`.
  ///   - parser: How numbers are read; usually ``PhoneNumberParser/formatDomain``.
  ///   - body: Called once per entry; an error it throws stops parsing and is rethrown.
  /// - Throws: ``ListingError`` at the first problem: malformed CSV or UTF-8, a wrong field
  ///   count, an unknown kind, a bad number, a block entry with a label, an identify entry
  ///   without a valid label.
  /// - Complexity: O(*n*) in the input; allocates one String per label.
  public static func parse(
    bytes: [UInt8], file: String, parser: PhoneNumberParser,
    each body: (ListingRecord) throws(ListingError) -> Void
  ) throws(ListingError) {
    try forEachRecord(bytes, file: file, header: header) { (record) throws(ListingError) in
      let line = record.line
      guard record.count == 2 || record.count == 3 else {
        throw ListingError(
          file: file, line: line, message: "expected 3 fields (kind,number,label), found \(record.count)")
      }
      let kindField = record[0]
      if kindField.elementsEqual(EntryKind.blocking.rawValue.utf8) {
        let numbers = try parseNumbers(record[1], with: parser, file: file, line: line)
        if record.count == 3 && !record[2].isEmpty {
          throw ListingError(file: file, line: line, message: "block entry has a label (leave the label field empty)")
        }
        try body(ListingRecord(kind: .blocking, numbers: numbers, label: nil, line: line))
      } else if kindField.elementsEqual(EntryKind.identification.rawValue.utf8) {
        let numbers = try parseNumbers(record[1], with: parser, file: file, line: line)
        guard record.count == 3 else {
          throw ListingError(file: file, line: line, message: "identify entry has no label field")
        }
        let label = try parseLabel(record[2], file: file, line: line)
        try body(ListingRecord(kind: .identification, numbers: numbers, label: label, line: line))
      } else {
        let shown = String(decoding: kindField, as: UTF8.self)
        throw ListingError(
          file: file, line: line, message: "unknown kind \"\(shown)\" (expected \"block\" or \"identify\")")
      }
    }
  }

  /// Parses `bytes` into an array of records.
  ///
  /// - Throws: ``ListingError`` at the first problem.
  /// - Complexity: O(*n*) in the input.
  public static func parse(bytes: [UInt8], file: String, parser: PhoneNumberParser) throws(ListingError)
    -> [ListingRecord]
  {
    var records: [ListingRecord] = []
    try parse(bytes: bytes, file: file, parser: parser) { records.append($0) }
    return records
  }
}
