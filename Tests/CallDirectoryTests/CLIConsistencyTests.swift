import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// One set of output rules for every command (`Spec/INPUT.md` section 5): results on standard
/// output and reports on standard error, one summary rule, one verdict vocabulary, global options
/// with suggestions, colour only where asked for, places only where there is one, plurals.
@Suite struct CLIConsistencyTests {
  private func sample(_ scratch: ScratchDirectory) throws -> String {
    let list = try scratch.write("list.csv", "kind,number,label\nblock,+12025550100,\nidentify,+12025550101,Acme\n")
    let out = scratch.path("list.calldir")
    #expect(calldir("pack", list, "-o", out).status == 0)
    return out
  }

  @Test(arguments: [
    (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
    (["--colour=always", "info", "x"], "unknown option '--colour=always'; did you mean '--color'?"),
    (["pack", "--verbos", "x", "-o", "y"], "unknown option '--verbos' for pack; did you mean '--verbose'?"),
    (["--color=sometimes", "info", "x"], "--color must be auto, always or never, not 'sometimes'"),
    (["info", "x", "--color"], "--color needs a value: auto, always or never"),
  ])
  func globalOptionMistakesAreUsageErrors(_ arguments: [String], _ message: String) {
    let result = calldirArguments(arguments)
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("calldir: \(message)\n"), "\(result.error)")
  }

  @Test(arguments: ["resolve", "serve"])
  func aBadEmergencyListPointsToTheCommandsOwnHelp(_ command: String) {
    let result = calldirArguments([command, "--emergency", "9x", "list.calldir"])
    #expect(result.status == 2)
    #expect(result.error.hasSuffix("Try 'calldir help \(command)'.\n"), "\(result.error)")
  }

  @Test func globalOptionsAreTakenFromAnywhereBeforeTheEndOfOptions() throws {
    let (options, rest) = try GlobalOptions.extract(from: [
      "lookup", "--color", "always", "f.calldir", "--verbose", "+1 202", "--", "--color=never",
    ])
    #expect(options.color == .always && options.verbose)
    #expect(rest == ["lookup", "f.calldir", "+1 202", "--", "--color=never"])
  }

  @Test func colourFollowsTheChoiceTheTerminalAndNoColor() {
    var options = GlobalOptions()
    #expect(options.colors(terminal: true, environment: [:]))
    #expect(!options.colors(terminal: false, environment: [:]))
    #expect(!options.colors(terminal: true, environment: ["NO_COLOR": "1"]))
    #expect(options.colors(terminal: true, environment: ["NO_COLOR": ""]), "an empty NO_COLOR is unset")
    #expect(!options.colors(terminal: true, environment: ["TERM": "dumb"]))
    options.color = .always
    #expect(options.colors(terminal: false, environment: ["NO_COLOR": "1"]))
    options.color = .never
    #expect(!options.colors(terminal: true, environment: [:]))
  }

