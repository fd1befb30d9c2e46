// Checks shared by the CSV-based parsers, so both word their errors the same way.

import CallDirectoryFormat

extension ListingError {
  init(file: String, csv error: CSVError) {
    self.init(file: file, line: error.line, message: error.message)
  }
}

/// Whether `field` is `word` in any ASCII letter case; `word` must be lower-case ASCII.
func fieldMatches(_ field: ArraySlice<UInt8>, _ word: String) -> Bool {
  guard field.count == word.utf8.count else { return false }
  for (actual, expected) in zip(field, word.utf8) {
    let folded = actual >= 0x41 && actual <= 0x5A ? actual | 0x20 : actual
    if folded != expected { return false }
  }
  return true
}

/// Calls `body` with each non-blank CSV record of `bytes` after an optional first-record header
/// `words`: the record loop both CSV-based parsers share.
func forEachRecord(
  _ bytes: [UInt8], file: String, header words: [String], _ body: (CSVRecord) throws(ListingError) -> Void
) throws(ListingError) {
  var reader = CSVReader(bytes)
  var sawRecord = false
  while true {
    let next: CSVRecord?
    do { next = try reader.next() } catch { throw ListingError(file: file, csv: error) }
    guard let record = next else { return }
    if record.isBlank { continue }
    defer { sawRecord = true }
    if !sawRecord && isHeader(record, words) { continue }
    try body(record)
  }
}

/// Whether `record` is the header `words`, in any ASCII letter case.
func isHeader(_ record: CSVRecord, _ words: [String]) -> Bool {
  guard record.count == words.count else { return false }
  for (position, word) in words.enumerated() where !fieldMatches(record[position], word) { return false }
  return true
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

/// The label in `field`, or a located error when it is empty or longer than
/// `Limits.maximumLabelBytes`. The field is already known to be UTF-8.
func parseLabel(_ field: ArraySlice<UInt8>, file: String, line: Int) throws(ListingError) -> String {
  guard Limits.isValidLabelLength(field.count) else {
    let message =
      field.isEmpty
      ? "empty label (labels need \(Limits.minimumLabelBytes) to \(Limits.maximumLabelBytes) UTF-8 bytes)"
      : "label of \(field.count) UTF-8 bytes is too long (at most \(Limits.maximumLabelBytes))"
    throw ListingError(file: file, line: line, message: message)
  }
  return String(decoding: field, as: UTF8.self)
}
