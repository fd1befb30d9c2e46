import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// A scratch directory for one test, removed when the test ends.
final class ScratchDirectory {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
    return path(name)
  }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// Writes a directory that blocks `numbers` (+1 202 555 0100 when none are given) as `name`,
  /// and returns its path.
  @discardableResult
  func blocking(_ numbers: Int64..., named name: String) throws -> String {
    var builder = DirectoryBuilder()
    for number in numbers.isEmpty ? [12_025_550_100] : numbers { try builder.block(number) }
    try builder.write(to: path(name))
    return path(name)
  }

  /// The names in the directory (to see that nothing, not even a temporary file, was left).
  func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }
}

/// Runs the program at `executable` with `arguments`, its standard output discarded: its exit
/// status and what it wrote to standard error.
func runCapturingErrors(_ executable: String, _ arguments: [String]) throws -> (status: Int32, errors: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}

/// Runs `calldir` in-process.
func calldir(_ arguments: String..., input: String = "") -> (status: Int32, output: String, error: String) {
  calldir(arguments, input: input)
}

/// `calldir` with arguments made at run time.
func calldir(_ arguments: [String], input: String = "") -> (status: Int32, output: String, error: String) {
  let capture = CapturedConsole(input: Array(input.utf8))
  let status = CLI.main(arguments, console: capture.console)
  return (status, capture.outputText, capture.error)
}

@Suite struct CLIUsageTests {
  @Test(arguments: [
    [], ["frobnicate"], ["pak"], ["pack"], ["pack", "--block", "x.txt"], ["pack", "-o", "out.calldir"],
    ["pack", "--block"], ["pack", "--blok", "x", "-o", "y"], ["pack", "--country", "0", "--block", "x", "-o", "y"],
    ["pack", "--country", "abc", "--block", "x", "-o", "y"], ["pack", "-", "--block", "-", "-o", "y"],
    ["unpack"], ["unpack", "a", "b"], ["verify"], ["verify", "--jsn", "x"], ["lookup"], ["info"],
    ["info", "--json=yes", "x"], ["help", "nothing"], ["pack", "--entries-per-block", "0", "--block", "x", "-o", "y"],
    ["verify", "-", "-"], ["diff", "--json", "a", "b", "-o", "-"], ["sign", "x", "--key", "k", "-o", ""],
    ["pack", "--block", "x", "-o", ""],
    ["lookup", "x", "+12025550100", "-"], ["lookup", "-"],
  ])
  func usageErrorsExitTwo(_ arguments: [String]) {
    let capture = CapturedConsole()
    let status = CLI.main(arguments, console: capture.console)
    #expect(status == 2, "\(arguments)")
    #expect(capture.error.hasPrefix("calldir: "), "\(arguments): \(capture.error)")
    #expect(capture.output.isEmpty)
  }

  @Test func suggestsTheNearestCommand() {
    #expect(calldir("verfy", "x").error.contains("did you mean 'verify'?"))
    #expect(calldir("pack", "--identfy", "x", "-o", "y").error.contains("did you mean '--identify'?"))
  }

  @Test func helpAndVersion() {
    #expect(calldir("--help").status == 0)
    #expect(calldir("--help").output.contains("Commands:"))
    for command in ["pack", "unpack", "verify", "lookup", "info"] {
      let help = calldir("help", command)
      #expect(help.status == 0 && help.output.contains("Usage: calldir \(command)"))
      #expect(calldir(command, "--help").output == help.output)
    }
    #expect(
      calldir("--version").output.contains(
        "format 2.6: reads 1.x and 2.x, writes 2.0, 2.1 for files whose entry data is longer than a page, "
          + "2.2 for files with range blocks, 2.3 for files with prefix-coded labels, 2.5 for files whose "
          + "indexes have group checks, and 2.6 for files whose top indexes are summarised (with checked tops)"
      ))
  }

  @Test func parsesBothOptionForms() throws {
    let a = try Command.parse(["pack", "--block", "b.txt", "--output", "o.calldir", "--country", "44"])
    let b = try Command.parse(["pack", "--block=b.txt", "--output=o.calldir", "--country=+44"])
    #expect(a == b)
  }
}

