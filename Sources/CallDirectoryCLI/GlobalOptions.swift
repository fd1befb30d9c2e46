/// The options every command takes, wherever they stand among its arguments: `--color WHEN` and
/// `--verbose`. They say how output looks, not what a command does, so they are taken out before
/// a command's own options are parsed.
package struct GlobalOptions: Sendable, Equatable {
  /// When to colour output: `auto` (at a terminal, unless `NO_COLOR` is set), `always` or `never`.
  package enum ColorChoice: String, Sendable, Equatable, CaseIterable {
    case auto, always, never
  }

  /// When to colour output.
  package var color = ColorChoice.auto
  /// Whether summaries are written even when standard error is not a terminal.
  package var verbose = false

  /// The spellings, for suggestions.
  static let names = ["--color", "--verbose"]

  /// Defaults.
  package init() {}

  /// Takes the global options out of `arguments` (up to a `--`, after which every argument is
  /// positional) and returns them with what remains, in order.
  /// - Throws: `UsageError` for a `--color` without a value or with an unknown one.
  package static func extract(from arguments: [String]) throws(UsageError) -> (GlobalOptions, [String]) {
    var options = GlobalOptions()
    var rest: [String] = []
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "--" {
        rest += arguments[(index - 1)...]
        break
      }
      if argument == "--verbose" {
        options.verbose = true
      } else if argument == "--color" || argument.hasPrefix("--color=") {
        let value: String
        if argument == "--color" {
          guard index < arguments.endIndex else { throw UsageError("--color needs a value: auto, always or never") }
          value = arguments[index]
          index += 1
        } else {
          value = String(argument.dropFirst("--color=".count))
        }
        guard let choice = ColorChoice(rawValue: value) else {
          throw UsageError("--color must be auto, always or never, not '\(value)'")
        }
        options.color = choice
      } else {
        rest.append(argument)
      }
    }
    return (options, rest)
  }

  /// Whether a stream is coloured: by choice, or for `auto` when it is a terminal and the
  /// environment neither sets `NO_COLOR` (to anything non-empty, as no-color.org asks) nor says
  /// the terminal is `dumb`.
  package func colors(terminal: Bool, environment: [String: String]) -> Bool {
    switch color {
    case .always: return true
    case .never: return false
    case .auto: return terminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }
}
