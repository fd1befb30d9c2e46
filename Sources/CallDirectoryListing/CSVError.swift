/// Why bytes are not well-formed RFC 4180 CSV, and the 1-based line where the problem is.
///
///     var reader = CSVReader(Array("block,\"+336\"12345678\n".utf8))
///     do throws(CSVError) {
///       while let record = try reader.next() { print(record) }
///     } catch {
///       print(error.line, error.kind)  // 1, characterAfterClosingQuote
///     }
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The rule the input broke.
  public enum Kind: Equatable, Sendable {
    /// A `"` inside a field that did not begin with `"`.
    case quoteInUnquotedField
    /// A byte other than `,`, LF or CRLF right after a closing quote.
    case characterAfterClosingQuote(UInt8)
    /// A quoted field that reaches the end of the input; ``CSVError/line`` is where it began.
    case unterminatedQuotedField
    /// A carriage return outside quotes that is not followed by a line feed.
    case bareCarriageReturn
    /// A field holding bytes that are not well-formed UTF-8.
    case invalidUTF8
  }

  /// The rule the input broke.
  public var kind: Kind
  /// The 1-based line of the problem; for an unterminated quoted field, the line of its opening
  /// quote.
  public var line: Int

  /// Creates an error of `kind` on `line`.
  public init(kind: Kind, line: Int) {
    self.kind = kind
    self.line = line
  }

  /// The problem as a phrase without the line, for messages that add their own location.
  public var message: String {
    switch kind {
    case .quoteInUnquotedField:
      return "quote inside an unquoted field (a quoted field begins with its quote, right after the comma: "
        + ",\"Acme, Inc\"; a quote inside it is doubled: \"\")"
    case .characterAfterClosingQuote(let byte):
      let shown =
        byte >= 0x20 && byte < 0x7F
        ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
      return "\(shown) after a closing quote (expected ',' or the end of the line)"
    case .unterminatedQuotedField:
      return "the quoted field opened on this line is never closed"
    case .bareCarriageReturn:
      return "carriage return not followed by a line feed"
    case .invalidUTF8:
      return "invalid UTF-8 (inputs are UTF-8: a file in another encoding, such as Windows-1252, is converted with "
        + "iconv -f WINDOWS-1252 -t UTF-8)"
    }
  }

  /// `line N: message`.
  public var description: String { "line \(line): \(message)" }
}
