import CallDirectory

/// One invocation of `calldir`, parsed from its arguments and not yet run.
///
/// Parsing is pure (`Command.parse(_:)`), so every usage rule is testable without running
/// anything; `CLI.run(_:console:)` carries a command out. The one exception is `resolve`, whose
/// positionals are directories or numbers according to whether they name existing files.
package enum Command: Sendable, Equatable {
  /// `calldir pack`: build a directory from listings, block lists and identify CSVs.
  case pack(PackOptions)
  /// `calldir unpack`: write a directory's listing, as CSV or JSON Lines.
  case unpack(file: String, output: String, expand: Bool, format: ListingFormat = .csv, quiet: Bool = false)
  /// `calldir complement`: the numbers of a span that no directory lists, as a blocking list.
  case complement(files: [String], span: ClosedRange<Int64>, output: String, json: Bool, quiet: Bool)
  /// `calldir verify`: check files completely.
  case verify(
    files: [String], callKit: Bool, json: Bool, quiet: Bool = false, trust: [String] = [], installedVersion: UInt64? = nil)
  /// `calldir lookup`: answer for numbers; none to read them from standard input.
  case lookup(file: String, numbers: [String], country: String?, json: Bool)
  /// `calldir info`: describe a file.
  case info(file: String, json: Bool)
  /// `calldir stats`: a histogram of entries per country calling code, bars at most `width` columns.
  case stats(file: String, json: Bool, width: Int)
  /// `calldir resolve`: answer incoming numbers across a stack of directories.
  case resolve(ResolveOptions)
  /// `calldir export --live-caller-id`: a stack's answers as Live Caller ID Lookup datasets.
  case export(ExportOptions)
  /// `calldir serve`: answer incoming numbers over HTTP across a stack of directories.
  case serve(ServeOptions)
  /// `calldir diff`: write the changeset that turns one directory into another.
  case diff(old: String, new: String, output: String, json: Bool, quiet: Bool = false, signKey: String? = nil)
  /// `calldir patch`: apply a changeset to the directory it was made from.
  case patch(
    old: String, changes: String, output: String, quiet: Bool = false, trust: [String] = [], installedVersion: UInt64? = nil)
  /// `calldir keygen`: write a new key pair, OUT.key (private) and OUT.pub (public).
  case keygen(output: String)
  /// `calldir sign`: sign a directory or changeset with a private key, in place or to `output`.
  case sign(file: String, key: String, output: String?)
  /// `calldir completions SHELL`: the shell's completion script, on standard output.
  case completions(shell: Completions.Shell)
  /// `calldir help [COMMAND]` or `--help`.
  case help(topic: String?)
  /// `calldir help --man`: the manual page, as roff, made from the help text.
  case manual
  /// `calldir --version`.
  case version

  /// What `pack` reads and writes.
  package struct PackOptions: Sendable, Equatable {
    /// Listing CSVs (`kind,number,label`), as `unpack` writes them.
    package var listings: [String] = []
    /// Block lists: one number a line.
    package var blockFiles: [String] = []
    /// Allow lists: one number or pattern a line, each an exception to the blocking ranges.
    package var allowFiles: [String] = []
    /// Identify CSVs: `number,label`.
    package var identifyFiles: [String] = []
    /// The region (ISO 3166 code, `GB`) whose rules read numbers written without `+`.
    package var country: String?
    /// The output path (`-` for standard output).
    package var output: String = ""
    /// Whether a number with no valid length in its country's numbering plan is an error
    /// (`--reject-invalid`) rather than counted and reported.
    package var rejectInvalid = false
    /// Entries per entry block.
    package var entriesPerBlock: Int = DirectoryBuilder.Options().entriesPerBlock
    /// Whether a label table of several blocks is prefix-coded (version 2.3); off
    /// (`--no-prefix-labels`) for readers before 2.3.
    package var prefixCodedLabels = DirectoryBuilder.Options().prefixCodedLabels
    /// The text form of listing and identify inputs (`--format`); `nil` when each file's name
    /// decides (`.tsv`, `.jsonl`, else CSV).
    package var format: ListingFormat?
    /// Whether a bad line is reported and skipped, the rest packed (`--keep-going`), rather than
    /// ending the pack.
    package var keepGoing = false
    /// Where to write the skipped lines, in their input's own form (`--rejects`; implies
    /// `keepGoing`).
    package var rejects: String?
    /// Whether inputs without a single entry may make an empty directory (`--allow-empty`);
    /// otherwise they are an error, since an empty directory put in a list's place unblocks
    /// every number the list blocked (an empty or truncated download, a wrong file).
    package var allowEmpty = false
    /// What to do with a number given different labels (`--on-conflict`).
    var onConflict = OnConflict.error
    /// Whether to write the report of what was read, skipped and merged as JSON on standard output.
    package var json = false
    /// No progress line and no summary on standard error.
    package var quiet = false
    /// The private key file to sign the directory with.
    package var signKey: String?
    /// The provider's list version to write into the directory.
    package var listVersion: UInt64?
    /// The bytes of entries held in memory before a sorted run is spilled to disk.
    package var memoryLimit = 256 << 20
    /// The most bytes a gzip input may inflate to (`--gzip-limit`, in MiB on the command line).
    package var gzipLimit = Gzip.maximumInflatedBytes

    /// Empty options.
    package init() {}
  }

  /// What `resolve` consults and answers.
  package struct ResolveOptions: Sendable, Equatable {
    /// One directory of the stack.
    package struct Directory: Sendable, Equatable {
      /// The file, as given (and as answers name it).
      package var path: String
      /// Whether it was given with `--allow`: an allow list.
      package var allowList: Bool

      /// A directory of the stack.
      package init(path: String, allowList: Bool = false) {
        self.path = path
        self.allowList = allowList
      }
    }

    /// The directories, top (consulted first) to bottom, in the order given.
    package var directories: [Directory] = []
    /// The numbers to answer; empty when they come from standard input.
    package var numbers: [String] = []
    /// Whether numbers are read from standard input, one a line, until it ends (the long-running form).
    package var standardInput = false
    /// The region (ISO 3166 code, `GB`) whose rules read numbers written without `+`.
    package var country: String?
    /// The numbers never blocked.
    package var emergency: EmergencyNumbers = .standard
    /// One JSON object a line instead of tab-separated fields.
    package var json = false
    /// Whether withheld callers (`anonymous`, an empty caller) are blocked rather than allowed.
    package var blockWithheld = false
    /// Public key files: every directory must be signed by one of them (none: no signature needed).
    package var trust: [String] = []
    /// The lowest list version any directory may carry (a rollback floor), when given.
    package var installedVersion: UInt64?

    /// Empty options.
    package init() {}
  }
}

/// The text forms of a listing: what `pack --format` reads and `unpack --format` writes.
package enum ListingFormat: String, Sendable, Equatable, CaseIterable {
  /// RFC 4180 CSV (`Spec/INPUT.md` section 2).
  case csv
  /// Tab-separated values, without quoting.
  case tsv
  /// JSON Lines: one object a line.
  case jsonl

  /// The form a file's name implies, after any `.gz`: `.tsv`, `.jsonl`, else `nil`.
  static func implied(by path: String) -> ListingFormat? {
    let name = path.lowercased().hasSuffix(".gz") ? String(path.lowercased().dropLast(3)) : path.lowercased()
    if name.hasSuffix(".tsv") { return .tsv }
    if name.hasSuffix(".jsonl") { return .jsonl }
    if name.hasSuffix(".csv") { return .csv }
    return nil
  }
}

/// A usage mistake: exit code 2, with a message and the help hint.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with the arguments.
  package var message: String
  /// The command whose help to point at, if known.
  package var command: String?

  /// A usage error.
  package init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// The message.
  package var description: String { message }
}
