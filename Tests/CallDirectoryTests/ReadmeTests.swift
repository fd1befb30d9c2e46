import Foundation
import Testing

@testable import CallDirectoryCLI

/// The README as a new user meets it: short, its command-line example run as written (in a
/// temporary directory, with this build's `calldir` on the path), and its command table naming
/// the commands there are.
@Suite struct ReadmeTests {
  private static let text: String = {
    let url = SpecVectorTests.root.appendingPathComponent("README.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The body of the first fenced block of `language` after `heading`.
  private func block(after heading: String, language: String) throws -> String {
    let start = try #require(Self.text.range(of: heading))
    let open = try #require(Self.text.range(of: "```\(language)\n", range: start.upperBound..<Self.text.endIndex))
    let close = try #require(Self.text.range(of: "```", range: open.upperBound..<Self.text.endIndex))
    return String(Self.text[open.upperBound..<close.lowerBound])
  }

  @Test func isShort() {
    #expect(Self.text.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
  }

  @Test func theCommandLineExampleRunsAsWritten() throws {
    let script = try block(after: "## The command-line tool", language: "sh")
    #expect(script.hasPrefix("cd \"$(mktemp -d)\"\n"), "the example writes into a temporary directory")
    var environment = ProcessInfo.processInfo.environment
    let folder = URL(fileURLWithPath: CalldirExecutable.path).deletingLastPathComponent().path
    environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let (status, output) = try runProcess("/bin/bash", ["-e", "-c", script], environment: environment)
    #expect(status == 0)
    #expect(
      output == """
        list.calldir: ok (1 blocking and 1 range, 1 identification, 1 label)
        +12025550100\tblock
        +33899123456\tblock
        +12025550123\tidentify\tAcme Support
        +12025550199\tallow
        +12025550100\tblock\t\tlist.calldir
        kind,number,label
        block,+12025550100,
        block,+33899000000..+33899999999,
        identify,+12025550123,Acme Support

        """)
  }

  @Test func theCommandTableNamesTheCommands() throws {
    let start = try #require(Self.text.range(of: "| command | what it does |"))
    let table = String(Self.text[start.upperBound...]).components(separatedBy: "\n\n").first ?? ""
    let named = table.split(separator: "\n").dropFirst().flatMap { row -> [String] in
      let cell = row.split(separator: "|").first ?? ""
      return cell.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
    }
    #expect(Set(named) == Set(Command.names).subtracting(["help"]), "\(named)")
  }
}
