import CallDirectory
import CallDirectorySystem

extension Command {
  /// Parses `resolve`'s arguments.
  ///
  /// Unlike the other commands this looks at the file system: a positional is a directory when it
  /// names an existing regular file or ends in `.calldir`, and a number otherwise, so that
  /// directories and numbers can be given in one list (`calldir resolve spam.calldir +12025550100`).
  static func parseResolve(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    typealias Table = OptionTable<ResolveState>
    var state = ResolveState()
    let table = Table(
      command: "resolve",
      options: [
        Table.Option(names: ["--allow", "-a"], action: .value { $0.items.append(.allowList($1)) }),
        Table.Option(
          names: ["--country", "-c"],
          action: .value { (state, text) throws(UsageError) in state.options.country = try countryRegion(text, command: "resolve")
          }),
        Table.Option(
          names: ["--emergency"],
          action: .value { $0.emergency.append($1) }),
        Table.Option(names: ["--json"], action: .flag { $0.options.json = true }),
        Table.Option(names: ["--block-withheld"], action: .flag { $0.options.blockWithheld = true }),
        Table.Option(names: ["--stdin"], action: .flag { $0.stdinFlag = true }),
        Table.Option(names: ["--trust"], action: .value { $0.options.trust.append($1) }),
        Table.Option(
          names: ["--installed-version"],
          action: .value { (state, text) throws(UsageError) in
            state.options.installedVersion = try listVersion(text, command: "resolve")
          }),
      ],
      positional: { $0.items.append(.positional($1)) })
    guard try table.parse(arguments, into: &state) else { return .help(topic: "resolve") }

    var options = state.options
    if !state.emergency.isEmpty { options.emergency = try emergencyNumbers(state.emergency) }
    for item in state.items {
      switch item {
      case .allowList(let path): options.directories.append(.init(path: path, allowList: true))
      case .positional(let text):
        // Anything else at the path (a directory of the file system, a FIFO, a device) is taken
        // as meant for a file too, so that opening it says what it is rather than reading its
        // name as a number.
        if text != "-" && (text.hasSuffix(".calldir") || FileDescriptor.exists(text)) {
          options.directories.append(.init(path: text))
        } else {
          options.numbers.append(text)
        }
      }
    }
    guard !options.directories.isEmpty else {
      var message = "resolve needs at least one directory file"
      if let first = options.numbers.first { message += " (no file named '\(first)')" }
      throw UsageError(message, command: "resolve")
    }
    if options.numbers.contains("-") {
      guard options.numbers == ["-"], !state.stdinFlag else {
        throw UsageError("- (standard input) cannot be combined with other numbers", command: "resolve")
      }
      options.numbers = []
    }
    if state.stdinFlag && !options.numbers.isEmpty {
      throw UsageError("--stdin reads the numbers from standard input: give no numbers with it", command: "resolve")
    }
    options.standardInput = options.numbers.isEmpty
    return .resolve(options)
  }

  /// The codes of every `--emergency` given, in order: comma-separated codes, `default` for the
  /// default set, `none` for none. Each repeat adds its codes, as `--allow` adds its lists: a
  /// second `--emergency` that replaced the first would let a code the first protected be
  /// blocked, without a word. `none` stands alone.
  /// - Parameter command: the command whose help a usage error points to (`resolve`, `serve`).
  static func emergencyNumbers(_ texts: [String], command: String = "resolve") throws(UsageError) -> EmergencyNumbers {
    if texts.contains("none") {
      guard texts.count == 1 else {
        throw UsageError("--emergency none cannot be combined with another --emergency", command: command)
      }
      return .none
    }
    var codes: [String] = []
    for text in texts {
      for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        if item == "default" { codes += EmergencyNumbers.defaultCodes } else { codes.append(String(item)) }
      }
    }
    do { return try EmergencyNumbers(codes) } catch {
      throw UsageError(
        "--emergency takes codes of 1 to 15 digits separated by commas, 'default' or 'none': \(error)", command: command)
    }
  }

  /// The state of `resolve`'s parse: the stack and the numbers in the order given.
  private struct ResolveState {
    enum Item {
      case allowList(String)
      case positional(String)
    }
    var items: [Item] = []
    var options = ResolveOptions()
    var stdinFlag = false
    /// Each `--emergency`'s text, joined at the end.
    var emergency: [String] = []
  }
}