  @Test func verdictsAreColouredOnlyWhenAsked() throws {
    let scratch = try ScratchDirectory()
    let file = try sample(scratch)
    let plain = calldir("lookup", file, "+12025550100", "+12025550101", "+12025550102")
    #expect(plain.output == "+12025550100\tblock\n+12025550101\tidentify\tAcme\n+12025550102\tallow\n")
    let coloured = calldir("--color=always", "lookup", file, "+12025550100", "+12025550101", "+12025550102")
    #expect(
      coloured.output
        == "+12025550100\t\u{1B}[31mblock\u{1B}[0m\n+12025550101\t\u{1B}[33midentify\u{1B}[0m\tAcme\n"
        + "+12025550102\t\u{1B}[32mallow\u{1B}[0m\n")
    let resolve = calldir("resolve", file, "+12025550100", "--color", "always")
    #expect(resolve.output.hasPrefix("+12025550100\t\u{1B}[31mblock\u{1B}[0m\t"), "\(resolve.output)")
    #expect(calldir("--color=always", "verify", file).output.contains("\u{1B}[32mok\u{1B}[0m"))
    #expect(calldir("--color=always", "lookup", file, "--json", "+12025550100").output.contains("\u{1B}") == false)
  }

  @Test func lookupAndResolveShareTheirVerdictWords() throws {
    let scratch = try ScratchDirectory()
    let file = try sample(scratch)
    for number in ["+12025550100", "+12025550101", "+12025550102"] {
      let looked = calldir("lookup", file, number).output.split(whereSeparator: { $0 == "\t" || $0 == "\n" })
      let resolved = calldir("resolve", file, number).output.split(whereSeparator: { $0 == "\t" || $0 == "\n" })
      #expect(looked[1] == resolved[1], "\(number)")
    }
  }

  @Test func summariesFollowOneRule() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("list.txt", "+12025550100\n")
    let out = scratch.path("out.calldir")
    #expect(calldir("pack", "--block", list, "-o", out).error.isEmpty, "not a terminal: no summary")
    let verbose = calldir("--verbose", "pack", "--block", list, "-o", out)
    #expect(verbose.error.hasPrefix("read 1 entry and packed \(out)"), "\(verbose.error)")
    #expect(calldir("pack", "--verbose", "--quiet", "--block", list, "-o", out).error.isEmpty, "--quiet wins")
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", "-q", out, out, "-o", changes).output.isEmpty)
    #expect(calldir("--verbose", "patch", out, changes, "-o", scratch.path("p.calldir")).error.hasPrefix("patched "))
  }

  @Test func verifyReportsProblemsOnStandardErrorAndVerdictsOnStandardOutput() throws {
    let missing = ConformanceSuiteTests.suite.appendingPathComponent("cases/missing-ldat.calldir").path
    let text = calldir("verify", missing)
    #expect(text.status == 1)
    #expect(text.output == "\(missing): INVALID (1 problem)\n")
    #expect(text.error == "\(missing): missing required section LDAT\n", "a problem of the whole file has no byte")
    let json = calldir("verify", "--json", missing)
    #expect(json.output.contains(#""problems":[{"offset":null,"section":null,"message":"missing required section LDAT""#))
    #expect(json.error.isEmpty)
  }

  @Test func unplacedErrorsSayNoByte() {
    #expect(FormatError(unplaced: .missingSection("LDAT")).description == "missing required section LDAT")
    #expect(FormatError(.missingSection("LDAT"), at: 0).description == "missing required section LDAT at byte 0")
    #expect(!FormatError(unplaced: .badMagic).isPlaced && FormatError(.badMagic, at: 0).isPlaced)
  }

  @Test func jsonNumbersAreNumbersAndCountsArePlural() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("list.txt", "+12025550100\n")
    let out = scratch.path("out.calldir")
    #expect(calldir("pack", "--block", list, "--list-version", "18446744073709551615", "-o", out).status == 0)
    #expect(calldir("verify", "--json", out).output.contains(#""listVersion":18446744073709551615,"#))
    #expect(calldir("info", "--json", out).output.contains(#""listVersion":18446744073709551615,"#))
    let info = calldir("info", out).output
    #expect(info.contains("blocking:        1 entry in 1 block of at most"), "\(info)")
    #expect(info.contains("identification:  0 entries in 0 blocks"), "\(info)")
  }

  /// Numbers read from standard input: an invalid one is named with its line, and the others
  /// are answered in order.
  @Test func lookupNamesTheLineOfAnInvalidNumber() throws {
    let scratch = try ScratchDirectory()  // kept to the end: it removes its files when it goes
    let file = try scratch.blocking(named: "f.calldir")
    let result = calldir("lookup", file, input: "+12025550100\nbad\n\n+12025550101\n")
    #expect(result.status == 1)
    #expect(result.error.contains("<stdin>:2: invalid number: invalid character 'b'"), "\(result.error)")
    #expect(result.error.contains("<stdin>:3: invalid number"), "\(result.error)")
    #expect(result.output.hasPrefix("+12025550100\tblock\n"), "\(result.output)")
    #expect(result.output.hasSuffix("+12025550101\tallow\n"), "\(result.output)")
  }
}
