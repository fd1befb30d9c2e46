extension Command {
  /// The commands `calldir` knows, for help and suggestions.
  public static let names = ["pack", "unpack", "verify", "lookup", "info", "help"]

  /// Parses `calldir`'s arguments (without the program name).
  /// - Throws: `UsageError` for an unknown command or option, a missing value or file.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
    guard let first = arguments.first else { return .help(topic: nil) }
    let rest = arguments.dropFirst()
    switch first {
    case "--help", "-h": return .help(topic: nil)
    case "--version", "-V": return .version
    case "help":
      guard rest.count <= 1 else { throw UsageError("help takes at most one command") }
      if let topic = rest.first, !names.contains(topic) { throw unknownCommand(topic) }
      return .help(topic: rest.first)
    case "pack": return try parsePack(rest)
    case "unpack": return try parseUnpack(rest)
    case "verify": return try parseVerify(rest)
    case "lookup": return try parseLookup(rest)
    case "info": return try parseInfo(rest)
    default: throw unknownCommand(first)
    }
  }

  private static func parsePack(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var scanner = ArgumentScanner(arguments, command: "pack")
    var options = PackOptions()
    var output: String?
    while let item = scanner.next() {
      switch item {
      case .positional(let path): options.listings.append(path)
      case .option(let name, let inline):
        switch name {
        case "--help", "-h": return .help(topic: "pack")
        case "--block", "-b": options.blockFiles.append(try scanner.value(of: name, inline: inline))
        case "--identify", "-i": options.identifyFiles.append(try scanner.value(of: name, inline: inline))
        case "--country", "-c": options.country = try countryCode(try scanner.value(of: name, inline: inline), command: "pack")
        case "--output", "-o": output = try scanner.value(of: name, inline: inline)
        case "--entries-per-block":
          let text = try scanner.value(of: name, inline: inline)
          guard let value = Int(text), value >= 1, value <= 4096 else {
            throw UsageError("--entries-per-block must be 1...4096, not \(text)", command: "pack")
          }
          options.entriesPerBlock = value
        default: throw unknownOption(name, command: "pack", known: ["--block", "--identify", "--country", "--output", "--entries-per-block"])
        }
      }
    }
    guard let output else { throw UsageError("pack needs an output file: -o OUT.calldir", command: "pack") }
    options.output = output
    guard !(options.listings + options.blockFiles + options.identifyFiles).isEmpty else {
      throw UsageError("pack needs at least one input: a listing, --block FILE or --identify FILE", command: "pack")
    }
    let stdinInputs = (options.listings + options.blockFiles + options.identifyFiles).filter { $0 == "-" }.count
    guard stdinInputs <= 1 else { throw UsageError("standard input (-) can be read only once", command: "pack") }
    return .pack(options)
  }

  private static func parseUnpack(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var scanner = ArgumentScanner(arguments, command: "unpack")
    var files: [String] = []
    var output = "-"
    while let item = scanner.next() {
      switch item {
      case .positional(let path): files.append(path)
      case .option(let name, let inline):
        switch name {
        case "--help", "-h": return .help(topic: "unpack")
        case "--output", "-o": output = try scanner.value(of: name, inline: inline)
        default: throw unknownOption(name, command: "unpack", known: ["--output"])
        }
      }
    }
    guard files.count == 1 else { throw UsageError("unpack takes exactly one file", command: "unpack") }
    return .unpack(file: files[0], output: output)
  }

  private static func parseVerify(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var scanner = ArgumentScanner(arguments, command: "verify")
    var files: [String] = []
    var callKit = false
    var json = false
    while let item = scanner.next() {
      switch item {
      case .positional(let path): files.append(path)
      case .option(let name, let inline):
        switch name {
        case "--help", "-h": return .help(topic: "verify")
        case "--callkit":
          try scanner.flag(name, inline: inline)
          callKit = true
        case "--json":
          try scanner.flag(name, inline: inline)
          json = true
        default: throw unknownOption(name, command: "verify", known: ["--callkit", "--json"])
        }
      }
    }
    guard !files.isEmpty else { throw UsageError("verify needs at least one file", command: "verify") }
    return .verify(files: files, callKit: callKit, json: json)
  }

  private static func parseLookup(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var scanner = ArgumentScanner(arguments, command: "lookup")
    var positionals: [String] = []
    var json = false
    var country: Int?
    while let item = scanner.next() {
      switch item {
      case .positional(let value): positionals.append(value)
      case .option(let name, let inline):
        switch name {
        case "--help", "-h": return .help(topic: "lookup")
        case "--json":
          try scanner.flag(name, inline: inline)
          json = true
        case "--country", "-c": country = try countryCode(try scanner.value(of: name, inline: inline), command: "lookup")
        default: throw unknownOption(name, command: "lookup", known: ["--json", "--country"])
        }
      }
    }
    guard positionals.count >= 2 else { throw UsageError("lookup needs a file and at least one number", command: "lookup") }
    return .lookup(file: positionals[0], numbers: Array(positionals.dropFirst()), country: country, json: json)
  }

  private static func parseInfo(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    var scanner = ArgumentScanner(arguments, command: "info")
    var files: [String] = []
    var json = false
    while let item = scanner.next() {
      switch item {
      case .positional(let path): files.append(path)
      case .option(let name, let inline):
        switch name {
        case "--help", "-h": return .help(topic: "info")
        case "--json":
          try scanner.flag(name, inline: inline)
          json = true
        default: throw unknownOption(name, command: "info", known: ["--json"])
        }
      }
    }
    guard files.count == 1 else { throw UsageError("info takes exactly one file", command: "info") }
    return .info(file: files[0], json: json)
  }

  private static func countryCode(_ text: String, command: String) throws(UsageError) -> Int {
    let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
    guard let code = Int(digits), (1...999).contains(code), digits.first != "0" else {
      throw UsageError("--country needs a calling code such as 1 or 44, not \(text)", command: command)
    }
    return code
  }

  private static func unknownCommand(_ name: String) -> UsageError {
    var message = "unknown command '\(name)'"
    if let near = Suggestion.nearest(to: name, among: names) { message += "; did you mean '\(near)'?" }
    return UsageError(message)
  }

  private static func unknownOption(_ name: String, command: String, known: [String]) -> UsageError {
    var message = "unknown option '\(name)' for \(command)"
    if let near = Suggestion.nearest(to: name, among: known + ["--help"]) { message += "; did you mean '\(near)'?" }
    return UsageError(message, command: command)
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
