import CallDirectory
import CallDirectoryCLI
import CallDirectorySystem
import Foundation
import Testing

/// `calldir resolve`, run in-process.
@Suite struct ResolverCLITests {
  /// A scratch directory with a contacts allow list, a spam list and a business caller-ID list.
  struct Stack {
    let scratch: ScratchDirectory
    var contacts: String { scratch.path("contacts.calldir") }
    var spam: String { scratch.path("spam.calldir") }
    var business: String { scratch.path("business.calldir") }

    init() throws {
      scratch = try ScratchDirectory()
      try ResolverFixtures.write(
        scratch.path("contacts.calldir"), identification: [(12_025_550_101, "Mum"), (442_079_460_958, "Office")])
      try ResolverFixtures.write(
        scratch.path("spam.calldir"), blocking: [12_025_550_100, 12_025_550_101, 12_025_550_102],
        identification: [(12_025_550_100, "Spam Risk"), (12_025_550_101, "Spam Risk")])
      try ResolverFixtures.write(
        scratch.path("business.calldir"), identification: [(12_025_550_123, "Acme\tSupport"), (12_025_550_102, "Acme")])
    }
  }

  /// Runs `calldir` in-process with standard input handed out a line at a time from `lines`,
  /// calling `before(n)` before line `n` is: for a long-running command whose files change
  /// between lines.
  static func lineByLine(
    _ arguments: [String], lines: [String], before: @escaping (Int) -> Void
  ) -> (status: Int32, output: String, errors: String) {
    var next = 0
    var output: [UInt8] = []
    var errors = ""
    let console = Console(
      readInput: { () throws(SystemError) in [] },
      // One line a chunk: the reader asks for the next only once the last is answered.
      readChunk: { () throws(SystemError) -> [UInt8] in
        guard next < lines.count else { return [] }
        defer { next += 1 }
        before(next)
        return Array((lines[next] + "\n").utf8)
      },
      writeOutput: { (bytes) throws(SystemError) in output.append(contentsOf: bytes) },
      writeError: { errors += $0 })
    let status = CLI.main(arguments, console: console)
    return (status, String(decoding: output, as: UTF8.self), errors)
  }

