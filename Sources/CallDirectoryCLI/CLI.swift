import CallDirectory
import CallDirectorySystem

/// Runs `calldir` commands: the whole program but for reading `CommandLine.arguments` and exiting.
package enum CLI {
  /// The tool's version: the toolkit's release.
  static var version: String { CallDirectoryRelease.version }

  /// Exit codes, as grep, diff and cmp use them.
  enum ExitCode {
    /// Success.
    static let success: Int32 = 0
    /// Invalid data or a failed check.
    static let failure: Int32 = 1
    /// Wrong usage.
    static let usage: Int32 = 2
  }

  /// Parses and runs the arguments as the system passed them, each its bytes (without the
  /// program name): an argument that is not UTF-8 is a usage error naming it. Decoded, its bytes
  /// would become U+FFFD, and a file name another file's, or an output written under a name no
  /// one gave.
  /// - Returns: the exit code.
  package static func main(bytes arguments: [[UInt8]], console: Console) -> Int32 {
    var decoded: [String] = []
    for (position, bytes) in arguments.enumerated() {
      guard let text = String(validating: bytes, as: UTF8.self) else {
        let shown = bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + hex($0) }.joined()
        console.diagnose(
          "argument \(position + 1) ('\(shown)') is not UTF-8: file names, numbers and labels must be UTF-8")
        return ExitCode.usage
      }
      decoded.append(text)
    }
    return main(decoded, console: console)
  }

  /// A byte as two upper-case hexadecimal digits.
  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
  }

  /// Parses and runs `arguments` (without the program name).
  /// - Returns: the exit code.
  package static func main(_ arguments: [String], console: Console) -> Int32 {
    let command: Command
    do {
      let (globals, rest) = try GlobalOptions.extract(from: arguments)
      console.apply(globals)
      command = try Command.parse(rest)
    } catch {
      console.diagnose(error.message)
      console.writeError("Try 'calldir \(error.command.map { "help " + $0 } ?? "--help")'.\n")
      return ExitCode.usage
    }
    return run(command, console: console)
  }

  /// Runs a parsed command.
  /// - Returns: the exit code.
  static func run(_ command: Command, console: Console) -> Int32 {
    do {
      switch command {
      case .help(let topic):
        try console.print(HelpText.text(for: topic))
        return ExitCode.success
      case .version:
        try console.print(
          "calldir \(version) (call directory format \(FormatVersion.major).\(FormatVersion.minor): reads "
            + "\(FormatVersion.readable.map { "\($0).x" }.joined(separator: " and "))"
            + ", writes \(FormatVersion.major).\(FormatVersion.minor(paged: false)), "
            + "\(FormatVersion.major).\(FormatVersion.minor(paged: true)) for files whose entry data is longer than a page, "
            + "\(FormatVersion.major).\(FormatVersion.minor(paged: true, rangeBlocks: true)) for files with range blocks, "
            + "\(FormatVersion.major).\(FormatVersion.minor(paged: true, prefixedLabels: true)) for files with prefix-coded labels, "
            + "\(FormatVersion.major).\(FormatVersion.minor(paged: true, groupChecks: true)) for files whose indexes have "
            + "group checks, "
            + "and \(FormatVersion.major).\(FormatVersion.minor(paged: true, topSummaries: true, groupChecks: true, checkedTops: true)) "
            + "for files whose top indexes are summarised (with checked tops))"
        )
        return ExitCode.success
      case .pack(let options): return try Pack(options: options, console: console).run()
      case .unpack(let file, let output, let expand, let format, let quiet):
        return try Unpack(file: file, output: output, expand: expand, format: format, quiet: quiet, console: console).run()
      case .complement(let files, let span, let output, let json, let quiet):
        return try Complement(files: files, span: span, output: output, json: json, quiet: quiet, console: console).run()
      case .verify(let files, let callKit, let json, let quiet, let trust, let installed):
        return try Verify(
          files: files, callKit: callKit, json: json, quiet: quiet, trust: trust, installedVersion: installed,
          console: console
        ).run()
      case .lookup(let file, let numbers, let country, let json):
        return try Lookup(file: file, numbers: numbers, country: country, json: json, console: console).run()
      case .info(let file, let json): return try Info(file: file, json: json, console: console).run()
      case .stats(let file, let json, let width): return try Stats(file: file, json: json, width: width, console: console).run()
      case .manual:
        try console.print(HelpText.manual)
        return ExitCode.success
      case .resolve(let options): return try Resolve(options: options, console: console).run()
      case .export(let options): return try LiveCallerIDExport(options: options, console: console).run()
      case .serve(let options): return try Serve(options: options, console: console).run()
      case .diff(let old, let new, let output, let json, let quiet, let signKey):
        return try Diff(old: old, new: new, output: output, json: json, quiet: quiet, signKey: signKey, console: console).run()
      case .patch(let old, let changes, let output, let quiet, let trust, let installed):
        return try Patch(
          old: old, changes: changes, output: output, quiet: quiet, trust: trust, installedVersion: installed, console: console
        ).run()
      case .completions(let shell):
        try console.print(Completions.script(for: shell))
        return ExitCode.success
      case .keygen(let output): return try Keygen(output: output, console: console).run()
      case .sign(let file, let key, let output): return try Sign(file: file, key: key, output: output, console: console).run()
      }
    } catch let failure as CommandFailure {
      console.diagnose(failure.message)
      if let topic = failure.usageTopic { console.writeError("Try 'calldir help \(topic)'.\n") }
      return failure.exitCode
    } catch let error as SystemError {
      console.diagnose(error.description)
      return ExitCode.failure
    } catch {
      console.diagnose(String(describing: error))
      return ExitCode.failure
    }
  }
}

