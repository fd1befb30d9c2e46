import CallDirectory

/// One invocation of `calldir`, parsed from its arguments and not yet run.
///
/// Parsing is pure (`Command.parse(_:)`), so every usage rule is testable without running
/// anything; `CLI.run(_:console:)` carries a command out.
public enum Command: Sendable, Equatable {
  /// `calldir pack`: build a directory from listings, block lists and identify CSVs.
  case pack(PackOptions)
  /// `calldir unpack`: write a directory's listing CSV.
  case unpack(file: String, output: String)
  /// `calldir verify`: check files completely.
  case verify(files: [String], callKit: Bool, json: Bool)
  /// `calldir lookup`: answer for numbers.
  case lookup(file: String, numbers: [String], country: Int?, json: Bool)
  /// `calldir info`: describe a file.
  case info(file: String, json: Bool)
  /// `calldir help [COMMAND]` or `--help`.
  case help(topic: String?)
  /// `calldir --version`.
  case version

  /// What `pack` reads and writes.
  public struct PackOptions: Sendable, Equatable {
    /// Listing CSVs (`kind,number,label`), as `unpack` writes them.
    public var listings: [String] = []
    /// Block lists: one number a line.
    public var blockFiles: [String] = []
    /// Identify CSVs: `number,label`.
    public var identifyFiles: [String] = []
    /// The calling code for numbers written without `+`.
    public var country: Int?
    /// The output path (`-` for standard output).
    public var output: String = ""
    /// Entries per entry block.
    public var entriesPerBlock: Int = DirectoryBuilder.Options().entriesPerBlock

    /// Empty options.
    public init() {}
  }
}

/// A usage mistake: exit code 2, with a message and the help hint.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with the arguments.
  public var message: String
  /// The command whose help to point at, if known.
  public var command: String?

  /// A usage error.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message.
  public var description: String { message }
}