@Suite struct CLIPackTests {
  @Test func packVerifyLookupUnpackRoundTrip() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", "# spam\n+1 (202) 555-0100\n\n  12025550101  \ntel:+1-202-555-0102\n")
    let identify = try scratch.write("id.csv", "number,label\n+1 202 555 0110,\"Acme, Inc.\"\n+44 20 7946 0958,Café\n")
    let out = scratch.path("out.calldir")
    let pack = calldir("pack", "--block", block, "--identify", identify, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    #expect(calldir("verify", out).status == 0)

    let lookup = calldir("lookup", out, "+12025550100", "+1 202 555 0110", "+12025550199", "--json")
    #expect(lookup.status == 0)
    #expect(
      lookup.output == """
        {"number":"+12025550100","action":"block","blocked":true,"label":null}
        {"number":"+12025550110","action":"identify","blocked":false,"label":"Acme, Inc."}
        {"number":"+12025550199","action":"allow","blocked":false,"label":null}

        """)
    let unpack = calldir("unpack", out)
    #expect(
      unpack.output == """
        kind,number,label
        block,+12025550100,
        block,+12025550101,
        block,+12025550102,
        identify,+12025550110,"Acme, Inc."
        identify,+442079460958,Café

        """)
    // The listing packs back to identical bytes, read from standard input.
    let capture = CapturedConsole(input: Array(unpack.output.utf8))
    #expect(CLI.main(["pack", "-", "-o", "-"], console: capture.console) == 0)
    #expect(capture.output == [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
  }

  @Test func nationalNumbersWithCountry() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("uk.txt", "020 7946 0958\n")
    let out = scratch.path("uk.calldir")
    #expect(calldir("pack", "--country", "44", "--block", block, "-o", out).status == 0)
    #expect(calldir("lookup", out, "+44 20 7946 0958").output == "+442079460958\tblock\n")
    #expect(calldir("lookup", "--country", "44", out, "020 7946 0958").output == "+442079460958\tblock\n")
  }

  /// Bad input: a message naming the file and line, exit 1, and nothing written.
  @Test(arguments: [
    ("block.txt", "+12025550100\n+1 202 555 01x0\n", "block", "block.txt:2:"),
    ("block.txt", "+12025550100\n+1234567890123456\n", "block", "block.txt:2:"),
    ("block.txt", "+0 202 555 0100\n", "block", "block.txt:1:"),
    ("id.csv", "number,label\n+12025550100,\n", "identify", "id.csv:2:"),
    ("id.csv", "+12025550100,\"broken\n", "identify", "id.csv:1:"),
    ("id.csv", "+12025550100,ok\n+12025550101,\u{FFFD}\n", "identify-bytes", "id.csv:2:"),
    ("id.csv", "+12025550100,A\n+12025550100,B\n", "identify", "+12025550100"),
    ("id.csv", "+12025550100,\(String(repeating: "x", count: 65_535))\n", "identify", "id.csv:1:"),
    ("list.csv", "kind,number,label\ndeny,+12025550100,\n", "listing", "list.csv:2:"),
  ])
  func badInputIsRefused(name: String, contents: String, kind: String, expected: String) throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path(name)
    var bytes = Array(contents.utf8)
    if kind == "identify-bytes" {  // replace U+FFFD by bytes that are not UTF-8
      let marker: [UInt8] = [0xEF, 0xBF, 0xBD]
      if let at = (0...(bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 3]) == marker }) {
        bytes.replaceSubrange(at..<at + 3, with: [0xC3, 0x28])
      }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let existing = try scratch.write("existing.calldir", "keep me")
    let arguments: [String] =
      switch kind {
      case "block": ["pack", "--block", path, "-o", existing]
      case "listing": ["pack", path, "-o", existing]
      default: ["pack", "--identify", path, "-o", existing]
      }
    let capture = CapturedConsole()
    let status = CLI.main(arguments, console: capture.console)
    #expect(status == 1)
    #expect(capture.error.contains(expected), "\(capture.error)")
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
    #expect(try scratch.names() == [name, "existing.calldir"].sorted())
  }

  @Test func missingFileIsNamed() throws {
    let scratch = try ScratchDirectory()
    let result = calldir("pack", "--block", scratch.path("nope.txt"), "-o", scratch.path("out.calldir"))
    #expect(result.status == 1)
    #expect(result.error.contains("nope.txt"))
    #expect(!scratch.exists("out.calldir"))
  }
}

@Suite struct CLIReadTests {
  static func sample(_ scratch: ScratchDirectory) throws -> String {
    var builder = DirectoryBuilder()
    try builder.block(12025550100)
    try builder.identify(12025550100, label: "Spam \"likely\"")
    let path = scratch.path("s.calldir")
    try builder.write(to: path)
    return path
  }

  @Test func lookupText() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.sample(scratch)
    let result = calldir("lookup", path, "+12025550100", "12025550101")
    #expect(result.output == "+12025550100\tblock\tSpam \"likely\"\n+12025550101\tallow\n")
  }

  @Test func lookupInvalidNumberExitsOneAndStillAnswersTheRest() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.sample(scratch)
    let result = calldir("lookup", "--json", path, "call me", "+12025550100")
    #expect(result.status == 1)
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0].contains("\"error\""))
    #expect(lines[1].contains("\"blocked\":true"))
    #expect(result.error.contains("call me"))
  }

  @Test func damagedAndMissingFiles() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.sample(scratch)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[bytes.count - 3] ^= 0x40
    let damaged = scratch.path("damaged.calldir")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let verify = calldir("verify", path, damaged)
    #expect(verify.status == 1)
    #expect(verify.output.contains("\(path): ok"))
    #expect(verify.output.contains("\(damaged): INVALID"))
    let json = calldir("verify", "--json", damaged)
    #expect(json.output.hasPrefix("{\"file\":") && json.output.contains("\"valid\":false"))
    let notAFile = try scratch.write("text.calldir", "hello, world, this is not a directory file at all")
    for command in ["info", "unpack"] {
      let result = calldir(command, notAFile)
      #expect(result.status == 1 && result.error.contains("bad magic"), "\(command): \(result.error)")
    }
    #expect(calldir("info", scratch.path("missing.calldir")).status == 1)
    #expect(calldir("lookup", scratch.path("missing.calldir"), "+12025550100").error.contains("missing.calldir"))
  }

  @Test func infoJSON() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.sample(scratch)
    let result = calldir("info", "--json", path)
    #expect(result.status == 0)
    #expect(result.output.contains("\"version\":\"2.0\""))
    #expect(result.output.contains("\"blocking\":{\"entries\":1"))
    #expect(calldir("info", path).output.contains("format version:  2.0"))
  }
}