/// A command that could not do its work: exit code 1 with this message, or 2 for wrong usage
/// that only the files show (an output that is one of the inputs).
struct CommandFailure: Error {
  let message: String
  /// The exit code: `CLI.ExitCode.failure`, or `.usage`.
  private(set) var exitCode = CLI.ExitCode.failure
  /// For a usage failure, the command whose help the message points to.
  private(set) var usageTopic: String?
  init(_ message: String) { self.message = message }

  /// The failure to open the directory at `path`: the system's reason for a file that cannot be
  /// read, as every command says it, else what is wrong with the file.
  init(opening path: String, _ error: OpenError) {
    if case .system(let failure) = error {
      self.init("\(path): cannot open: \(failure.message)")
    } else {
      self.init("\(path): \(error)")
    }
  }

  /// Wrong usage of `command`, found once its files were looked at: exit code 2.
  static func usage(_ message: String, command: String) -> CommandFailure {
    var failure = CommandFailure(message)
    failure.exitCode = CLI.ExitCode.usage
    failure.usageTopic = command
    return failure
  }
}

/// Reading the files commands take, where `-` is standard input.
enum Inputs {
  /// The name to show for `path` in messages.
  static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

  /// The name to show for the output `path` in messages: `-` is standard output here.
  static func outputName(_ path: String) -> String { path == "-" ? "<stdout>" : path }

  /// All bytes of `path`, or of standard input for `-`.
  static func read(_ path: String, console: Console) throws(CommandFailure) -> [UInt8] {
    do {
      if path == "-" { return try console.readInput() }
      let file = try FileDescriptor.openForReading(path)
      return try file.closeAfter { () throws(SystemError) in try file.readAll() }
    } catch {
      throw CommandFailure("\(displayName(path)): cannot read: \(error.message)")
    }
  }

  /// A directory file's bytes from standard input (or, `orChangeset`, a changeset's), read as
  /// they come and no further than they can be one: the first bytes not the magic, or one byte
  /// past the length a directory's header declares, and the reading stops, for the reader to say
  /// what is wrong. All of `/dev/zero` would otherwise be read before its first byte was looked
  /// at. (A changeset declares no length of its own: it is read to the end once its magic is.)
  /// - Complexity: memory of the bytes read, at most the declared length and one chunk more.
  static func readDirectoryInput(console: Console, orChangeset: Bool = false) throws(CommandFailure) -> [UInt8] {
    var bytes: [UInt8] = []
    var declared: UInt64?
    var known = false  // the magic was read: a changeset's, or a directory's with its length
    do {
      while declared.map({ UInt64(bytes.count) <= $0 }) ?? true {
        let chunk = try console.readChunk()
        if chunk.isEmpty { break }
        bytes += chunk
        if !known && orChangeset && bytes.count >= Self.changesetMagic.count && bytes.starts(with: Self.changesetMagic) {
          known = true
        }
        if !known && bytes.count >= FormatConstants.headerSize {
          guard bytes.starts(with: FormatConstants.magic) else { break }
          // The header's file length, u64 at byte 16.
          declared = (0..<8).reduce(0) { $0 | UInt64(bytes[16 + $1]) << (8 * UInt64($1)) }
          known = true
        }
      }
    } catch {
      throw CommandFailure("\(displayName("-")): cannot read: \(error.message)")
    }
    return bytes
  }

  /// The first bytes of a changeset (`Spec/CHANGESET.md` section 2).
  static let changesetMagic = Array("CDCHANGE".utf8)