  @Test func plainOutput() throws {
    let stack = try Stack()
    let result = calldir(
      "resolve", "--allow", stack.contacts, stack.spam, stack.business, "+1 (202) 555-0100", "tel:+1-202-555-0101",
      "12025550102", "12025550123", "+12025550199", "911", "000")
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.isEmpty)
    #expect(
      result.output.split(separator: "\n", omittingEmptySubsequences: false) == [
        "+12025550100\tblock\tSpam Risk\t\(stack.spam)",
        "+12025550101\tallow\tMum\t\(stack.contacts)",
        "+12025550102\tblock\t\t\(stack.spam)",
        "+12025550123\tidentify\tAcme Support\t\(stack.business)",  // the tab in the label is a space
        "+12025550199\tallow\t\t",
        "911\tallow\t\t",
        "000\tallow\t\t",
        "",
      ])
  }

  @Test func jsonOutput() throws {
    let stack = try Stack()
    let result = calldir(
      "resolve", "--json", stack.spam, "--allow", stack.contacts, "+12025550100", "+12025550101", "112", "+1202555x")
    #expect(result.status == 1)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        #"{"input":"+12025550100","number":"+12025550100","action":"block","label":"Spam Risk","directory":"\#(stack.spam)","reason":"blocked"}"#,
        #"{"input":"+12025550101","number":"+12025550101","action":"allow","label":"Mum","directory":"\#(stack.contacts)","reason":"allowListed"}"#,
        #"{"input":"112","number":"112","action":"allow","label":null,"directory":null,"reason":"emergency"}"#,
        #"{"input":"+1202555x","error":"invalid character 'x' in number \"+1202555x\""}"#,
      ])
    for line in lines {
      #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
    }
  }

  @Test func countryAndEmergencyOptions() throws {
    let stack = try Stack()
    let national = calldir("resolve", "--country", "44", "--allow", stack.contacts, stack.spam, "020 7946 0958")
    #expect(national.output == "+442079460958\tallow\tOffice\t\(stack.contacts)\n")
    let nanp = calldir("resolve", "-c", "1", stack.spam, "(202) 555-0100")
    #expect(nanp.output == "+12025550100\tblock\tSpam Risk\t\(stack.spam)\n")
    // The number itself made an emergency number: never blocked.
    let custom = calldir("resolve", "--emergency", "default,12025550100", stack.spam, "+1 202 555 0100", "911")
    #expect(custom.output == "+12025550100\tallow\t\t\n911\tallow\t\t\n")
    let none = calldir("resolve", "--json", "--emergency=none", stack.spam, "911")
    #expect(none.output.contains(#""reason":"notListed""#))
  }

  @Test func longRunningOverInputLines() throws {
    let stack = try Stack()
    let input = "+12025550100\r\n\n12025550101\nnot a number\n911\n+12025550123"  // last line without LF
    for arguments in [
      [stack.spam, "--allow", stack.contacts], [stack.spam, "--allow", stack.contacts, "-"],
      ["--stdin", stack.spam, "--allow", stack.contacts],
    ] {
      let result = calldirArguments(["resolve"] + arguments, input: input)
      #expect(result.status == 1, "an invalid line makes the exit code 1, at the end")
      #expect(
        result.output.split(separator: "\n", omittingEmptySubsequences: false) == [
          "+12025550100\tblock\tSpam Risk\t\(stack.spam)",
          "\tallow\t\t",
          "+12025550101\tallow\tMum\t\(stack.contacts)",
          "not a number\terror\tinvalid character 'n' in number \"not a number\"\t",
          "911\tallow\t\t",
          "+12025550123\tallow\t\t",
          "",
        ], "\(arguments)")
      // A blank line is a withheld caller, allowed; only the line that is not a number is an error.
      #expect(result.error.contains("calldir: invalid number: invalid character 'n'"))
    }
    let clean = calldir("resolve", "--json", stack.spam, input: "+12025550102\n")
    #expect(clean.status == 0 && clean.output.hasSuffix(#""reason":"blocked"}"# + "\n"))
    #expect(calldir("resolve", stack.spam, input: "").output.isEmpty)
  }

  /// A file replaced between two lines is answered from its new version from the next line on;
  /// a replacement that does not open is reported once and the previous version keeps answering.
  @Test func longRunningReloadsReplacedFiles() throws {
    let stack = try Stack()
    let lines = ["+12025550100", "+12025550100", "+12025550100", "+12025550100", "+12025550100"]
    let (status, output, errors) = Self.lineByLine(["resolve", stack.spam], lines: lines) { line in
      switch line {
      case 1: try? ResolverFixtures.write(stack.spam, identification: [(12_025_550_100, "Pizza Place")])
      case 2: try? Data("garbage".utf8).write(to: URL(fileURLWithPath: stack.spam), options: .atomic)
      case 4: try? ResolverFixtures.write(stack.spam, blocking: [12_025_550_100])
      default: break
      }
    }
    #expect(status == 0, "\(errors)")
    #expect(
      output.split(separator: "\n") == [
        "+12025550100\tblock\tSpam Risk\t\(stack.spam)",
        "+12025550100\tidentify\tPizza Place\t\(stack.spam)",
        "+12025550100\tidentify\tPizza Place\t\(stack.spam)",  // the garbage is not served
        "+12025550100\tidentify\tPizza Place\t\(stack.spam)",
        "+12025550100\tblock\t\t\(stack.spam)",
      ])
    let reports = errors.split(separator: "\n").filter { $0.contains("cannot reload") }
    #expect(reports.count == 1, "\(errors)")
    #expect(reports.first?.contains("still answering from the previous version") == true)
  }

  /// `--trust` and `--installed-version`: a directory must be signed by a trusted key and not
  /// older than the floor, at start and at every reload.
  @Test func trustAndInstalledVersion() throws {
    let scratch = try ScratchDirectory()
    let key = DamageFixtures.key
    let keyPath = scratch.path("provider.pub")
    try Data(key.publicKey.fileText.utf8).write(to: URL(fileURLWithPath: keyPath))
    let path = scratch.path("list.calldir")
    func publish(_ version: UInt64, signed: Bool) throws {
      try ResolverDamageTests.publish(try ResolverDamageTests.list(version, signedBy: signed ? key : nil), at: path)
    }
    let number = "+\(ResolverDamageTests.number)"
    try publish(5, signed: false)
    let unsigned = calldirArguments(["resolve", "--trust", keyPath, path, number])
    #expect(unsigned.status == 1 && unsigned.output.isEmpty)
    #expect(unsigned.error.contains("not signed"), "\(unsigned.error)")
    #expect(calldirArguments(["resolve", path, number]).status == 0)
    try publish(5, signed: true)
    #expect(calldirArguments(["resolve", "--trust", keyPath, path, number]).output == "\(number)\tidentify\tv5\t\(path)\n")
    let old = calldirArguments(["resolve", "--trust", keyPath, "--installed-version", "6", path, number])
    #expect(old.status == 1 && old.error.contains("older than the installed version 6"), "\(old.error)")

    // Long-running: an unsigned, then an older, then a damaged replacement are refused and
    // reported; a newer signed one is served.
    let (status, output, errors) = Self.lineByLine(
      ["resolve", "--trust", keyPath, path], lines: Array(repeating: number, count: 5)
    ) {
      line in
      switch line {
      case 1: try? publish(9, signed: false)
      case 2: try? publish(4, signed: true)
      case 3:
        var damaged = try! ResolverDamageTests.list(8, signedBy: key)
        damaged[damaged.count / 2] ^= 0x08
        try? ResolverDamageTests.publish(damaged, at: path)
      case 4: try? publish(8, signed: true)
      default: break
      }
    }
    #expect(status == 0, "\(errors)")
    let labels = output.split(separator: "\n").map { $0.split(separator: "\t")[2] }
    #expect(labels == ["v5", "v5", "v5", "v5", "v8"])
    #expect(errors.split(separator: "\n").filter { $0.contains("cannot reload") }.count == 3, "\(errors)")
  }

  @Test(arguments: [
    ["resolve"], ["resolve", "+12025550100"], ["resolve", "--json"], ["resolve", "--allow"],
    ["resolve", "--bogus", "x.calldir"], ["resolve", "--country", "0", "x.calldir"],
    ["resolve", "--emergency", "9x1", "x.calldir"], ["resolve", "--emergency", "", "x.calldir"],
    ["resolve", "x.calldir", "-", "+12025550100"], ["resolve", "--stdin", "x.calldir", "+12025550100"],
    ["resolve", "--json=yes", "x.calldir"], ["resolve", "--installed-version", "-1", "x.calldir"],
    ["resolve", "--installed-version", "x.calldir"], ["resolve", "x.calldir", "--trust"],
    ["resolve", "--emergency", "none", "--emergency", "911", "x.calldir"],
    ["resolve", "--emergency", "911", "--emergency=none", "x.calldir"],
  ])
  func usageErrorsExitTwo(_ arguments: [String]) {
    let result = calldirArguments(arguments)
    #expect(result.status == 2, "\(arguments)")
    #expect(result.error.hasPrefix("calldir: "), "\(arguments): \(result.error)")
    #expect(result.error.contains("calldir help resolve"))
    #expect(result.output.isEmpty)
  }

  @Test func missingOrBadDirectoryExitsOne() throws {
    let stack = try Stack()
    let missing = calldir("resolve", stack.scratch.path("nope.calldir"), "+12025550100")
    #expect(missing.status == 1 && missing.error.contains("cannot open") && missing.output.isEmpty)
    let text = try stack.scratch.write("text.calldir", "hello")
    let bad = calldir("resolve", "--allow", text, stack.spam, "+12025550100")
    #expect(bad.status == 1 && bad.error.contains("text.calldir") && bad.output.isEmpty)
  }

  @Test func parsesTheStackInOrder() throws {
    let stack = try Stack()
    let command = try Command.parse([
      "resolve", stack.spam, "--allow", stack.contacts, "+12025550100", stack.business, "--country=44", "020 7946 0958",
    ])
    var expected = Command.ResolveOptions()
    expected.directories = [.init(path: stack.spam), .init(path: stack.contacts, allowList: true), .init(path: stack.business)]
    expected.numbers = ["+12025550100", "020 7946 0958"]
    expected.country = "GB"
    #expect(command == .resolve(expected))
    guard case .resolve(let long) = try Command.parse(["resolve", stack.spam]) else {
      Issue.record("not a resolve command")
      return
    }
    #expect(long.standardInput && long.numbers.isEmpty)
    guard case .resolve(let emergency) = try Command.parse(["resolve", "--emergency", "default,116117", stack.spam]) else {
      Issue.record("not a resolve command")
      return
    }
    #expect(emergency.emergency.codes == (EmergencyNumbers.defaultCodes + ["116117"]).sorted())
  }

  /// A repeated `--emergency` adds its codes, for `resolve` and `serve` alike: a second list that
  /// replaced the first would let 911 be blocked below.
  @Test func repeatedEmergencyListsAreJoined() throws {
    let stack = try Stack()
    let expected = (["911", "116117", "15"]).sorted()
    guard case .resolve(let resolve) = try Command.parse(["resolve", "--emergency", "911", "--emergency=116117,15", stack.spam])
    else {
      Issue.record("not a resolve command")
      return
    }
    #expect(resolve.emergency.codes == expected)
    guard case .serve(let serve) = try Command.parse(["serve", "--emergency", "911", stack.spam, "--emergency", "116117,15"])
    else {
      Issue.record("not a serve command")
      return
    }
    #expect(serve.resolve.emergency.codes == expected)
    let both = calldir("resolve", "--json", "--emergency", "911", "--emergency", "116117", stack.spam, "911")
    #expect(both.status == 0 && both.output.contains(#""reason":"emergency""#), "\(both.output)")
    let none = calldirArguments(["serve", "--emergency", "911", "--emergency", "none", stack.spam])
    #expect(none.status == 2 && none.error.contains("--emergency none cannot be combined"), "\(none.error)")
  }

  @Test func help() {
    let help = calldir("help", "resolve")
    #expect(help.status == 0 && help.output.contains("Usage: calldir resolve"))
    #expect(help.output.contains("NUMBER  ACTION"))
    #expect(calldir("resolve", "--help").output == help.output)
    #expect(calldir("--help").output.contains("resolve"))
  }
}

/// Runs `calldir` in-process with an argument array.
func calldirArguments(_ arguments: [String], input: String = "") -> (status: Int32, output: String, error: String) {
  let capture = CapturedConsole(input: Array(input.utf8))
  let status = CLI.main(arguments, console: capture.console)
  return (status, capture.outputText, capture.error)
}
