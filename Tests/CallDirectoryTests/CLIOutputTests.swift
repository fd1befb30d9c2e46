import CallDirectory
import Foundation
import Testing

@testable import CallDirectoryCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Where commands write: a device written in place, and failures of standard output named as
/// standard output.
@Suite struct CLIOutputTests {
  /// A directory with a few entries, and a second version of it.
  private func versions(_ scratch: ScratchDirectory) throws -> (old: String, new: String) {
    let old = scratch.path("old.calldir")
    let new = scratch.path("new.calldir")
    #expect(calldir("pack", try scratch.write("a.csv", "kind,number,label\nblock,+12025550100,\n"), "-o", old).status == 0)
    #expect(calldir("pack", try scratch.write("b.csv", "kind,number,label\nblock,+12025550101,\n"), "-o", new).status == 0)
    return (old, new)
  }

  /// `diff` reads a changeset it streamed to a file back for its summary; a device cannot be
  /// read back, so the changeset is made in memory and written to it whole.
  @Test func diffWritesToADevice() throws {
    let scratch = try ScratchDirectory()
    let (old, new) = try versions(scratch)
    let toDevice = calldir("diff", "--json", old, new, "-o", "/dev/null")
    #expect(toDevice.status == 0, "\(toDevice.error)")
    let toFile = calldir("diff", "--json", old, new, "-o", scratch.path("c.cdchanges"))
    #expect(toDevice.output.replacingOccurrences(of: "/dev/null", with: scratch.path("c.cdchanges")) == toFile.output)
    #expect(Diff.isSpecialFile("/dev/null") && !Diff.isSpecialFile(old) && !Diff.isSpecialFile(scratch.path("absent")))
  }

  /// A file that cannot be opened: said as the other commands say it, once, with no place in it.
  @Test func verifyOfAMissingFileSaysItCannotBeOpened() throws {
    let scratch = try ScratchDirectory()
    let missing = scratch.path("missing.calldir")
    let verify = calldir("verify", missing)
    #expect(verify.status == 1)
    #expect(verify.output == "\(missing): INVALID (1 problem)\n")
    #expect(verify.error == "\(missing): cannot open: No such file or directory\n")
    #expect(calldir("info", missing).error == "calldir: \(missing): cannot open: No such file or directory\n")
  }

  /// A FIFO or a device where a directory file is named: said as such, not as "No such device"
  /// (the errno of the refusal), and `resolve` takes any path that exists as meant for a file.
  @Test func aPathThatIsNotARegularFileIsSaidToBeOne() throws {
    let scratch = try ScratchDirectory()
    let fifo = scratch.path("list.calldir")
    #expect(unsafe mkfifo(fifo, 0o600) == 0)
    for (path, arguments) in [
      (fifo, ["lookup", fifo, "12025550100"]), (fifo, ["resolve", fifo, "12025550100"]),
      ("/dev/zero", ["resolve", "/dev/zero", "911"]), ("/dev/zero", ["info", "/dev/zero"]),
    ] {
      let result = calldir(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error.contains("\(path): cannot open: not a regular file (a FIFO, a device or a socket)"), "\(result.error)")
    }
  }

  @Test(arguments: [
    ["unpack", "OLD"], ["unpack", "OLD", "-o", "-"], ["pack", "LIST", "-o", "-"], ["diff", "OLD", "NEW", "-o", "-"],
    ["patch", "OLD", "CHANGES", "-o", "-"],
  ])
  func aFailedWriteToStandardOutputNamesIt(_ arguments: [String]) throws {
    let scratch = try ScratchDirectory()
    let (old, new) = try versions(scratch)
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    let list = try scratch.write("l.csv", "kind,number,label\nblock,+12025550100,\n")
    let resolved = arguments.map { ["OLD": old, "NEW": new, "CHANGES": changes, "LIST": list][$0] ?? $0 }
    var error = ""
    let full = Console(
      readInput: { () throws(SystemError) in [] },
      writeOutput: { (_) throws(SystemError) in throw SystemError(operation: "write", path: "-", errno: ENOSPC) },
      writeError: { error += $0 })
    #expect(CLI.main(resolved, console: full) == 1, "\(arguments)")
    #expect(error.hasPrefix("calldir: <stdout>: cannot write: No space left on device"), "\(arguments): \(error)")
  }
}