  /// Refuses, as wrong usage, an `output` (given with `option`) that is one of `inputs`: the
  /// same file by device and inode, whatever the names (a link, `./x`), since writing it would
  /// replace an input, unless `mayReplace` says that input may be (one read whole before the
  /// output is written); or that is the command's other output `alsoWritten`, which may not
  /// exist yet either (then the same directory, by device and inode, and the same name), since
  /// one would replace the other. Standard output is never an input, and an output that does not
  /// exist yet is never one.
  /// - Complexity: one `stat` per path, and `mayReplace` for an input that is the output.
  static func refuseReplacing(
    _ inputs: [String], with output: String, option: String = "-o", alsoWritten: String? = nil, command: String,
    unless mayReplace: (String) throws(CommandFailure) -> Bool = { _ in false }
  ) throws(CommandFailure) {
    guard output != "-" else { return }
    func refuse(_ what: String) -> CommandFailure {
      .usage("\(option) \(output) is \(what): \(command) would replace it; give \(option) another file", command: command)
    }
    let target = try? FileIdentity(path: output)
    if let other = alsoWritten, other != "-" {
      let same = target.map { (try? FileIdentity(path: other)) == $0 } ?? samePlaceNotYetMade(other, output)
      if same { throw refuse("the output \(other) too") }
    }
    guard let target else { return }
    for input in inputs where input != "-" && (try? FileIdentity(path: input)) == target {
      if try mayReplace(input) { continue }
      throw refuse("the input \(input)")
    }
  }

  /// Whether two paths of which neither exists yet name the same place: one directory (by device
  /// and inode) and one name in it.
  private static func samePlaceNotYetMade(_ a: String, _ b: String) -> Bool {
    guard !FileDescriptor.exists(a), !FileDescriptor.exists(b) else { return false }
    let (directoryA, nameA) = AtomicFile.split(a)
    let (directoryB, nameB) = AtomicFile.split(b)
    guard nameA == nameB, let one = try? FileIdentity(path: directoryA) else { return false }
    return (try? FileIdentity(path: directoryB)) == one
  }

  /// Opens a directory: mapped from `path`, or read whole from standard input for `-`.
  static func openDirectory(_ path: String, console: Console) throws(CommandFailure) -> CallDirectoryReader {
    if path == "-" {
      let bytes = try readDirectoryInput(console: console)
      do { return try CallDirectoryReader(bytes: bytes) } catch { throw CommandFailure("\(displayName(path)): \(error)") }
    }
    do { return try CallDirectoryReader(path: path) } catch { throw CommandFailure(opening: path, error) }
  }

  /// Writes `bytes` whole to `path`, or to standard output for `-`, as ``write(to:console:_:)``.
  static func write(_ bytes: [UInt8], to path: String, console: Console) throws(CommandFailure) {
    try write(to: path, console: console) { (sink) throws(CommandFailure) in
      do throws(SystemError) { try sink(bytes) } catch {
        throw CommandFailure("\(outputName(path)): cannot write: \(error.message)")
      }
    }
  }

  /// Writes the output of `produce`, which checks its bytes only after the last one (as `patch`
  /// does), as ``write(to:console:_:)`` does; but where the output cannot be replaced whole
  /// (standard output, a FIFO, a device), the bytes go to a spool in `spools` first and reach the
  /// output only once `produce` has returned: nothing that failed its check is written where it
  /// cannot be taken back.
  /// - Complexity: the output written twice where it is spooled; memory of 64 KiB for the spool.
  static func writeCheckedAtEnd(
    to path: String, console: Console, spools: String,
    _ produce: (_ sink: ([UInt8]) throws(SystemError) -> Void) throws(CommandFailure) -> Void
  ) throws(CommandFailure) {
    guard path == "-" || FileDescriptor.isSpecialFile(path) else {
      return try write(to: path, console: console, produce)
    }
    let spool: SpoolFile
    do { spool = try SpoolFile(in: spools) } catch {
      throw CommandFailure("\(spools): cannot make a spool for \(outputName(path)): \(error.message)")
    }
    try produce { (bytes) throws(SystemError) in try spool.append(bytes) }
    try write(to: path, console: console) { (sink) throws(CommandFailure) in
      do throws(AtomicWriteError<SystemError>) {
        try spool.replay { (piece) throws(SystemError) in try sink(piece) }
      } catch {
        switch error {
        case .system(let failure): throw CommandFailure("\(spools): cannot read the spool back: \(failure.message)")
        case .producer(let failure): throw CommandFailure("\(outputName(path)): cannot write: \(failure.message)")
        }
      }
    }
  }

  /// Writes `produce`'s output to `path` atomically, or to standard output for `-`.
  static func write(
    to path: String, console: Console, _ produce: (_ sink: ([UInt8]) throws(SystemError) -> Void) throws(CommandFailure) -> Void
  ) throws(CommandFailure) {
    if path == "-" {
      do {
        try produce { (bytes) throws(SystemError) in try console.writeOutput(bytes) }
      }
      return
    }
    do {
      try AtomicFile.write(to: path) { (sink) throws(CommandFailure) in
        // Both closures are non-escaping; the sink is only called while `produce` runs.
        try withoutActuallyEscaping(sink) { (sink) throws(CommandFailure) in try produce(sink) }
      }
    } catch {
      switch error {
      case .system(let failure): throw CommandFailure("\(path): cannot write: \(failure.message)")
      case .producer(let failure): throw failure
      }
    }
  }
}
