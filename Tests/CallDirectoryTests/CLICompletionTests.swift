import Foundation
import Testing

@testable import CallDirectoryCLI

/// `calldir completions`: scripts made from the help text, every option in them one the parser
/// takes as the help says, and the bash and fish scripts completing what a user types, run in the
/// real shells.
@Suite struct CLICompletionTests {
  private static let commandsWithOptions = Command.names.filter { $0 != "help" && $0 != "completions" }

  @Test(arguments: commandsWithOptions)
  func everyCompletedOptionIsOneTheParserTakes(_ command: String) {
    let options = Completions.options(of: command)
    #expect(options.count >= 2, "\(command) documents its options")
    for option in options where option.long != "--help" {
      for name in option.names {
        let message: String
        do {
          _ = try Command.parse([command, name])
          message = ""
        } catch {
          message = error.message
        }
        #expect(!message.contains("unknown option"), "\(command) \(name): \(message)")
        if option.value != nil {
          #expect(message == "\(name) needs a value", "\(command) \(name) takes \(option.value ?? "")")
        } else {
          do {
            _ = try Command.parse([command, "\(name)=x"])
          } catch {
            // A short flag has no inline form; a long one refuses a value.
            #expect(name.hasPrefix("--") == (error.message == "\(name) takes no value"), "\(command) \(name)")
          }
        }
      }
    }
  }

  @Test func theGlobalOptionsAndCommandsComeFromTheOverview() {
    #expect(Completions.globalOptions.map(\.long) == ["--color", "--verbose"])
    #expect(Completions.commands.map(\.name) == Command.names)
    #expect(Completions.commands.allSatisfy { !$0.summary.isEmpty })
  }

  @Test(arguments: [
    ([], "no shell"), (["tcsh"], "completions knows bash, zsh, fish, not 'tcsh'"), (["bash", "zsh"], "two"),
  ])
  func aShellMustBeNamed(_ arguments: [String], _ what: String) {
    let result = calldirArguments(["completions"] + arguments)
    #expect(result.status == 2, "\(what)")
    if what.hasPrefix("completions") { #expect(result.error.contains(what)) }
  }

  /// Runs `program` with `arguments`, returning standard output.
  private func run(_ program: String, _ arguments: [String]) throws -> String {
    let (status, output) = try runProcess(program, arguments)
    #expect(status == 0, "\(program) \(arguments)")
    return output
  }

  /// What a user has typed, and what completion must offer (every word of `offered`).
  static let typed: [(words: [String], offered: [String])] = [
    (["calldir", "pa"], ["pack", "patch"]),
    (["calldir", "pack", "--fo"], ["--format"]),
    (["calldir", "pack", "--format", ""], ["csv", "tsv", "jsonl"]),
    (["calldir", "--color", ""], ["auto", "always", "never"]),
    (["calldir", "--color", "always", "ver"], ["verify"]),
    (["calldir", "completions", ""], ["bash", "zsh", "fish"]),
    (["calldir", "verify", "--tr"], ["--trust"]),
    (["calldir", "resolve", "--block-w"], ["--block-withheld"]),
    (["calldir", "--verb"], ["--verbose"]),
  ]

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")), arguments: typed)
  func bashCompletesWhatIsTyped(_ words: [String], _ offered: [String]) throws {
    let scratch = try ScratchDirectory()
    let script = try scratch.write("calldir.bash", Completions.script(for: .bash))
    let quoted = words.map { "'\($0)'" }.joined(separator: " ")
    let program = """
      source '\(script)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
      _calldir
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let reply = Set(try run("/bin/bash", ["-c", program]).split(separator: "\n").map(String.init))
    #expect(Set(offered).isSubset(of: reply), "\(words): \(reply.sorted())")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")), arguments: typed)
  func fishCompletesWhatIsTyped(_ words: [String], _ offered: [String]) throws {
    let scratch = try ScratchDirectory()
    let script = try scratch.write("calldir.fish", Completions.script(for: .fish))
    let line = words.joined(separator: " ")
    let reply = try run("/usr/bin/fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
    let offeredWords = Set(reply.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) })
    #expect(Set(offered).isSubset(of: offeredWords), "\(words): \(offeredWords.sorted())")
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
  func theZshScriptParses() throws {
    let scratch = try ScratchDirectory()
    let script = try scratch.write("_calldir", Completions.script(for: .zsh))
    _ = try run("/usr/bin/zsh", ["-n", script])
  }
}
