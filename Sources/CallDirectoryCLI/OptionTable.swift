/// The options one command takes and what each does to the command's parsed state: the one loop
/// every command's arguments go through.
struct OptionTable<State> {
  /// What an option does.
  enum Action {
    /// A flag, such as `--json`: no value.
    case flag((inout State) -> Void)
    /// An option with a value, as `--name value` or `--name=value`.
    case value((inout State, String) throws(UsageError) -> Void)
  }

  /// One option: its spellings (the long one first) and its action.
  struct Option {
    var names: [String]
    var action: Action
  }

  let command: String
  let options: [Option]
  /// What a positional argument does.
  let positional: (inout State, String) -> Void

  /// Applies `arguments` to `state`.
  /// - Returns: `false` when `--help` was asked for instead.
  /// - Throws: `UsageError` for an unknown option (with the nearest known one), a missing value,
  ///   or a value given to a flag.
  func parse(_ arguments: ArraySlice<String>, into state: inout State) throws(UsageError) -> Bool {
    var scanner = ArgumentScanner(arguments, command: command)
    while let item = scanner.next() {
      switch item {
      case .positional(let value): positional(&state, value)
      case .option(let name, let inline):
        if name == "--help" || name == "-h" { return false }
        guard let option = options.first(where: { $0.names.contains(name) }) else {
          var message = "unknown option '\(name)' for \(command)"
          if let near = Suggestion.nearest(to: name, among: options.map { $0.names[0] } + ["--help"] + GlobalOptions.names) {
            message += "; did you mean '\(near)'?"
          }
          throw UsageError(message, command: command)
        }
        switch option.action {
        case .flag(let apply):
          try scanner.flag(name, inline: inline)
          apply(&state)
        case .value(let apply):
          try apply(&state, try scanner.value(of: name, inline: inline))
        }
      }
    }
    return true
  }
}
