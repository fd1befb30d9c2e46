/// Reads RFC 4180 CSV from bytes held in memory, one record at a time.
///
/// - Fields are separated by `,`; records end with LF or CRLF, and the last record may end
///   without either. An empty input, or one ending with a line break, has no empty last record.
/// - A field that begins with `"` is quoted: it ends at the next `"` that is not doubled, a `""`
///   inside it is a literal `"`, and it may hold commas, CR and LF (kept as they are). Only `,`,
///   LF or CRLF may follow its closing quote.
/// - A `"` inside a field that does not begin with one, and a CR outside quotes that is not part
///   of CRLF, are errors.
/// - A UTF-8 byte order mark at the very start is skipped. Every field must be well-formed
///   UTF-8.
/// - Spaces are data: nothing is trimmed.
///
/// Reading is a single pass, O(*n*) in the input; unquoted text is scanned a word at a time
/// (`FieldScan`). Fields are slices of the input; only quoted fields containing `""` are copied,
/// into a buffer reused across records.
///
/// ```swift
/// var reader = CSVReader(bytes)
/// while let record = try reader.next() { print(record.line, record.string(at: 0)) }
/// ```
public struct CSVReader: Sendable {
  private let input: [UInt8]
  /// Where the next record begins.
  private(set) var position: Int
  private var line = 1
  private var fields: [CSVRecord.Field] = []
  private var unescaped: [UInt8] = []

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
    self.position = atStart ? ByteOrderMark.length(atStartOf: input.span) : 0
  }

  /// The 1-based line at which the next record begins.
  public var currentLine: Int { line }

  /// Moves the reader on to `position`, where the record on `line` begins, past records its
  /// caller has read itself (`PlainLine`'s one-line records).
  /// - Precondition: `position` is not before the reader's own and at most the input's end.
  mutating func resume(at position: Int, line: Int) {
    precondition(position >= self.position && position <= input.count, "a position ahead of the reader")
    self.position = position
    self.line = line
  }

  /// Reads the next record, or returns `nil` at the end of the input.
  ///
  /// After an error the reader should not be used further.
  ///
  /// - Throws: ``CSVError`` for malformed CSV or UTF-8, with the line of the problem.
  /// - Complexity: O(*m*) in the length of the record.
  public mutating func next() throws(CSVError) -> CSVRecord? {
    let end = input.count
    if position >= end { return nil }
    let recordLine = line
    let recordStart = position
    fields.removeAll(keepingCapacity: true)
    unescaped.removeAll(keepingCapacity: true)
    var sawQuote = false

    fieldLoop: while true {
      let fieldLine = line
      var nonASCII = false
      if position < end && input[position] == quote {
        sawQuote = true
        let contentStart = position + 1
        var index = contentStart
        var segmentStart = contentStart
        var unescapedStart = -1
        while true {
          if index >= end { throw CSVError(kind: .unterminatedQuotedField, line: fieldLine) }
          let byte = input[index]
          if byte == quote {
            if index + 1 < end && input[index + 1] == quote {
              // The first `""` moves the field into the buffer; later text joins it there.
              if unescapedStart < 0 { unescapedStart = unescaped.count }
              unescaped.append(contentsOf: input[segmentStart...index])
              index += 2
              segmentStart = index
              continue
            }
            break
          }
          if byte == lineFeed {
            line += 1
          } else if byte >= 0x80 {
            nonASCII = true
          }
          index += 1
        }
        if nonASCII { try validate(contentStart..<index, line: fieldLine) }
        if unescapedStart >= 0 {
          unescaped.append(contentsOf: input[segmentStart..<index])
          fields.append(.init(range: unescapedStart..<unescaped.count, isUnescaped: true, isQuoted: true))
        } else {
          fields.append(.init(range: contentStart..<index, isUnescaped: false, isQuoted: true))
        }
        position = index + 1
        if position >= end { break fieldLoop }
        let next = input[position]
        if next == comma {
          position += 1
          continue fieldLoop
        }
        if next == lineFeed {
          position += 1
          line += 1
          break fieldLoop
        }
        if next == carriageReturn && position + 1 < end && input[position + 1] == lineFeed {
          position += 2
          line += 1
          break fieldLoop
        }
        throw CSVError(kind: .characterAfterClosingQuote(next), line: line)
      }

      let start = position
      let (index, pastASCII) = FieldScan.firstStop(in: input, from: start, to: end)
      if pastASCII { nonASCII = true }
      if index < end {
        let byte = input[index]
        if byte == comma {
          if nonASCII { try validate(start..<index, line: fieldLine) }
          fields.append(.init(range: start..<index, isUnescaped: false))
          position = index + 1
          continue fieldLoop
        }
        if byte == lineFeed || byte == carriageReturn {
          if byte == carriageReturn && !(index + 1 < end && input[index + 1] == lineFeed) {
            throw CSVError(kind: .bareCarriageReturn, line: line)
          }
          if nonASCII { try validate(start..<index, line: fieldLine) }
          fields.append(.init(range: start..<index, isUnescaped: false))
          position = index + (byte == lineFeed ? 1 : 2)
          line += 1
          break fieldLoop
        }
        throw CSVError(kind: .quoteInUnquotedField, line: line)  // the one stop byte left
      }
      if nonASCII { try validate(start..<index, line: fieldLine) }
      fields.append(.init(range: start..<index, isUnescaped: false))
      position = index
      break fieldLoop
    }

    return CSVRecord(
      line: recordLine, isBlank: !sawQuote && fields.count == 1 && isBlank(from: recordStart),
      input: input, unescaped: unescaped, fields: fields)
  }

  /// Whether the single unquoted field starting at `start` holds only spaces and tabs.
  private func isBlank(from start: Int) -> Bool {
    for byte in input[start..<fields[0].range.upperBound] where byte != 0x20 && byte != 0x09 { return false }
    return true
  }

  /// Throws ``CSVError/Kind/invalidUTF8`` with the line of the first bad byte in `range`,
  /// a field that began on `line`.
  private func validate(_ range: Range<Int>, line: Int) throws(CSVError) {
    guard let bad = input.firstInvalidUTF8Index(in: range) else { return }
    var badLine = line
    for byte in input[range.lowerBound..<bad] where byte == lineFeed { badLine += 1 }
    throw CSVError(kind: .invalidUTF8, line: badLine)
  }
}
