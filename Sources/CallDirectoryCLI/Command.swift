import CallDirectory

/// One invocation of `calldir`, parsed from its arguments and not yet run.
///
/// Parsing is pure (`Command.parse(_:)`), so every usage rule is testable without running
/// anything; `CLI.run(_:console:)` carries a command out. The one exception is `resolve`, whose
/// positionals are directories or numbers according to whether they name existing files.
public enum Command: Sendable, Equatable {
  /// `calldir pack`: build a directory from listings, block lists and identify CSVs.
  case pack(PackOptions)
  /// `calldir unpack`: write a directory's listing CSV.
  case unpack(file: String, output: String, expand: Bool)
  /// `calldir verify`: check files completely.
  case verify(files: [String], callKit: Bool, json: Bool)
  /// `calldir lookup`: answer for numbers.
  case lookup(file: String, numbers: [String], country: Int?, json: Bool)
  /// `calldir info`: describe a file.
  case info(file: String, json: Bool)
  /// `calldir resolve`: answer incoming numbers across a stack of directories.
  case resolve(ResolveOptions)
  /// `calldir diff`: write the changeset that turns one directory into another.
  case diff(old: String, new: String, output: String, json: Bool)
  /// `calldir patch`: apply a changeset to the directory it was made from.
  case patch(old: String, changes: String, output: String)
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

  /// What `resolve` consults and answers.
  public struct ResolveOptions: Sendable, Equatable {
    /// One directory of the stack.
    public struct Directory: Sendable, Equatable {
      /// The file, as given (and as answers name it).
      public var path: String
      /// Whether it was given with `--allow`: an allow list.
      public var allowList: Bool

      /// A directory of the stack.
      public init(path: String, allowList: Bool = false) {
        self.path = path
        self.allowList = allowList
      }
    }

    /// The directories, top (consulted first) to bottom, in the order given.
    public var directories: [Directory] = []
    /// The numbers to answer; empty when they come from standard input.
    public var numbers: [String] = []
    /// Whether numbers are read from standard input, one a line, until it ends (the long-running form).
    public var standardInput = false
    /// The calling code for numbers written without `+`.
    public var country: Int?
    /// The numbers never blocked.
    public var emergency: EmergencyNumbers = .standard
    /// One JSON object a line instead of tab-separated fields.
    public var json = false

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
