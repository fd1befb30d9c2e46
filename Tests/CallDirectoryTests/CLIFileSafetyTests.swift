import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Outputs that must not destroy what they touch: an output that is the input, a symbolic link
/// whose file does not exist yet, and writes that fail for want of room.
@Suite struct CLIFileSafetyTests {
  /// A directory on standard input is read no further than it can be one: an endless stream of
  /// zeros (`< /dev/zero`) is refused after its first chunk, and a file is read up to the length
  /// its header declares and one chunk more. All of it was read first, until memory ran out.
  @Test(arguments: ["info", "verify", "stats", "unpack", "lookup"])
  func standardInputIsReadNoFurtherThanADirectory(command: String) throws {
    final class Chunks: @unchecked Sendable {
      var read = 0
      let source: [UInt8]
      init(_ source: [UInt8]) { self.source = source }
    }
    let arguments = [command, "-"] + (command == "lookup" ? ["+12025550100"] : command == "unpack" ? ["-o", "/dev/null"] : [])
    // Zeros without end.
    let zeros = Chunks([])
    let errors = TextBox()
    let endless = Console(
      readInput: {
        Issue.record("read whole")
        return []
      },
      readChunk: {
        zeros.read += 1
        return zeros.read > 1_000 ? [] : [UInt8](repeating: 0, count: 1 << 16)
      }, writeOutput: { _ in }, writeError: { errors.text += $0 })
    #expect(CLI.main(arguments, console: endless) == 1)
    #expect(zeros.read == 1 && errors.text.contains("<stdin>"), "\(zeros.read) chunks: \(errors.text)")
    // A directory followed by more zeros than it declares: read to its length, then refused.
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    let file = try builder.encoded()
    let longer = Chunks(file + [UInt8](repeating: 0, count: 10 << 16))
    let trailing = Console(
      readInput: {
        Issue.record("read whole")
        return []
      },
      readChunk: {
        let start = min(longer.read * 4_096, longer.source.count)
        longer.read += 1
        return Array(longer.source[start..<min(start + 4_096, longer.source.count)])
      }, writeOutput: { _ in }, writeError: { _ in })
    #expect(CLI.main(arguments, console: trailing) == 1)
    #expect(longer.read <= file.count / 4_096 + 2, "\(longer.read) chunks")
  }

  /// A changeset on standard input (`patch OLD -`), or a file to sign, is read no further than
  /// its magic when that is wrong: both read all of standard input first.
  @Test func aChangesetOnStandardInputStopsAtAWrongMagic() throws {
    let scratch = try ScratchDirectory()
    let old = try scratch.blocking(named: "old.calldir")
    #expect(calldir("keygen", "-o", scratch.path("k")).status == 0)
    for arguments in [
      ["patch", old, "-", "-o", scratch.path("new.calldir")],
      ["sign", "-", "--key", scratch.path("k.key"), "-o", scratch.path("s")],
    ] {
      var chunks = 0
      let endless = Console(
        readInput: { [] },
        readChunk: {
          chunks += 1
          return chunks > 1_000 ? [] : [UInt8](repeating: 0, count: 1 << 16)
        }, writeOutput: { _ in }, writeError: { _ in })
      #expect(CLI.main(arguments, console: endless) == 1)
      #expect(chunks == 1, "\(arguments[0]): \(chunks) chunks")
    }
  }

