import CallDirectory
import CallDirectorySystem
import Testing

@testable import CallDirectoryCLI

/// The progress line: its text, shown at a terminal, absent when piped or with --quiet.
@Suite struct CLIProgressTests {
  @Test func text() {
    #expect(ProgressLine.text(label: "pack", done: 1_234_567, total: nil, seconds: 0.5) == "pack: 1,234,567 entries, 2.4 M/s")
    #expect(
      ProgressLine.text(label: "unpack", done: 500, total: 2_000, seconds: 1) == "unpack: 500 of 2,000 entries, 0 k/s, 3 s left")
  }

  /// A console whose standard error is a terminal, writing into `error`.
  final class Terminal: @unchecked Sendable {
    var error = ""
    var output: [UInt8] = []
    var console: Console {
      Console(
        readInput: { () throws(SystemError) in [] }, writeOutput: { (bytes) throws(SystemError) in self.output += bytes },
        writeError: { self.error += $0 }, errorIsTerminal: true)
    }
  }

  @Test func shownAtATerminalOnlyWithoutQuiet() throws {
    let scratch = try ScratchDirectory()
    let lines = (0..<60_000).map { "+1202\(String(1_000_000 + $0 * 7))" }.joined(separator: "\n")
    let block = try scratch.write("block.txt", lines)
    let terminal = Terminal()
    // The line is drawn at most five times a second, so it may or may not appear in a fast run;
    // the summary always does, and --quiet removes both.
    #expect(CLI.main(["pack", "--block", block, "-o", scratch.path("a.calldir")], console: terminal.console) == 0)
    #expect(terminal.error.contains("read 60000 entries and packed"))
    let quiet = Terminal()
    #expect(CLI.main(["pack", "-q", "--block", block, "-o", scratch.path("b.calldir")], console: quiet.console) == 0)
    #expect(quiet.error.isEmpty)
    let piped = CapturedConsole()
    #expect(CLI.main(["unpack", scratch.path("a.calldir"), "-o", scratch.path("a.csv")], console: piped.console) == 0)
    #expect(piped.error.isEmpty)
  }

  @Test func verifyDiffAndPatchAreQuietWhenAskedAndSummarisePatch() throws {
    let scratch = try ScratchDirectory()
    let old = try scratch.write("old.txt", (0..<20_000).map { "+1202\(String(1_000_000 + $0 * 7))" }.joined(separator: "\n"))
    let new = try scratch.write("new.txt", (0..<20_000).map { "+1202\(String(1_000_003 + $0 * 7))" }.joined(separator: "\n"))
    #expect(calldir("pack", "--block", old, "-o", scratch.path("old.calldir")).status == 0)
    #expect(calldir("pack", "--block", new, "-o", scratch.path("new.calldir")).status == 0)
    let terminal = Terminal()
    #expect(CLI.main(["pack", "--block", old, "-o", scratch.path("again.calldir")], console: terminal.console) == 0)
    #expect(terminal.error.contains("bytes per entry"), "\(terminal.error)")
    let quiet = Terminal()
    #expect(CLI.main(["verify", "-q", scratch.path("old.calldir")], console: quiet.console) == 0)
    #expect(
      CLI.main(
        ["diff", "-q", scratch.path("old.calldir"), scratch.path("new.calldir"), "-o", scratch.path("c.cdchanges")],
        console: quiet.console) == 0)
    #expect(
      CLI.main(
        ["patch", "-q", scratch.path("old.calldir"), scratch.path("c.cdchanges"), "-o", scratch.path("p.calldir")],
        console: quiet.console)
        == 0)
    #expect(quiet.error.isEmpty, "\(quiet.error)")
    let patch = Terminal()
    #expect(
      CLI.main(
        ["patch", scratch.path("old.calldir"), scratch.path("c.cdchanges"), "-o", scratch.path("q.calldir")],
        console: patch.console)
        == 0)
    #expect(patch.error.contains("patched ") && patch.error.contains(" s"), "\(patch.error)")
  }
}
