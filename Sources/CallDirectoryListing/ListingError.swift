/// A problem in a text input, located by file name and line.
///
/// ``description`` is `FILE:LINE: message`, the form compilers use, with the file name `-`
/// (standard input) shown as `<stdin>`.
///
///     do throws(ListingError) {
///       _ = try BlockListParser.parse(bytes: Array("+1 202 555 0100\nnot a number\n".utf8), file: "spam.txt",
///                                     parser: .formatDomain)
///     } catch {
///       print(error)  // spam.txt:2: ...
///     }
public struct ListingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The input's name as given to the parser; `-` stands for standard input.
  public var file: String
  /// The 1-based line of the problem.
  public var line: Int
  /// What is wrong, as a phrase without the location.
  public var message: String

  /// Creates an error at `file`:`line`.
  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// The file name as shown to people: `<stdin>` for `-`, otherwise ``file``.
  public var displayFile: String { file == "-" ? "<stdin>" : file }

  /// `FILE:LINE: message`.
  public var description: String { "\(displayFile):\(line): \(message)" }
}