  /// A file name that is not UTF-8 is refused, naming it, and nothing is written: decoded, its
  /// bytes became U+FFFD, so an input was "not found" and an output written under another name.
  @Test func argumentsThatAreNotUTF8AreRefused() throws {
    let scratch = try ScratchDirectory()
    let capture = CapturedConsole()
    let name = Array(scratch.path("list-").utf8) + [0xE9] + Array(".calldir".utf8)
    let status = CLI.main(
      bytes: [Array("pack".utf8), Array("--block".utf8), Array("x.txt".utf8), Array("-o".utf8), name],
      console: capture.console)
    #expect(status == 2)
    #expect(
      capture.error.contains("argument 5 ('") && capture.error.contains("list-\\xE9.calldir') is not UTF-8"), "\(capture.error)")
    #expect(try scratch.names().isEmpty)
    // The executable reads the system's bytes, not Swift's decoding of them.
    let (exit, said) = try runCapturingErrors(
      "/bin/sh", ["-c", #"exec "$0" unpack "$(printf 'l\351.calldir')" -o -"#, CalldirExecutable.path])
    #expect(exit == 2 && said.contains("argument 2 ('l\\xE9.calldir') is not UTF-8"), "\(said)")
  }

  @Test func unpackRefusesToReplaceItsInput() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", "+12025550100\n")
    let list = scratch.path("list.calldir")
    #expect(calldir("pack", "--block", block, "-o", list).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: list))
    #expect(unsafe symlink(list, scratch.path("alias.csv")) == 0)
    #expect(unsafe link(list, scratch.path("hard.csv")) == 0)
    for output in [list, scratch.url.path + "/./list.calldir", scratch.path("alias.csv"), scratch.path("hard.csv")] {
      let result = calldir("unpack", list, "-o", output)
      #expect(result.status == 2)
      #expect(result.error.contains("-o \(output) is the input \(list)"), "\(result.error)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: list)) == before)
    let listing = calldir("unpack", list, "-o", scratch.path("list.csv"))
    #expect(listing.status == 0, "\(listing.error)")
  }

  /// Pack refuses an output that is one of its lists, which writing would turn into a
  /// directory, under any name; a directory among its inputs may be its output, updated in place.
  @Test func packRefusesToReplaceAListButUpdatesADirectory() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", "+12025550100\n")
    let identify = try scratch.write("identify.csv", "+12025550199,Acme\n")
    #expect(unsafe link(block, scratch.path("hard.txt")) == 0)
    for (option, list, output) in [
      ("--block", block, block), ("--identify", identify, identify), ("--block", block, scratch.path("hard.txt")),
    ] {
      let before = try Data(contentsOf: URL(fileURLWithPath: list))
      let result = calldir("pack", option, list, "-o", output)
      #expect(result.status == 2)
      #expect(result.error.contains("-o \(output) is the input \(list)"), "\(result.error)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: list)) == before)
    }
    let directory = scratch.path("list.calldir")
    #expect(calldir("pack", "--block", block, "-o", directory).status == 0)
    let more = try scratch.write("more.txt", "+12025550101\n")
    let updated = calldir("pack", directory, "--block", more, "-o", directory)
    #expect(updated.status == 0, "\(updated.error)")
    let answers = calldir("lookup", directory, "+12025550100", "+12025550101").output
    #expect(answers.components(separatedBy: "\tblock").count == 3, "\(answers)")
  }

  /// A dangling link is followed, as a live one is: the file is created where it points
  /// (through a chain, each relative target read from its link's directory) and the link stays.
  @Test func aDanglingLinkAsOutputIsFollowed() throws {
    let scratch = try ScratchDirectory()
    try FileManager.default.createDirectory(atPath: scratch.path("sub"), withIntermediateDirectories: false)
    let block = try scratch.write("block.txt", "+12025550100\n")
    #expect(unsafe symlink("sub/middle", scratch.path("out.calldir")) == 0)
    #expect(unsafe symlink("real.calldir", scratch.path("sub/middle")) == 0)
    let packed = calldir("pack", "--block", block, "-o", scratch.path("out.calldir"))
    #expect(packed.status == 0, "\(packed.error)")
    let kind = try FileManager.default.attributesOfItem(atPath: scratch.path("out.calldir"))[.type] as? FileAttributeType
    #expect(kind == .typeSymbolicLink)
    #expect(calldir("lookup", scratch.path("sub/real.calldir"), "+12025550100").output.contains("\tblock"))
  }

  /// Runs the `calldir` executable with its file size limit at `blocks` (so that a write past it
  /// fails as on a full disk, with `EFBIG`), returning its status and standard error.
  static func runLimited(_ arguments: [String], blocks: Int) throws -> (status: Int32, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    // SIGXFSZ is ignored, so the write fails instead of the process dying; `exec` keeps both.
    process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" \"$@\"", CalldirExecutable.path] + arguments
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  @Test func keygenThatCannotWriteLeavesNoKeyBehind() throws {
    let scratch = try ScratchDirectory()
    let name = scratch.path("k")
    let failed = try Self.runLimited(["keygen", "-o", name], blocks: 0)
    #expect(failed.status == 1)
    #expect(failed.error.contains("\(name).key: cannot write"), "\(failed.error)")
    #expect(try scratch.names().isEmpty)
    #expect(calldir("keygen", "-o", name).status == 0)
  }

  /// Sorted runs spilled beside the output fail to be written: the output is blamed, not the
  /// line being read. Not under ThreadSanitizer (`.ci/sanitizers` sets `TSAN_OPTIONS`): under a
  /// file-size limit its runtime faults with SIGBUS in its own shadow memory (in its `memcpy`
  /// interceptor, seen with gdb), before the command can fail by itself.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil))
  func aSpillThatCannotBeWrittenNamesTheOutput() throws {
    let scratch = try ScratchDirectory()
    let numbers = (0..<200_000).map { "+1202\(5_000_000 + $0 * 7)" }.joined(separator: "\n")
    let block = try scratch.write("block.txt", numbers)
    let output = scratch.path("out.calldir")
    let failed = try Self.runLimited(["pack", "-q", "--memory", "1", "--block", block, "-o", output], blocks: 64)
    #expect(failed.status == 1)
    #expect(
      failed.error.contains("\(output): cannot write: File too large (spilling sorted runs to \(scratch.url.path))"),
      "\(failed.error)")
    #expect(!failed.error.contains("block.txt:"), "\(failed.error)")
    #expect(try scratch.names() == ["block.txt"])
  }
}
