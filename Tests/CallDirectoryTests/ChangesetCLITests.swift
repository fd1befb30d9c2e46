import CallDirectory
import CallDirectoryFormat
import Foundation
import Testing

@testable import CallDirectoryCLI

@Suite struct ChangesetCLITests {
  /// Packs two versions and returns their paths.
  func versions(in scratch: ScratchDirectory) throws -> (old: String, new: String, other: String) {
    let oldList = try scratch.write(
      "old.csv", "kind,number,label\nblock,+12025550100,\nblock,+12025550200..+12025550299,\nidentify,+12025550123,Acme\n")
    let newList = try scratch.write(
      "new.csv", "kind,number,label\nblock,+12025550101,\nblock,+12025550200..+12025550299,\nidentify,+12025550123,Acme Support\n"
    )
    let otherList = try scratch.write("other.csv", "kind,number,label\nblock,+15555550100,\n")
    for (list, name) in [(oldList, "old.calldir"), (newList, "new.calldir"), (otherList, "other.calldir")] {
      #expect(calldir("pack", list, "-o", scratch.path(name)).status == 0)
    }
    return (scratch.path("old.calldir"), scratch.path("new.calldir"), scratch.path("other.calldir"))
  }

  @Test func diffThenPatchGivesTheSameBytes() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _) = try versions(in: scratch)
    let changes = scratch.path("changes.cdchanges")
    let diff = calldir("diff", old, new, "-o", changes, "--verbose")
    #expect(diff.status == 0, "\(diff.error)")
    #expect(diff.output.isEmpty)
    #expect(
      diff.error.contains("removals 1 blocking, 1 identification; additions 1 blocking, 1 identification"), "\(diff.error)")
    #expect(calldir("diff", old, new, "-o", changes, "--verbose", "--quiet").error.isEmpty)
    let patch = calldir("patch", old, changes, "-o", scratch.path("patched.calldir"))
    #expect(patch.status == 0, "\(patch.error)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("patched.calldir"))) == Data(contentsOf: URL(fileURLWithPath: new)))
  }

  /// Ranges of billions of billions of numbers: the progress count saturates instead of
  /// overflowing, so diff and patch go through.
  @Test func hugeRangesDiffAndPatch() throws {
    let scratch = try ScratchDirectory()
    let a = try scratch.write(
      "a.csv", "kind,number,label\nblock,+1..+5000000000000000000,\nidentify,+5000000000000000001..+9223372036854775806,Wide\n")
    let b = try scratch.write(
      "b.csv", "kind,number,label\nblock,+1..+4999999999999999999,\nidentify,+5000000000000000000..+9223372036854775806,Wider\n")
    for (list, name) in [(a, "a.calldir"), (b, "b.calldir")] {
      #expect(calldir("pack", list, "-o", scratch.path(name)).status == 0)
    }
    for (old, new) in [("a.calldir", "b.calldir"), ("b.calldir", "a.calldir")] {
      let changes = scratch.path("changes")
      let diff = calldir("diff", scratch.path(old), scratch.path(new), "-o", changes)
      #expect(diff.status == 0, "\(diff.error)")
      let patch = calldir("patch", scratch.path(old), changes, "-o", scratch.path("patched"))
      #expect(patch.status == 0, "\(patch.error)")
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: scratch.path("patched")))
          == Data(contentsOf: URL(fileURLWithPath: scratch.path(new))))
    }
    #expect(ProgressLine.saturatingSum(.max - 1, 5) == .max)
  }

  @Test func diffToStandardOutputThenPatchFromStandardInput() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _) = try versions(in: scratch)
    let diff = CapturedConsole()
    #expect(CLI.main(["diff", old, new, "-o", "-"], console: diff.console) == 0)
    #expect(Array(diff.output.prefix(8)) == Array("CDCHANGE".utf8))
    let patch = CapturedConsole(input: diff.output)
    #expect(CLI.main(["patch", old, "-", "-o", scratch.path("patched.calldir")], console: patch.console) == 0, "\(patch.error)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("patched.calldir"))) == Data(contentsOf: URL(fileURLWithPath: new)))
  }

  @Test func diffJSON() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _) = try versions(in: scratch)
    let result = calldir("diff", "--json", old, new, "-o", scratch.path("c.cdchanges"))
    #expect(result.status == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    #expect((object["removals"] as? [String: Int])?["blocking"] == 1)
    #expect((object["additions"] as? [String: Int])?["identification"] == 1)
    #expect((object["size"] as? Int ?? 0) > 0)
    #expect((object["base"] as? String)?.count == 64)
  }

  @Test func wrongBaseIsRefusedAndNothingWritten() throws {
    let scratch = try ScratchDirectory()
    let (old, new, other) = try versions(in: scratch)
    let changes = scratch.path("changes.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    let before = try scratch.names()
    let result = calldir("patch", other, changes, "-o", scratch.path("patched.calldir"))
    #expect(result.status == 1)
    let expected = try CallDirectoryReader(path: old).contentHash.map { String(format: "%02x", $0) }.joined()
    let actual = try CallDirectoryReader(path: other).contentHash.map { String(format: "%02x", $0) }.joined()
    #expect(result.error.contains(expected) && result.error.contains(actual), "\(result.error)")
    #expect(try scratch.names() == before)
  }

  /// A changeset whose blocks pass their checks but whose result is not the one it names: the
  /// result is refused after its last byte, and standard output or a FIFO, which cannot be taken
  /// back, gets none of it.
  @Test func aResultThatFailsItsHashReachesNoOutput() throws {
    let scratch = try ScratchDirectory()
    let vectors = ChangesetSpecVectorTests.directory
    var changes = try ChangesetSpecVectorTests.bytes("changes.cdchanges")
    // One byte of the first run block's payload (bytes 138 ..< 156), its CRC made to match.
    changes[142] = 0xAC
    let crc = CRC32.checksum(Array(changes[138..<156]))
    for index in 0..<4 { changes[156 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    let forged = scratch.path("forged.cdchanges")
    try Data(changes).write(to: URL(fileURLWithPath: forged))
    let old = vectors.appendingPathComponent("old.calldir").path
    let toStandardOutput = CapturedConsole()
    #expect(CLI.main(["patch", old, forged, "-o", "-"], console: toStandardOutput.console) == 1)
    #expect(toStandardOutput.output.isEmpty)
    #expect(toStandardOutput.error.contains("not the changeset's result"), "\(toStandardOutput.error)")
    // /dev/null is written in place, as a FIFO is: it gets nothing either (and cannot show it),
    // while a good changeset to standard output gives NEW whole.
    #expect(calldir("patch", old, forged, "-o", "/dev/null").status == 1)
    let good = CapturedConsole()
    let changesPath = vectors.appendingPathComponent("changes.cdchanges").path
    #expect(CLI.main(["patch", old, changesPath, "-o", "-"], console: good.console) == 0)
    #expect(good.output == (try ChangesetSpecVectorTests.bytes("new.calldir")))
  }

  /// A NEW packed with other options: its changeset could never be applied, so none is made.
  @Test func diffRefusesANewPatchWouldNotRebuild() throws {
    let scratch = try ScratchDirectory()
    let (old, _, _) = try versions(in: scratch)
    let listing = scratch.path("many.csv")
    let rows = (0..<3_000).map { "identify,+1202\(String(format: "%07d", $0 * 7)),Label \($0) padding text" }
    try (["kind,number,label"] + rows).joined(separator: "\n").write(toFile: listing, atomically: true, encoding: .utf8)
    let new = scratch.path("unprefixed.calldir")
    #expect(calldir("pack", listing, "--no-prefix-labels", "-o", new).status == 0)
    let before = try scratch.names()
    let result = calldir("diff", old, new, "-o", scratch.path("changes.cdchanges"))
    #expect(result.status == 1)
    #expect(result.error.contains("not in the canonical form patch rebuilds"), "\(result.error)")
    #expect(try scratch.names() == before)
    // Packed the canonical way, the same entries make a changeset that patch applies.
    let canonical = scratch.path("canonical.calldir")
    #expect(calldir("pack", listing, "-o", canonical).status == 0)
    #expect(calldir("diff", old, canonical, "-o", scratch.path("changes.cdchanges")).status == 0)
    #expect(calldir("patch", old, scratch.path("changes.cdchanges"), "-o", scratch.path("patched.calldir")).status == 0)
  }

  /// What is wrong is named: a directory where the changeset goes, a length that contradicts a hash.
  @Test func patchNamesWhatIsWrongWithItsInputs() throws {
    let scratch = try ScratchDirectory()
    let vectors = ChangesetSpecVectorTests.directory
    let old = vectors.appendingPathComponent("old.calldir").path
    let swapped = calldir("patch", old, vectors.appendingPathComponent("new.calldir").path, "-o", scratch.path("x.calldir"))
    #expect(swapped.status == 1)
    #expect(swapped.error.contains("new.calldir: a call directory, not a changeset"), "\(swapped.error)")
    // The base length (bytes 16 ..< 24) and the result length (24 ..< 32), each one more, the
    // header's CRC (of bytes 0 ..< 96) made to match: the hashes still match.
    for (at, expected) in [(16, "names this file's SHA-256"), (24, "has the changeset's SHA-256")] {
      var changes = try ChangesetSpecVectorTests.bytes("changes.cdchanges")
      changes[at] &+= 1
      let crc = CRC32.checksum(Array(changes[0..<96]))
      for index in 0..<4 { changes[96 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
      let path = scratch.path("length-\(at).cdchanges")
      try Data(changes).write(to: URL(fileURLWithPath: path))
      let result = calldir("patch", old, path, "-o", scratch.path("x.calldir"))
      #expect(result.status == 1)
      #expect(result.error.contains(expected) && result.error.contains("but another length"), "\(result.error)")
    }
  }

  @Test func patchingTheResultAgainSaysItIsPatched() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _) = try versions(in: scratch)
    let changes = scratch.path("changes.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    let before = try scratch.names()
    let result = calldir("patch", new, changes, "-o", scratch.path("patched.calldir"))
    #expect(result.status == 1)
    #expect(result.error.contains("\(new): already patched: it is the result of \(changes)"), "\(result.error)")
    #expect(try scratch.names() == before)
  }

  @Test func damagedChangesetIsRefused() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _) = try versions(in: scratch)
    let changes = scratch.path("changes.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: changes))
    bytes[bytes.count - 60] ^= 0x04
    try bytes.write(to: URL(fileURLWithPath: changes))
    let result = calldir("patch", old, changes, "-o", scratch.path("patched.calldir"))
    #expect(result.status == 1)
    #expect(!scratch.exists("patched.calldir"))
  }

  @Test(arguments: [
    ["diff"], ["diff", "a"], ["diff", "a", "b"], ["diff", "a", "b", "c", "-o", "x"], ["patch", "a", "b"],
    ["patch", "a", "-o", "x"],
    ["diff", "--jsn", "a", "b", "-o", "x"],
  ])
  func usageErrorsExitTwo(_ arguments: [String]) {
    let capture = CapturedConsole()
    #expect(CLI.main(arguments, console: capture.console) == 2, "\(arguments)")
  }

  @Test func help() {
    #expect(calldir("help", "diff").output.contains("Examples:"))
    #expect(calldir("help", "patch").output.contains("Example:"))
    #expect(calldir("--help").output.contains("diff "))
  }
}
