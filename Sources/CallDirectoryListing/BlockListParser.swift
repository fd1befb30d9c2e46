import CallDirectoryFormat

/// Reads a block list: a text file with one phone number per line.
///
/// - Lines end with LF; a CR before the LF is dropped. A UTF-8 byte order mark at the very
///   start is skipped.
/// - Spaces and tabs around a number are ignored. Blank lines, and lines whose first non-blank
///   character is `#`, are skipped. A `#` after a number is not a comment: it is a wildcard digit
///   of a pattern (`+1 202 555 01##`, see ``PhoneNumberParser/parseEntry(utf8:)``), so
///   `+12025550100 #` is the ten numbers `+120255501000` ... `+120255501009`, and
///   `+12025550100 # note` an error.
/// - Each number goes through the given ``PhoneNumberParser``.
///
/// Every record is `EntryKind.blocking` with a `nil` label and the line it came from.
///
///     let text = "# spam\n+1 202 555 0100\n+1 202 555 01##\n"
///     try BlockListParser.parse(bytes: Array(text.utf8), file: "spam.txt", parser: .formatDomain) { record in
///       print(record.line, record.numbers)  // 2 12025550100...12025550100, then 3 12025550100...12025550199
///     }
public enum BlockListParser {
  /// Parses `bytes`, handing each number to `body` in input order as a blocking
  /// ``ListingEntry`` (a block list has no labels): the form a pack reads, with no record made
  /// a line.
  ///
  /// - Parameters:
  ///   - bytes: The whole input, UTF-8.
  ///   - file: The input's name for messages; `-` is shown as `<stdin>`.
  ///   - parser: How numbers are read.
  ///   - atStart: Whether `bytes` begins the input; false for a later piece of an input read
  ///     in pieces, where a byte order mark is data rather than skipped.
  ///   - onBadLine: What to do with a line that cannot be read or that `body` refuses; when
  ///     `nil`, its error stops parsing and is rethrown.
  ///   - body: Called once per number; an error it throws stops parsing and is rethrown.
  /// - Throws: ``ListingError`` at the first bad line, naming `file`, the line and the text.
  /// - Returns: The count of blank and comment lines skipped.
  /// - Complexity: O(*n*) in the input; allocates nothing per line unless it throws.
  @discardableResult
  public static func forEachEntry(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, atStart: Bool = true, onBadLine: BadLineHandler? = nil,
    _ body: (ListingEntry) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    var skipped = 0
    var lines = TextLines(bytes, atStart: atStart)
    while let (range, line) = lines.next() {
      var first = range.lowerBound
      var last = range.upperBound
      while first < last && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
      while last > first && (bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) { last -= 1 }

      if first < last && bytes[first] != 0x23 {  // not blank, not a '#' comment
        do throws(ListingError) {
          // `+` and digits, most lines of a feed, read in place; anything else as a range or
          // through the general scan, which words the errors.
          let plain = unsafe bytes.withUnsafeBytes { raw in unsafe parser.international(in: raw, from: first, to: last) }
          let numbers: ClosedRange<Int64>
          if let plain {
            numbers = plain...plain
          } else {
            do throws(ListingError) {
              numbers = try parseNumbers(bytes[first..<last], with: parser, file: file, line: line)
            } catch {
              throw withTableHint(error, bytes[first..<last], parser: parser)
            }
          }
          try body(ListingEntry(kind: .blocking, numbers: numbers, line: line))
        } catch {
          guard let onBadLine else { throw error }
          try onBadLine(error, withoutLineBreak(range, in: bytes), nil)
        }
      } else {
        skipped += 1
      }
    }
    return skipped
  }

  /// `error` with a hint when `line` is a number and more fields after a comma or a tab: a
  /// `number,label` file given as a block list.
  private static func withTableHint(
    _ error: ListingError, _ line: ArraySlice<UInt8>, parser: PhoneNumberParser
  ) -> ListingError {
    guard let end = line.firstIndex(where: { $0 == comma || $0 == tab }),
      (try? parser.parseEntry(utf8: line[..<end])) != nil
    else { return error }
    var hinted = error
    hinted.message += "; a file of number,label lines is given with --identify"
    return hinted
  }

  /// Parses `bytes`, handing each number to `body` in input order as a ``ListingRecord``, as
  /// ``forEachEntry(bytes:file:parser:atStart:onBadLine:_:)`` does.
  ///
  /// - Throws: ``ListingError`` at the first bad line, naming `file`, the line and the text.
  /// - Returns: The count of blank and comment lines skipped.
  /// - Complexity: O(*n*) in the input.
  @discardableResult
  public static func parse(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, atStart: Bool = true, onBadLine: BadLineHandler? = nil,
    each body: (ListingRecord) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    try forEachEntry(bytes: bytes, file: file, parser: parser, atStart: atStart, onBadLine: onBadLine) {
      (entry) throws(ListingError) in
      try body(ListingRecord(kind: entry.kind, numbers: entry.numbers, labelUTF8: nil, line: entry.line))
    }
  }

  /// Parses `bytes` into an array of records.
  ///
  /// - Throws: ``ListingError`` at the first bad line.
  /// - Complexity: O(*n*) in the input.
  public static func parse(bytes: [UInt8], file: String, parser: PhoneNumberParser) throws(ListingError)
    -> [ListingRecord]
  {
    var records: [ListingRecord] = []
    try parse(bytes: bytes, file: file, parser: parser) { records.append($0) }
    return records
  }
}
