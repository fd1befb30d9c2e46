import CallDirectory

extension Command {
  /// The commands `calldir` knows, for help and suggestions.
  static let names = [
    "pack", "unpack", "complement", "verify", "lookup", "info", "stats", "resolve", "serve", "export", "diff", "patch",
    "keygen", "sign", "completions", "help",
  ]

  /// Parses `calldir`'s arguments (without the program name).
  /// - Throws: `UsageError` for an unknown command or option, a missing value or file.
  package static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    // No command is a usage error, as a missing argument is: exit 2, the commands on stderr.
    guard let first = arguments.first else {
      throw UsageError("no command given; the commands are \(names.dropLast().joined(separator: ", ")) and help")
    }
    let rest = arguments.dropFirst()
    switch first {
    case "--help", "-h": return .help(topic: nil)
    case "--version", "-V": return .version
    case "help":
      if rest.first == "--man" {
        guard rest.count == 1 else { throw UsageError("help --man takes no command") }
        return .manual
      }
      guard rest.count <= 1 else { throw UsageError("help takes at most one command") }
      if let topic = rest.first, !names.contains(topic) { throw unknownCommand(topic) }
      return .help(topic: rest.first)
    case "pack": return try parsePack(rest)
    case "unpack": return try parseUnpack(rest)
    case "complement": return try parseComplement(rest)
    case "verify": return try parseVerify(rest)
    case "lookup": return try parseLookup(rest)
    case "info": return try parseInfo(rest)
    case "stats": return try parseStats(rest)
    case "resolve": return try parseResolve(rest)
    case "export": return try parseExport(rest)
    case "serve": return try parseServe(rest)
    case "diff": return try parseDiff(rest)
    case "patch": return try parsePatch(rest)
    case "keygen": return try parseKeygen(rest)
    case "sign": return try parseSign(rest)
    case "completions": return try parseCompletions(rest)
    default: throw unknownCommand(first)
    }
  }

  private static func parsePack(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    typealias Table = OptionTable<PackOptions>
    var options = PackOptions()
    let table = Table(
      command: "pack",
      options: [
        Table.Option(names: ["--block", "-b"], action: .value { $0.blockFiles.append($1) }),
        Table.Option(names: ["--allow", "-a"], action: .value { $0.allowFiles.append($1) }),
        Table.Option(names: ["--identify", "-i"], action: .value { $0.identifyFiles.append($1) }),
        Table.Option(
          names: ["--country", "-c"],
          action: .value { (state, text) throws(UsageError) in state.country = try countryRegion(text, command: "pack") }),
        Table.Option(
          names: ["--output", "-o"],
          action: .value { (state, text) throws(UsageError) in state.output = try outputName(text, command: "pack") }),
        Table.Option(
          names: ["--entries-per-block"],
          action: .value { (state, text) throws(UsageError) in
            guard let value = Int(text), value >= 1, value <= 4096 else {
              throw UsageError("--entries-per-block must be 1...4096, not \(text)", command: "pack")
            }
            state.entriesPerBlock = value
          }),
        Table.Option(names: ["--no-prefix-labels"], action: .flag { $0.prefixCodedLabels = false }),
        Table.Option(
          names: ["--format", "-f"],
          action: .value { (state, text) throws(UsageError) in state.format = try listingFormat(text, command: "pack") }),
        Table.Option(names: ["--json"], action: .flag { $0.json = true }),
        Table.Option(names: ["--quiet", "-q"], action: .flag { $0.quiet = true }),
        Table.Option(names: ["--reject-invalid"], action: .flag { $0.rejectInvalid = true }),
        Table.Option(names: ["--keep-going", "-k"], action: .flag { $0.keepGoing = true }),
        Table.Option(names: ["--allow-empty"], action: .flag { $0.allowEmpty = true }),
        Table.Option(
          names: ["--on-conflict"],
          action: .value { (state, text) throws(UsageError) in state.onConflict = try onConflict(text, command: "pack") }),
        Table.Option(
          names: ["--rejects"],
          action: .value { (state, text) throws(UsageError) in
            state.rejects = try outputName(text, command: "pack")
            state.keepGoing = true
          }),
        Table.Option(names: ["--sign"], action: .value { $0.signKey = $1 }),
        Table.Option(
          names: ["--memory"],
          action: .value { (state, text) throws(UsageError) in state.memoryLimit = try bytes(mebibytes: text, option: "--memory")
          }),
        Table.Option(
          names: ["--gzip-limit"],
          action: .value { (state, text) throws(UsageError) in
            state.gzipLimit = try bytes(mebibytes: text, option: "--gzip-limit")
          }),
        Table.Option(
          names: ["--list-version"],
          action: .value { (state, text) throws(UsageError) in state.listVersion = try listVersion(text, command: "pack") }),
      ],
      positional: { $0.listings.append($1) })
    guard try table.parse(arguments, into: &options) else { return .help(topic: "pack") }
    guard !options.output.isEmpty else { throw UsageError("pack needs an output file: -o OUT.calldir", command: "pack") }
    guard !(options.json && options.output == "-") else {
      throw UsageError("--json writes to standard output: give -o a file name", command: "pack")
    }
    let inputs = options.listings + options.blockFiles + options.allowFiles + options.identifyFiles
    guard !inputs.isEmpty else {
      throw UsageError("pack needs at least one input: a listing, --block FILE or --identify FILE", command: "pack")
    }
    try readStandardInputOnce(inputs, command: "pack")
    if let rejects = options.rejects, rejects == "-" && (options.output == "-" || options.json) {
      throw UsageError("--rejects - and the directory or --json would share standard output", command: "pack")
    }
    return .pack(options)
  }

  /// The state of the commands that read files and may answer in JSON.
  private struct ReadState {
    var positionals: [String] = []
    var json = false
    var callKit = false
    var expand = false
    var quiet = false
    var output = "-"
    var country: String?
    var format: ListingFormat?
    var trust: [String] = []
    var installedVersion: UInt64?
    var signKey: String?
    var key: String?
    var span: ClosedRange<Int64>?
  }

  private static func readTable(_ command: String, _ extra: [OptionTable<ReadState>.Option] = []) -> OptionTable<ReadState> {
    OptionTable(command: command, options: extra, positional: { $0.positionals.append($1) })
  }

  private static var json: OptionTable<ReadState>.Option { .init(names: ["--json"], action: .flag { $0.json = true }) }

  /// `-o NAME`, refusing an empty name (which would otherwise read as no `-o` at all).
  private static func output(_ command: String) -> OptionTable<ReadState>.Option {
    .init(
      names: ["--output", "-o"],
      action: .value { (state, text) throws(UsageError) in state.output = try outputName(text, command: command) })
  }

  static func outputName(_ text: String, command: String) throws(UsageError) -> String {
    guard !text.isEmpty else { throw UsageError("-o needs a file name, or - for standard output", command: command) }
    return text
  }

  /// Refuses `-` named more than once among `inputs`: standard input can be read only once.
  static func readStandardInputOnce(_ inputs: [String], command: String) throws(UsageError) {
    guard inputs.filter({ $0 == "-" }).count <= 1 else {
      throw UsageError("standard input (-) can be read only once", command: command)
    }
  }

  private static var trust: OptionTable<ReadState>.Option {
    .init(names: ["--trust"], action: .value { $0.trust.append($1) })
  }

  /// `--installed-version N`: the list version a consumer has, below which a file is a rollback.
  private static func installedVersion(_ command: String) -> OptionTable<ReadState>.Option {
    .init(
      names: ["--installed-version"],
      action: .value { (state, text) throws(UsageError) in state.installedVersion = try listVersion(text, command: command) })
  }

  private static var quiet: OptionTable<ReadState>.Option {
    .init(names: ["--quiet", "-q"], action: .flag { $0.quiet = true })
  }

  private static func parseUnpack(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    let expand = OptionTable<ReadState>.Option(names: ["--expand"], action: .flag { $0.expand = true })
    let format = OptionTable<ReadState>.Option(
      names: ["--format", "-f"],
      action: .value { (state, text) throws(UsageError) in state.format = try listingFormat(text, command: "unpack") })
    guard try readTable("unpack", [output("unpack"), expand, format, quiet]).parse(arguments, into: &state) else {
      return .help(topic: "unpack")
    }
    guard state.positionals.count == 1 else { throw UsageError("unpack takes exactly one file", command: "unpack") }
    // Without --format, an output named *.tsv or *.jsonl (or either with .gz) gets that form.
    let chosen = state.format ?? ListingFormat.implied(by: state.output) ?? .csv
    return .unpack(file: state.positionals[0], output: state.output, expand: state.expand, format: chosen, quiet: state.quiet)
  }

  private static func parseComplement(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    state.output = ""
    let span = OptionTable<ReadState>.Option(
      names: ["--span", "-s"],
      action: .value { (state, text) throws(UsageError) in
        do throws(PhoneNumberError) { state.span = try PhoneNumberParser.formatDomain.parseEntry(text) } catch {
          // complement has no --country, which the parser's message would advise.
          let reason =
            error.kind == .nationalStyleWithoutCountry
            ? "write each end with + and its calling code, as in +12000000000..+19999999999" : "\(error)"
          throw UsageError("--span \(text): \(reason)", command: "complement")
        }
      })
    guard try readTable("complement", [output("complement"), span, json, quiet]).parse(arguments, into: &state) else {
      return .help(topic: "complement")
    }
    guard !state.positionals.isEmpty else { throw UsageError("complement needs at least one directory", command: "complement") }
    guard let chosen = state.span else {
      throw UsageError("complement needs the span to cover: --span +FIRST..+LAST", command: "complement")
    }
    guard !state.output.isEmpty else {
      throw UsageError("complement needs an output file: -o OUT.calldir", command: "complement")
    }
    guard state.output != "-" || !state.json else {
      throw UsageError("--json writes to standard output: give -o a file name", command: "complement")
    }
    try readStandardInputOnce(state.positionals, command: "complement")
    return .complement(files: state.positionals, span: chosen, output: state.output, json: state.json, quiet: state.quiet)
  }

  private static func parseVerify(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    let callKit = OptionTable<ReadState>.Option(names: ["--callkit"], action: .flag { $0.callKit = true })
    guard try readTable("verify", [callKit, json, quiet, trust, installedVersion("verify")]).parse(arguments, into: &state) else {
      return .help(topic: "verify")
    }
    guard !state.positionals.isEmpty else { throw UsageError("verify needs at least one file", command: "verify") }
    try readStandardInputOnce(state.positionals, command: "verify")
    return .verify(
      files: state.positionals, callKit: state.callKit, json: state.json, quiet: state.quiet, trust: state.trust,
      installedVersion: state.installedVersion)
  }

  private static func parseLookup(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    let country = OptionTable<ReadState>.Option(
      names: ["--country", "-c"],
      action: .value { (state, text) throws(UsageError) in state.country = try countryRegion(text, command: "lookup") })
    guard try readTable("lookup", [json, country]).parse(arguments, into: &state) else { return .help(topic: "lookup") }
    guard let file = state.positionals.first else {
      throw UsageError("lookup needs a file, then numbers (none, or -, to read them from standard input)", command: "lookup")
    }
    var numbers = Array(state.positionals.dropFirst())
    if numbers.contains("-") {
      guard numbers == ["-"] else {
        throw UsageError("- (standard input) cannot be combined with other numbers", command: "lookup")
      }
      numbers = []
    }
    guard !(file == "-" && numbers.isEmpty) else {
      throw UsageError("lookup cannot read both the file and the numbers from standard input", command: "lookup")
    }
    return .lookup(file: file, numbers: numbers, country: state.country, json: state.json)
  }

  private static func parseInfo(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    guard try readTable("info", [json]).parse(arguments, into: &state) else { return .help(topic: "info") }
    guard state.positionals.count == 1 else { throw UsageError("info takes exactly one file", command: "info") }
    return .info(file: state.positionals[0], json: state.json)
  }

  private static func parseStats(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    var width = 50
    let widthOption = OptionTable<ReadState>.Option(
      names: ["--width"],
      action: .value { (_, text) throws(UsageError) in
        guard let value = Int(text), (10...500).contains(value) else {
          throw UsageError("--width must be 10...500, not \(text)", command: "stats")
        }
        width = value
      })
    guard try readTable("stats", [json, widthOption]).parse(arguments, into: &state) else { return .help(topic: "stats") }
    guard state.positionals.count == 1 else { throw UsageError("stats takes exactly one file", command: "stats") }
    return .stats(file: state.positionals[0], json: state.json, width: width)
  }

  private static func parseDiff(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    state.output = ""
    let sign = OptionTable<ReadState>.Option(names: ["--sign"], action: .value { $0.signKey = $1 })
    guard try readTable("diff", [output("diff"), json, quiet, sign]).parse(arguments, into: &state) else {
      return .help(topic: "diff")
    }
    guard state.positionals.count == 2 else { throw UsageError("diff takes exactly two files: OLD NEW", command: "diff") }
    guard !state.output.isEmpty else { throw UsageError("diff needs an output file: -o CHANGES", command: "diff") }
    guard !(state.json && state.output == "-") else {
      throw UsageError("--json writes to standard output: give -o a file name", command: "diff")
    }
    try readStandardInputOnce(state.positionals, command: "diff")
    return .diff(
      old: state.positionals[0], new: state.positionals[1], output: state.output, json: state.json, quiet: state.quiet,
      signKey: state.signKey)
  }

  private static func parsePatch(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    state.output = ""
    guard try readTable("patch", [output("patch"), quiet, trust, installedVersion("patch")]).parse(arguments, into: &state) else {
      return .help(topic: "patch")
    }
    guard state.positionals.count == 2 else { throw UsageError("patch takes exactly two files: OLD CHANGES", command: "patch") }
    guard !state.output.isEmpty else { throw UsageError("patch needs an output file: -o NEW", command: "patch") }
    try readStandardInputOnce(state.positionals, command: "patch")
    return .patch(
      old: state.positionals[0], changes: state.positionals[1], output: state.output, quiet: state.quiet, trust: state.trust,
      installedVersion: state.installedVersion)
  }

  private static func parseKeygen(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    state.output = ""
    guard try readTable("keygen", [output("keygen")]).parse(arguments, into: &state) else { return .help(topic: "keygen") }
    guard state.positionals.isEmpty else {
      throw UsageError("keygen takes no files; name the pair with -o NAME", command: "keygen")
    }
    guard !state.output.isEmpty, state.output != "-" else {
      throw UsageError("keygen needs a name for the pair: -o NAME writes NAME.key and NAME.pub", command: "keygen")
    }
    return .keygen(output: state.output)
  }

  private static func parseSign(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var state = ReadState()
    state.output = ""
    let key = OptionTable<ReadState>.Option(names: ["--key", "-k"], action: .value { $0.key = $1 })
    guard try readTable("sign", [output("sign"), key]).parse(arguments, into: &state) else { return .help(topic: "sign") }
    guard state.positionals.count == 1 else { throw UsageError("sign takes exactly one file", command: "sign") }
    guard let keyPath = state.key else { throw UsageError("sign needs a private key: --key KEY", command: "sign") }
    guard state.positionals[0] != "-" || !state.output.isEmpty else {
      throw UsageError("signing standard input needs an output: -o OUT", command: "sign")
    }
    return .sign(file: state.positionals[0], key: keyPath, output: state.output.isEmpty ? nil : state.output)
  }

  /// The bytes in a pack option's count of MiB, 1...1048576.
  private static func bytes(mebibytes text: String, option: String) throws(UsageError) -> Int {
    guard let mebibytes = Int(text), mebibytes >= 1, mebibytes <= 1 << 20 else {
      throw UsageError("\(option) takes MiB, 1...1048576, not \(text)", command: "pack")
    }
    return mebibytes << 20
  }

  static func listVersion(_ text: String, command: String) throws(UsageError) -> UInt64 {
    guard let value = UInt64(text) else {
      throw UsageError("a list version is a whole number 0...\(UInt64.max), not \(text)", command: command)
    }
    return value
  }

  static func onConflict(_ text: String, command: String) throws(UsageError) -> OnConflict {
    guard let choice = OnConflict(rawValue: text) else {
      let choices = OnConflict.allCases.map(\.rawValue)
      var message = "--on-conflict needs \(choices.joined(separator: ", ")), not \(text)"
      if let near = Suggestion.nearest(to: text, among: choices) { message += "; did you mean '\(near)'?" }
      throw UsageError(message, command: command)
    }
    return choice
  }

  static func listingFormat(_ text: String, command: String) throws(UsageError) -> ListingFormat {
    guard let format = ListingFormat(rawValue: text.lowercased()) else {
      throw UsageError("--format needs csv, tsv or jsonl, not \(text)", command: command)
    }
    return format
  }

  private static func parseCompletions(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    if arguments.first == "--help" || arguments.first == "-h" { return .help(topic: "completions") }
    let shells = Completions.Shell.allCases.map(\.rawValue).joined(separator: ", ")
    guard arguments.count == 1, let name = arguments.first else {
      throw UsageError("completions takes one shell: \(shells)", command: "completions")
    }
    guard let shell = Completions.Shell(rawValue: name) else {
      throw UsageError("completions knows \(shells), not '\(name)'", command: "completions")
    }
    return .completions(shell: shell)
  }

  private static func unknownCommand(_ name: String) -> UsageError {
    // An argument with dashes before the command is a mistyped global option (`--verison`).
    let isOption = name.hasPrefix("-")
    var message = isOption ? "unknown option '\(name)'" : "unknown command '\(name)'"
    let candidates = isOption ? ["--help", "--version"] + GlobalOptions.names : names
    let word = isOption ? String(name.prefix { $0 != "=" }) : name
    if let near = Suggestion.nearest(to: word, among: candidates) { message += "; did you mean '\(near)'?" }
    return UsageError(message)
  }

}

/// The nearest known word to a mistyped one, by edit distance.
enum Suggestion {
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }.min { $0.1 < $1.1 }
    guard let (candidate, score) = scored, score <= max(2, word.count / 3) else { return nil }
    return candidate
  }

  /// Levenshtein distance.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
