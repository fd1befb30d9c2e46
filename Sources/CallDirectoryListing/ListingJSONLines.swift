import CallDirectoryFormat

/// Reads and writes a listing as JSON Lines: one JSON object a line,
/// `{"kind":"block","number":"+12025550100"}` or
/// `{"kind":"identify","number":"+12025550100","label":"Acme Support"}`, a range's number being
/// `"+FIRST..+LAST"`.
///
/// The reader is strict and small on purpose: it accepts exactly this shape, not JSON at large,
/// so that a file which reads back is one a person can predict.
///
/// - Lines end with LF; a CR before the LF is dropped. Blank lines are skipped.
/// - Each line is one object of string members `kind` (`block` or `identify`), `number` (a number
///   or range under the given ``PhoneNumberParser``) and, for `identify` only, `label`
///   (1 ... 65,534 UTF-8 bytes). Any member order; whitespace between tokens is allowed; a
///   duplicate or unknown member, another value type and anything after the object are errors.
/// - Strings take the JSON escapes `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` and `\uXXXX`,
///   with surrogate pairs for characters beyond U+FFFF; a lone surrogate, a raw control
///   character and ill-formed UTF-8 are errors.
///
/// ```swift
/// var writer = ListingJSONLines.Writer()
/// try writer.append(.identify(12025550100, label: "Acme Support"))
/// let records = try ListingJSONLines.parse(bytes: writer.bytes, file: "list.jsonl", parser: .formatDomain)
/// print(records[0].label ?? "")  // Acme Support
/// ```
public enum ListingJSONLines {
  /// Parses `bytes`, handing each entry to `body` in input order.
  ///
  /// - Parameters:
  ///   - bytes: The whole input, UTF-8.
  ///   - file: The input's name for messages; `-` is shown as `<stdin>`.
  ///   - parser: How numbers are read; usually ``PhoneNumberParser/formatDomain``.
  ///   - atStart: Whether `bytes` begins the input; false for a later piece of an input read
  ///     in pieces, where a byte order mark is data rather than skipped.
  ///   - onBadLine: What to do with a line that cannot be read or that `body` refuses; when
  ///     `nil`, its error stops parsing and is rethrown.
  ///   - body: Called once per entry; an error it throws stops parsing and is rethrown.
  /// - Returns: The count of blank lines skipped.
  /// - Throws: ``ListingError`` at the first bad line, naming `file` and the line.
  /// - Complexity: O(*n*) in the input.
  @discardableResult
  public static func parse(
    bytes: [UInt8], file: String, parser: PhoneNumberParser, atStart: Bool = true, onBadLine: BadLineHandler? = nil,
    each body: (ListingRecord) throws(ListingError) -> Void
  ) throws(ListingError) -> Int {
    var skipped = 0
    var lines = TextLines(bytes, atStart: atStart)
    while let (range, line) = lines.next() {
      if JSONObjectLine.isBlank(bytes, range) {
        skipped += 1
      } else {
        do throws(ListingError) {
          let members: Members
          do { members = try Members(bytes, range) } catch {
            throw ListingError(file: file, line: line, message: error.message)
          }
          try body(record(members, parser: parser, file: file, line: line))
        } catch {
          // One object a line: a bad line never hides the next one.
          guard let onBadLine else { throw error }
          try onBadLine(error, withoutLineBreak(range, in: bytes), nil)
        }
      }
    }
    return skipped
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

  /// Turns one line's members into a record, checking which members each kind needs.
  private static func record(
    _ members: Members, parser: PhoneNumberParser, file: String, line: Int
  ) throws(ListingError) -> ListingRecord {
    guard let kind = members.kind else { throw ListingError(file: file, line: line, message: "missing \"kind\"") }
    guard let number = members.number else {
      throw ListingError(file: file, line: line, message: "missing \"number\"")
    }
    let numbers = try parseNumbers(number[...], with: parser, file: file, line: line)
    for unlabelled in [ListingKind.blocking, .exception] where kind.elementsEqual(unlabelled.rawValue.utf8) {
      if members.label != nil {
        throw ListingError(file: file, line: line, message: "\(unlabelled.rawValue) entry has a \"label\" (leave it out)")
      }
      return ListingRecord(kind: unlabelled, numbers: numbers, label: nil, line: line)
    }
    if kind.elementsEqual(ListingKind.identification.rawValue.utf8) {
      guard let label = members.label else {
        throw ListingError(file: file, line: line, message: "identify entry has no \"label\"")
      }
      let text = try parseLabel(label[...], file: file, line: line)
      return ListingRecord(kind: .identification, numbers: numbers, labelUTF8: text, line: line)
    }
    let shown = String(decoding: kind, as: UTF8.self)
    throw ListingError(
      file: file, line: line, message: "unknown kind \"\(shown)\" (expected \(ListingKind.expectedWords))")
  }

  /// The members of one object, as decoded UTF-8.
  private struct Members {
    var kind: [UInt8]?
    var number: [UInt8]?
    var label: [UInt8]?

    /// Reads one line's object: members `kind`, `number` and `label`, any other refused.
    init(_ bytes: [UInt8], _ range: Range<Int>) throws(JSONObjectLine.SyntaxError) {
      let values = try JSONObjectLine.members(of: bytes, in: range, names: ["kind", "number", "label"])
      (kind, number, label) = (values[0], values[1], values[2])
    }
  }

  /// Writes a listing as JSON Lines into a byte buffer, one object a line, in the members' order
  /// `kind`, `number`, `label`.
  ///
  /// Non-ASCII text is written as UTF-8; `"`, `\` and control characters are escaped
  /// (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`), so each object stays on one line.
  public struct Writer: ListingOutput {
    /// The bytes written and not yet flushed.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {
      bytes.reserveCapacity(ListingWriter.flushThreshold + 256)
    }

    /// Appends `{"kind":"block","number":"+FIRST..+LAST"}` (or a single number).
    ///
    /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` when an end is outside
    ///   `1 ... Int64.max - 1`; nothing is written then.
    public mutating func appendBlock(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
      try append(#"{"kind":"block","number":""#, numbers)
    }

    /// Appends `{"kind":"allow","number":"..."}`, an exception to blocking.
    ///
    /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` as ``appendBlock(_:)``.
    public mutating func appendException(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
      try append(#"{"kind":"allow","number":""#, numbers)
    }

    private mutating func append(_ unlabelledStart: String, _ numbers: ClosedRange<Int64>) throws(ListingRowError) {
      try ListingRowError.check(numbers)
      bytes.append(contentsOf: unlabelledStart.utf8)
      bytes.appendInternational(numbers)
      bytes.append(contentsOf: "\"}\n".utf8)
    }

    /// Appends `{"kind":"identify","number":"...","label":"..."}`.
    ///
    /// - Throws: ``ListingRowError`` when an end is outside `1 ... Int64.max - 1` or `label` does
    ///   not have 1 ... 65,534 UTF-8 bytes; nothing is written then.
    public mutating func appendIdentification(_ numbers: ClosedRange<Int64>, label: String) throws(ListingRowError) {
      try ListingRowError.check(numbers, label: label)
      bytes.append(contentsOf: #"{"kind":"identify","number":""#.utf8)
      bytes.appendInternational(numbers)
      bytes.append(contentsOf: #"","label":""#.utf8)
      for byte in label.utf8 {
        switch byte {
        case 0x22: bytes.append(contentsOf: #"\""#.utf8)
        case 0x5C: bytes.append(contentsOf: #"\\"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
        case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
        case 0..<0x20:
          let hex = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: #"\u00"#.utf8)
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0xF)])
        default: bytes.append(byte)
        }
      }
      bytes.append(contentsOf: "\"}\n".utf8)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func clear() {
      bytes.removeAll(keepingCapacity: true)
    }
  }
}
