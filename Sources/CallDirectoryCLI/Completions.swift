/// Shell completion scripts for `calldir`, made from the help text: the one place that lists every
/// command and option, so an option completes as soon as it is documented, and a test holds every
/// completed option to the parser.
package enum Completions {
  /// The shells a script is written for.
  package enum Shell: String, Sendable, Equatable, CaseIterable {
    case bash, zsh, fish
  }

  /// One option as the help text documents it.
  struct Option: Equatable {
    /// `--name`.
    var long: String
    /// `-x`, if it has one.
    var short: String?
    /// The value's placeholder (`FILE`, `N`), or `nil` for a flag.
    var value: String?
    /// The first line of its description.
    var summary: String

    /// Every spelling.
    var names: [String] { [long] + (short.map { [$0] } ?? []) }

    /// The words a value completes to: a fixed set, or `nil` for a file name (`[]`: nothing).
    var values: [String]? {
      switch value {
      case "WHEN": return GlobalOptions.ColorChoice.allCases.map(\.rawValue)
      case "FORMAT": return ListingFormat.allCases.map(\.rawValue)
      case "POLICY": return OnConflict.allCases.map(\.rawValue)
      case "FILE", "OUT", "PUB", "KEY", "CHANGES", "NEW", "NAME": return nil
      default: return []
      }
    }
  }

  /// A command and its one-line summary, in the overview's order.
  static var commands: [(name: String, summary: String)] {
    Command.names.map { name in
      let line = HelpText.overview.split(separator: "\n").first { $0.hasPrefix("  \(name) ") }
      let summary = line.map { $0.dropFirst(2 + name.count).drop { $0 == " " } } ?? ""
      return (name, String(summary))
    }
  }

  /// The global options: those of the overview but `--help` and `--version`, which stand alone.
  static var globalOptions: [Option] {
    options(in: HelpText.overview).filter { $0.long != "--help" && $0.long != "--version" }
  }

  /// The options `command`'s help documents, with `--help`.
  static func options(of command: String) -> [Option] {
    options(in: HelpText.text(for: command)) + [Option(long: "--help", short: "-h", value: nil, summary: "show this help")]
  }

  /// The options documented in `text`: lines indented two spaces that start with `-x, --name` or
  /// `--name`, then an upper-case placeholder for a value.
  static func options(in text: String) -> [Option] {
    text.split(separator: "\n").compactMap { line -> Option? in
      guard line.hasPrefix("  -"), !line.hasPrefix("   ") else { return nil }
      var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      var short: String?
      if let first = words.first, first.count == 3, first.hasSuffix(","), !first.hasPrefix("--") {
        short = String(first.dropLast())
        words.removeFirst()
      }
      guard let long = words.first, long.hasPrefix("--") else { return nil }
      words.removeFirst()
      var value: String?
      if let next = words.first, let scalar = next.unicodeScalars.first, ("A"..."Z").contains(scalar) {
        value = next
        words.removeFirst()
      }
      return Option(long: long, short: short, value: value, summary: words.joined(separator: " "))
    }
  }

  /// The completion script for `shell`.
  static func script(for shell: Shell) -> String {
    switch shell {
    case .bash: return bash
    case .zsh: return zsh
    case .fish: return fish
    }
  }

  /// The commands that take no file operands: what follows them is a word from a fixed set.
  private static let fixedOperands: [String: [String]] = [
    "help": Command.names.filter { $0 != "help" } + ["--man"],
    "completions": Shell.allCases.map(\.rawValue),
  ]

  // MARK: bash

  private static var bash: String {
    let globals = globalOptions
    var lines = [
      "# bash completion for calldir \(CLI.version): source <(calldir completions bash)",
      "_calldir() {",
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" command=\"\" i",
      "  for ((i = 1; i < COMP_CWORD; i++)); do",
      "    case \"${COMP_WORDS[i]}\" in",
      "      \(valueNames(globals).joined(separator: "|"))) ((i++)) ;;",
      "      -*) ;;",
      "      *) command=\"${COMP_WORDS[i]}\"; break ;;",
      "    esac",
      "  done",
      "  case \"$prev\" in",
    ]
    lines += valueCases(globals, indent: "    ", .bash)
    lines += [
      "  esac",
      "  if [[ -z \"$command\" ]]; then",
      "    if [[ \"$cur\" == -* ]]; then",
      "      COMPREPLY=($(compgen -W \"\(words(["--help", "--version"] + globals.map(\.long)))\" -- \"$cur\"))",
      "    else",
      "      COMPREPLY=($(compgen -W \"\(words(Command.names))\" -- \"$cur\"))",
      "    fi",
      "    return",
      "  fi",
      "  case \"$command\" in",
    ]
    lines += commandCases(.bash)
    lines += [
      "  esac",
      "  COMPREPLY=($(compgen -f -- \"$cur\"))",
      "}",
      "complete -o filenames -F _calldir calldir",
    ]
    return lines.joined(separator: "\n")
  }

  // MARK: zsh

  private static var zsh: String {
    let globals = globalOptions
    var lines = [
      "#compdef calldir",
      "# zsh completion for calldir \(CLI.version): calldir completions zsh > \"${fpath[1]}/_calldir\"",
      "_calldir() {",
      "  local -a commands",
      "  commands=(",
    ]
    lines += commands.map { "    \(singleQuoted("\($0.name):\($0.summary)"))" }
    lines += [
      "  )",
      "  local command=\"\" i=2 cur=\"${words[CURRENT]}\" prev=\"${words[CURRENT-1]}\"",
      "  while (( i < CURRENT )); do",
      "    case \"${words[i]}\" in",
      "      (\(valueNames(globals).joined(separator: "|")))) (( i++ )) ;;",
      "      (-*) ;;",
      "      (*) command=\"${words[i]}\"; break ;;",
      "    esac",
      "    (( i++ ))",
      "  done",
      "  case \"$prev\" in",
    ]
    lines += valueCases(globals, indent: "    ", .zsh)
    lines += [
      "  esac",
      "  if [[ -z \"$command\" ]]; then",
      "    if [[ \"$cur\" == -* ]]; then compadd -- \(words(["--help", "--version"] + globals.map(\.long)))",
      "    else _describe 'command' commands",
      "    fi",
      "    return",
      "  fi",
      "  case \"$command\" in",
    ]
    lines += commandCases(.zsh)
    lines += [
      "  esac",
      "  _files",
      "}",
      "_calldir \"$@\"",
    ]
    return lines.joined(separator: "\n")
  }

  // MARK: bash and zsh

  /// How bash and zsh, whose `case` statements and completion calls differ only in spelling,
  /// offer words and file names.
  private struct CaseSyntax: Sendable {
    /// An arm's pattern, `a|b`, as written before its commands.
    var pattern: @Sendable (String) -> String
    /// Offers `words` (space-separated).
    var offer: @Sendable (String) -> String
    /// Offers file names.
    var files: String

    static let bash = CaseSyntax(
      pattern: { "\($0))" }, offer: { "COMPREPLY=($(compgen -W \"\($0)\" -- \"$cur\"))" },
      files: "COMPREPLY=($(compgen -f -- \"$cur\"))")
    static let zsh = CaseSyntax(pattern: { "(\($0))" }, offer: { "compadd -- \($0)" }, files: "_files")
  }

  /// The arms of `case "$command"`: the commands with fixed operands, then each command's option
  /// values and option names.
  private static func commandCases(_ syntax: CaseSyntax) -> [String] {
    var lines = fixedOperands.sorted(by: { $0.key < $1.key }).map { command, operands in
      "    \(syntax.pattern(command)) \(syntax.offer(words(operands))); return ;;"
    }
    for command in Command.names where fixedOperands[command] == nil {
      let options = Completions.options(of: command)
      lines.append("    \(syntax.pattern(command))")
      lines.append("      case \"$prev\" in")
      lines += valueCases(options, indent: "        ", syntax)
      lines.append("      esac")
      lines.append("      if [[ \"$cur\" == -* ]]; then \(syntax.offer(words(options.map(\.long)))); return; fi ;;")
    }
    return lines
  }

  /// `case "$prev"` arms completing the values of `options`: fixed words, file names, or nothing.
  private static func valueCases(_ options: [Option], indent: String, _ syntax: CaseSyntax) -> [String] {
    options.filter { $0.value != nil }.map { option in
      let pattern = syntax.pattern(option.names.joined(separator: "|"))
      switch option.values {
      case nil: return "\(indent)\(pattern) \(syntax.files); return ;;"
      case let words? where words.isEmpty: return "\(indent)\(pattern) return ;;"
      case let words?: return "\(indent)\(pattern) \(syntax.offer(Self.words(words))); return ;;"
      }
    }
  }

  // MARK: fish

  private static var fish: String {
    // The command is the first word that is neither an option nor a global option's value
    // (fish's own __fish_use_subcommand would take `always` in `--color always` for one).
    var lines = [
      "# fish completion for calldir \(CLI.version): calldir completions fish > ~/.config/fish/completions/calldir.fish",
      "function __calldir_command",
      "    set -l words (commandline -opc)",
      "    set -e words[1]",
      "    while set -q words[1]",
      "        switch $words[1]",
      "            case \(valueNames(globalOptions).joined(separator: " "))",
      "                set -e words[1]",
      "            case '-*'",
      "            case '*'",
      "                echo $words[1]",
      "                return 0",
      "        end",
      "        set -e words[1]",
      "    end",
      "    return 1",
      "end",
      "complete -c calldir -f",
    ]
    for (name, summary) in commands {
      lines.append("complete -c calldir -n 'not __calldir_command' -a \(name) -d \(singleQuoted(summary))")
    }
    lines += globalOptions.map { fishOption($0, condition: nil) }
    for (command, operands) in fixedOperands.sorted(by: { $0.key < $1.key }) {
      let condition = singleQuoted("test (__calldir_command) = \(command)")
      lines.append("complete -c calldir -n \(condition) -a \(singleQuoted(words(operands)))")
    }
    let withFiles = Command.names.filter { fixedOperands[$0] == nil }
    lines.append("complete -c calldir -n \(singleQuoted("contains -- (__calldir_command) \(words(withFiles))")) -F")
    for command in withFiles {
      lines += options(of: command).map { fishOption($0, condition: "test (__calldir_command) = \(command)") }
    }
    return lines.joined(separator: "\n")
  }

  private static func fishOption(_ option: Option, condition: String?) -> String {
    var parts = ["complete -c calldir"]
    if let condition { parts.append("-n \(singleQuoted(condition))") }
    parts.append("-l \(option.long.dropFirst(2))")
    if let short = option.short { parts.append("-s \(short.dropFirst())") }
    switch option.values {
    case _ where option.value == nil: break
    case nil: parts.append("-r -F")
    case let words?: parts.append(words.isEmpty ? "-x" : "-x -a \(singleQuoted(Self.words(words)))")
    }
    parts.append("-d \(singleQuoted(option.summary))")
    return parts.joined(separator: " ")
  }

  // MARK: Pieces

  /// The spellings of the options among `options` that take a value.
  private static func valueNames(_ options: [Option]) -> [String] {
    options.filter { $0.value != nil }.flatMap(\.names)
  }

  private static func words(_ words: [String]) -> String { words.joined(separator: " ") }

  /// `text` in single quotes for any of the three shells: a quote inside closes, escapes and reopens.
  private static func singleQuoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
  }
}
