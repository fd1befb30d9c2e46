/// Why a `LineReader` could not go on: its input could not be read, its gzip stream is bad, or a
/// line is longer than the reader allows.
///
///     do throws(LineReaderError) {
///       var reader = try LineReader(path: "list.csv.gz")
///       while let (piece, _) = try reader.nextPiece(size: 1 << 20) { print(piece.count) }
///     } catch {
///       print(error)  // names the file and what went wrong: unreadable, bad gzip, a line too long
///     }
public struct LineReaderError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// Opening or reading the input failed; the system's message.
    case unreadable(String)
    /// The input is gzip and cannot be inflated (corrupt, cut short, or over the cap); zlib's or
    /// the inflater's message.
    case badGzip(String)
    /// Line `line` (1-based) is longer than `limit` bytes, its CR counted and its LF not.
    case lineTooLong(line: Int, limit: Int)
    /// A quoted field opened on line `line` (1-based) holds line ends and runs on past `limit`
    /// bytes from the start of its record: a quote never closed, as a whole file of text after a
    /// stray `"` would be. Bounded like a line, so that such a record costs no more memory.
    case recordTooLong(line: Int, limit: Int)
  }

  /// The input as messages name it (`<stdin>` for standard input).
  public let file: String
  /// What went wrong.
  public let kind: Kind

  /// An error in `file`.
  public init(file: String, kind: Kind) {
    self.file = file
    self.kind = kind
  }

  /// `FILE: cannot read: MESSAGE`, `FILE: MESSAGE` for gzip, `FILE:LINE: line longer than N bytes`.
  public var description: String {
    switch kind {
    case .unreadable(let message): "\(file): cannot read: \(message)"
    case .badGzip(let message): "\(file): \(message)"
    case .lineTooLong(let line, let limit): "\(file):\(line): line longer than \(limit) bytes"
    case .recordTooLong(let line, let limit):
      "\(file):\(line): the quoted field opened on this line runs on past \(limit) bytes (is a closing quote missing?)"
    }
  }
}
