/// One record of a CSV input: its fields, without quotes and with `""` turned into `"`, and the
/// line where it begins.
///
/// A record refers to the reader's input rather than copying it; fields are `ArraySlice`s of that
/// input, or of a small buffer for quoted fields that contained doubled quotes. Every field has
/// been checked to be well-formed UTF-8.
///
///     var reader = CSVReader(Array("number,label\n+12025550100,\"Acme, Inc.\"\n".utf8))
///     while let record = try reader.next() {
///       print(record.line, record.count, record.string(at: 1))  // 1 2 label, then 2 2 Acme, Inc.
///     }
public struct CSVRecord: Sendable {
  /// Where one field's bytes are: a range of the input, or of the unescaped-field buffer.
  struct Field: Sendable {
    var range: Range<Int>
    var isUnescaped: Bool
    /// Whether the field was written in quotes (a CSV field beginning with `"`).
    var isQuoted = false
  }

  /// The 1-based line on which the record begins.
  public let line: Int
  /// Whether the record is a blank line: empty, or only spaces and tabs, without quotes.
  public let isBlank: Bool
  /// The count of fields; at least 1 (an empty line is one empty field).
  public let count: Int
  let input: [UInt8]
  let unescaped: [UInt8]
  /// The first three fields, held in the record: a listing's `kind,number,label` then costs no
  /// array of its own a line (two reference counts fewer). Unused places are empty.
  private let inline: (Field, Field, Field)
  /// Every field, when there are more than three; else empty.
  private let overflow: [Field]

  /// A record of `fields` (at least one), which the record copies: the reader reuses its array.
  init(line: Int, isBlank: Bool, input: [UInt8], unescaped: [UInt8], fields: [Field]) {
    self.line = line
    self.isBlank = isBlank
    self.input = input
    // Most records have no doubled quote: an empty array then, not a share of the reader's buffer.
    self.unescaped = unescaped.isEmpty ? [] : unescaped
    count = fields.count
    let none = Field(range: 0..<0, isUnescaped: false)
    inline = (fields[0], fields.count > 1 ? fields[1] : none, fields.count > 2 ? fields[2] : none)
    overflow = fields.count > 3 ? fields : []
  }

  /// Where field `index` is. Precondition: `0 <= index < count`.
  private func place(_ index: Int) -> Field {
    precondition(index >= 0 && index < count, "field \(index) of a record of \(count)")
    if count > 3 { return overflow[index] }
    switch index {
    case 0: return inline.0
    case 1: return inline.1
    default: return inline.2
    }
  }

  /// The UTF-8 bytes of field `index`.
  ///
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(1); does not copy.
  public subscript(index: Int) -> ArraySlice<UInt8> {
    let field = place(index)
    return field.isUnescaped ? unescaped[field.range] : input[field.range]
  }

  /// Whether field `index` holds exactly the bytes of `word`, compared in place: an unquoted
  /// field without the spaces and tabs around it (``trimmedPlace(_:)``).
  /// - Precondition: `0 <= index < count`.
  func field(_ index: Int, equals word: [UInt8]) -> Bool {
    let field = trimmedPlace(index)
    guard field.range.count == word.count else { return false }
    return field.isUnescaped
      ? Self.bytes(of: unescaped, in: field.range, equal: word) : Self.bytes(of: input, in: field.range, equal: word)
  }

  /// Whether field `index` was written in quotes, which keeps its spaces (`Spec/INPUT.md` 2).
  /// - Precondition: `0 <= index < count`.
  func isQuoted(_ index: Int) -> Bool { place(index).isQuoted }

  /// Whether field `index` is empty, or unquoted and only spaces and tabs.
  /// - Precondition: `0 <= index < count`.
  func fieldIsBlank(_ index: Int) -> Bool { trimmedPlace(index).range.isEmpty }

  /// Where field `index` is as a listing reads a word or a label: an unquoted field without the
  /// spaces and tabs around it, a quoted one as it is.
  private func trimmedPlace(_ index: Int) -> Field {
    var field = place(index)
    guard !field.isQuoted else { return field }
    var (start, end) = (field.range.lowerBound, field.range.upperBound)
    while start < end && isSpaceOrTab(input[start]) { start &+= 1 }
    while end > start && isSpaceOrTab(input[end &- 1]) { end &-= 1 }
    field.range = start..<end
    return field
  }

  /// Whether `source[range]` equals `word`, which has `range.count` bytes.
  private static func bytes(of source: [UInt8], in range: Range<Int>, equal word: [UInt8]) -> Bool {
    var position = 0
    for index in range {
      if source[index] != word[position] { return false }
      position &+= 1
    }
    return true
  }

  /// Field `index` as a String.
  ///
  /// - Precondition: `0 <= index < count`.
  /// - Complexity: O(*n*) in the field's length; allocates the string.
  public func string(at index: Int) -> String {
    String(decoding: self[index], as: UTF8.self)
  }
}
