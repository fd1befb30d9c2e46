/// Walks a command's arguments: options as `--name value`, `--name=value` or `-o value`, flags as
/// `--name`, and everything else (including a lone `-`, meaning standard input or output) as
/// positional. `--` ends the options.
struct ArgumentScanner {
  private var arguments: ArraySlice<String>
  private var optionsEnded = false
  let command: String

  init(_ arguments: ArraySlice<String>, command: String) {
    self.arguments = arguments
    self.command = command
  }

  /// The next argument: an option (with its inline value, if any) or a positional.
  enum Item: Equatable {
    case option(name: String, inlineValue: String?)
    case positional(String)
  }

  mutating func next() -> Item? {
    guard let argument = arguments.popFirst() else { return nil }
    if optionsEnded || argument == "-" || !argument.hasPrefix("-") { return .positional(argument) }
    if argument == "--" {
      optionsEnded = true
      return next()
    }
    if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
      return .option(name: String(argument[..<equals]), inlineValue: String(argument[argument.index(after: equals)...]))
    }
    // A negative number such as -5 is a positional, not an option.
    if argument.dropFirst().allSatisfy(\.isNumber) { return .positional(argument) }
    return .option(name: argument, inlineValue: nil)
  }

  /// The value of option `name`: its inline value or the next argument.
  mutating func value(of name: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    guard let value = arguments.popFirst() else { throw UsageError("\(name) needs a value", command: command) }
    return value
  }

  /// Refuses an inline value on a flag (`--json=yes`).
  func flag(_ name: String, inline: String?) throws(UsageError) {
    if inline != nil { throw UsageError("\(name) takes no value", command: command) }
  }
}
