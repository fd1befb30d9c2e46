import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `calldir export --live-caller-id`: the datasets decode, with PyPI's `protobuf` built from the
/// published schemas, to exactly what the stack answers for each number it lists.
@Suite struct LiveCallerIDExportTests {
  /// The Python decoder (`Tests/Fixtures/decode-live-caller-id.py`) and the interpreter that has
  /// `protobuf`: `$CALLDIR_PYTHON`, else the venv `.ci/run` makes, else `python3`.
  enum Decoder {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/decode-live-caller-id.py").path

    static let python: String = {
      if let chosen = ProcessInfo.processInfo.environment["CALLDIR_PYTHON"] { return chosen }
      let venv = NSHomeDirectory() + "/.cache/calldir/venv/bin/python3"
      return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }()

    /// Whether the interpreter can import `google.protobuf`.
    static let isAvailable: Bool = (try? run([python, "-c", "import google.protobuf"]).status) == 0

    /// The decoder's lines for the datasets in `directory`.
    static func decode(_ directory: String) throws -> [String] {
      let result = try run([python, script, directory])
      #expect(result.status == 0, "\(result.error)")
      return result.output.split(separator: "\n").map(String.init)
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: arguments[0])
      process.arguments = Array(arguments.dropFirst())
      let output = Pipe()
      let error = Pipe()
      process.standardOutput = output
      process.standardError = error
      try process.run()
      let outputBytes = output.fileHandleForReading.readDataToEndOfFile()
      let errorBytes = error.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (
        process.terminationStatus, String(decoding: outputBytes, as: UTF8.self), String(decoding: errorBytes, as: UTF8.self)
      )
    }
  }

  static let unavailable: Comment = """
    the Python module protobuf is unavailable: python3 -m venv ~/.cache/calldir/venv && \
    ~/.cache/calldir/venv/bin/pip install protobuf (as .ci/run does), or set CALLDIR_PYTHON
    """

  /// A label as the decoder prints it: backslash, tab and LF escaped.
  static func printed(_ label: String) -> String {
    label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  /// A seeded directory of single numbers and ranges, blocked, labelled or both, decodes to its
  /// entries: a block row with value 01 for each blocked number, an identity row with the
  /// label, the cache expiry and the category for each labelled one, nothing else.
  @Test(.enabled(if: Decoder.isAvailable, unavailable), arguments: [1, 2, 3] as [UInt64])
  func aDirectoryDecodesToItsEntries(seed: UInt64) throws {
    let scratch = try ScratchDirectory()
    var random = SeededGenerator(seed: 0x1C1D &+ seed)
    var blocked: Set<Int64> = []
    var labels: [Int64: String] = [:]
    var builder = DirectoryBuilder()
    let names = ["Spam Risk", "Acme\tSupport", "Café \"Zürich\"", "back\\slash", "😀"]
    var base: Int64 = 33_100_000_000
    for _ in 0..<300 {
      base += Int64.random(in: 1...40, using: &random)
      let width = Int64.random(in: 0..<10, using: &random) == 0 ? Int64.random(in: 1...30, using: &random) : 0
      let numbers = base...(base + width)
      base += width
      let label = names.randomElement(using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        try builder.block(numbers)
        blocked.formUnion(numbers)
      case 1:
        try builder.identify(numbers, label: label ?? "")
        for number in numbers { labels[number] = label }
      default:
        try builder.block(numbers)
        try builder.identify(numbers, label: label ?? "")
        blocked.formUnion(numbers)
        for number in numbers { labels[number] = label }
      }
    }
    try builder.write(to: scratch.path("list.calldir"))
    let result = calldir(
      "export", "--live-caller-id", scratch.path("list.calldir"), "-o", scratch.path("lcid"), "--cache-expiry", "90",
      "--category", "business")
    #expect(result.status == 0, "\(result.error)")
    let expected =
      blocked.sorted().map { "block\t+\($0)\t01" }
      + labels.keys.sorted().map { "identity\t+\($0)\t\(Self.printed(labels[$0] ?? ""))\t90\t2" }
    #expect(try Decoder.decode(scratch.path("lcid")) == expected, "seed \(seed)")
  }

  /// A stack decodes to its answers, as `resolve` gives them: an allow list's number is in no
  /// block row but keeps its label, a number the upper directory blocks without a label gets no
  /// label from below (+12025550102), and defaults leave the expiry at a day and the category
  /// unspecified.
  @Test(.enabled(if: Decoder.isAvailable, unavailable))
  func aStackDecodesToItsAnswers() throws {
    let stack = try ResolverCLITests.Stack()
    let result = calldir(
      "export", "--live-caller-id", "--allow", stack.contacts, stack.spam, stack.business, "-o", stack.scratch.path("out"))
    #expect(result.status == 0, "\(result.error)")
    #expect(
      try Decoder.decode(stack.scratch.path("out")) == [
        "block\t+12025550100\t01", "block\t+12025550102\t01", "identity\t+12025550100\tSpam Risk\t1440\t0",
        "identity\t+12025550101\tMum\t1440\t0",
        "identity\t+12025550123\tAcme\\tSupport\t1440\t0", "identity\t+442079460958\tOffice\t1440\t0",
      ])
  }

  /// `Spec/vectors/live-caller-id`: its listing packed and exported gives its two files byte for
  /// byte (needs no Python), their first rows the worked example of `Spec/LIVE-CALLER-ID.md`.
  @Test func theVectorIsReproducedByteForByte() throws {
    let vector = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Spec/vectors/live-caller-id")
    let scratch = try ScratchDirectory()
    let packed = calldir("pack", "-q", vector.appendingPathComponent("input.csv").path, "-o", scratch.path("input.calldir"))
    #expect(packed.status == 0, "\(packed.error)")
    let result = calldir(
      "export", "--live-caller-id", scratch.path("input.calldir"), "-o", scratch.path("out"), "--cache-expiry", "60",
      "--category", "business")
    #expect(result.status == 0, "\(result.error)")
    for name in ["block.binpb", "identity.binpb"] {
      let written = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/" + name)))
      #expect(written == (try Data(contentsOf: vector.appendingPathComponent(name))), "\(name)")
    }
    // The worked example: the first row of each file.
    let block = try [UInt8](Data(contentsOf: vector.appendingPathComponent("block.binpb")))
    let identity = try [UInt8](Data(contentsOf: vector.appendingPathComponent("identity.binpb")))
    let keyword: [UInt8] = [0x0A, 0x0C] + Array("+12025550100".utf8)
    let blockRow: [UInt8] = [0x0A, 0x11] + keyword + [0x12, 0x01, 0x01]
    let name: [UInt8] = [0x0A, 0x09] + Array("Spam Risk".utf8)
    let callIdentity: [UInt8] = name + [0x18, 0x3C, 0x20, 0x02]
    let identityRow: [UInt8] = [0x0A, 0x1F] + keyword + [0x12, 0x0F] + callIdentity
    #expect(Array(block.prefix(blockRow.count)) == blockRow)
    #expect(Array(identity.prefix(identityRow.count)) == identityRow)
  }

  /// The vector decodes with PyPI's `protobuf` to the listing's entries.
  @Test(.enabled(if: Decoder.isAvailable, unavailable))
  func theVectorDecodes() throws {
    let vector = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Spec/vectors/live-caller-id")
    #expect(
      try Decoder.decode(vector.path) == [
        "block\t+12025550100\t01", "block\t+33899000000\t01", "block\t+33899000001\t01", "block\t+33899000002\t01",
        "identity\t+12025550100\tSpam Risk\t60\t2", "identity\t+12025550123\tCafé Zürich\t60\t2",
      ])
  }

  /// Ranges past the cap are refused, naming the range, before anything is written.
  @Test func aRangePastTheCapIsRefused() throws {
    let scratch = try ScratchDirectory()
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try builder.block(33_899_000_000...33_899_999_999)
    try builder.write(to: scratch.path("wide.calldir"))
    let result = calldir(
      "export", "--live-caller-id", scratch.path("wide.calldir"), "-o", scratch.path("out"), "--max-numbers", "1000")
    #expect(result.status == 1)
    #expect(
      result.error
        == "calldir: \(scratch.path("wide.calldir")): the directories list more than 1000 numbers once ranges are expanded "
        + "(the range +33899000000..+33899999999 holds 1000000 numbers); a Live Caller ID dataset holds each number as a "
        + "row: raise --max-numbers, or list fewer\n")
    #expect(!scratch.exists("out"))
  }

  /// A dataset file that is a directory of the stack (by its own name, an allow list's, or a
  /// link to one) is refused before anything is written: it was replaced by the dataset.
  @Test func aDatasetMayNotReplaceAnInput() throws {
    let scratch = try ScratchDirectory()
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try FileManager.default.createDirectory(atPath: scratch.path("out"), withIntermediateDirectories: false)
    let listed = scratch.path("out/block.binpb")
    try builder.write(to: listed)
    let original = try Data(contentsOf: URL(fileURLWithPath: listed))
    let named = calldir("export", "--live-caller-id", listed, "-o", scratch.path("out"))
    #expect(named.status == 2 && named.error.contains("is the input \(listed): export would replace it"), "\(named.error)")
    try builder.write(to: scratch.path("spam.calldir"))
    try FileManager.default.createSymbolicLink(atPath: scratch.path("out/identity.binpb"), withDestinationPath: listed)
    let linked = calldir("export", "--live-caller-id", scratch.path("spam.calldir"), "--allow", listed, "-o", scratch.path("out"))
    #expect(linked.status == 2, "\(linked.error)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: listed)) == original)
  }

  /// A directory damaged where a number's lookup reads it is named in the error: with a stack,
  /// the damage is in one of several.
  @Test func aDamagedDirectoryIsNamed() throws {
    let scratch = try ScratchDirectory()
    var builder = DirectoryBuilder()
    // Blocks enough for a top index (BTOP), which lookups read and the listing of the numbers
    // does not: damage there is found by the lookups.
    for number in 0..<40_000 { try builder.block(12_025_550_000 + Int64(number) * 7) }
    let path = scratch.path("spam.calldir")
    try builder.write(to: path)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let sections = Int(bytes[12]) | Int(bytes[13]) << 8
    let top = try #require((0..<sections).map { 32 + 32 * $0 }.first { Array(bytes[$0..<$0 + 4]) == Array("BTOP".utf8) })
    let offset = (0..<8).reduce(0) { $0 | Int(bytes[top + 8 + $1]) << (8 * $1) }
    bytes[offset + 12] ^= 0x40
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = calldir("export", "--live-caller-id", path, "-o", scratch.path("out"))
    #expect(result.status == 1)
    #expect(result.error.contains("cannot resolve") && result.error.contains("\(path): "), "\(result.error)")
  }

  @Test(arguments: [
    (["export", "x.calldir", "-o", "out"], "export needs the form to write: --live-caller-id"),
    (["export", "--live-caller-id", "-o", "out"], "export needs at least one directory"),
    (["export", "--live-caller-id", "x.calldir"], "export needs a directory to write the datasets into: -o OUTDIR"),
    (
      ["export", "--live-caller-id", "x.calldir", "-o", "o", "--category", "robot"],
      "--category takes unspecified, person or business, not robot"
    ),
    (
      ["export", "--live-caller-id", "x.calldir", "-o", "o", "--cache-expiry", "5000000000"],
      "--cache-expiry takes whole minutes, 0...4294967295, not 5000000000"
    ),
    (
      ["export", "--live-caller-id", "x.calldir", "-o", "o", "--max-numbers", "0"],
      "--max-numbers takes a whole number of at least 1, not 0"
    ),
  ])
  func usageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message, command: "export")) { try Command.parse(arguments) }
  }
}
