import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `diff`, `patch` and `sign` at the command line with signatures and list versions
/// (`Spec/CHANGESET.md`, section 4.2): rollbacks, unsigned results, outputs onto inputs, and
/// damaged changesets.
@Suite struct ChangesetTrustCLITests {
  /// A provider's key pair and two list versions in `scratch`: OLD signed at list 41, NEW at
  /// `newList`, signed unless told.
  func versions(
    _ scratch: ScratchDirectory, newList: Int = 42, signNew: Bool = true
  ) throws -> (old: String, new: String, key: String, pub: String) {
    #expect(calldir("keygen", "-o", scratch.path("provider")).status == 0)
    let key = scratch.path("provider.key")
    try scratch.write("old.txt", "+12025550100\n+12025550101\n")
    try scratch.write("new.txt", "+12025550100\n+12025550102\n")
    for (list, name, version, signed) in [("old.txt", "old.calldir", 41, true), ("new.txt", "new.calldir", newList, signNew)] {
      let signing = signed ? ["--sign", key] : []
      let pack = CLI.main(
        ["pack", "--block", scratch.path(list), "--list-version", "\(version)", "-o", scratch.path(name)] + signing,
        console: CapturedConsole().console)
      #expect(pack == 0)
    }
    return (scratch.path("old.calldir"), scratch.path("new.calldir"), key, scratch.path("provider.pub"))
  }

  func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test func patchRefusesARollbackBelowTheInstalledVersion() throws {
    let scratch = try ScratchDirectory()
    let (old, new, key, pub) = try versions(scratch, newList: 40)
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, new, "--sign", key, "-o", changes).status == 0)
    let target = scratch.path("patched.calldir")
    for trust in [["--trust", pub], []] {
      let refused = CLI.main(
        ["patch", old, changes, "-o", target, "--installed-version", "41"] + trust, console: CapturedConsole().console)
      #expect(refused == 1)
      #expect(!scratch.exists("patched.calldir"))
    }
    let named = calldir("patch", old, changes, "-o", target, "--trust", pub, "--installed-version", "41")
    #expect(named.error.contains("list version 40 is older than the installed version 41"), "\(named.error)")
    #expect(named.error.contains(old), "\(named.error)")
    let applied = calldir("patch", old, changes, "-o", target, "--trust", pub, "--installed-version", "40")
    #expect(applied.status == 0, "\(applied.error)")
    #expect(try bytes(target) == bytes(new))
    for bad in ["-1", "x", "18446744073709551616", ""] {
      #expect(calldir("patch", old, changes, "-o", target, "--installed-version", bad).status == 2, "\(bad)")
    }
  }

  @Test func diffSignRefusesAnUnsignedNew() throws {
    let scratch = try ScratchDirectory()
    let (old, new, key, _) = try versions(scratch, signNew: false)
    let refused = calldir("diff", old, new, "--sign", key, "-o", scratch.path("c.cdchanges"))
    #expect(refused.status == 1)
    #expect(refused.error.contains("\(new): NEW is not signed"), "\(refused.error)")
    #expect(!scratch.exists("c.cdchanges"))
    // Without --sign the changeset is made, as between unsigned directories.
    #expect(calldir("diff", old, new, "-o", scratch.path("c.cdchanges")).status == 0)
    #expect(calldir("sign", new, "--key", key).status == 0)
    #expect(calldir("diff", old, new, "--sign", key, "-o", scratch.path("signed.cdchanges")).status == 0)
  }

  /// A changeset to an unsigned NEW, signed afterwards, over a signed OLD: a trusted patch would
  /// make a file that `verify --trust` refuses, so it makes none.
  @Test func trustedPatchRefusesAnUnsignedResult() throws {
    let scratch = try ScratchDirectory()
    let (old, new, key, pub) = try versions(scratch, signNew: false)
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    #expect(calldir("sign", changes, "--key", key).status == 0)
    let target = scratch.path("patched.calldir")
    let refused = calldir("patch", old, changes, "-o", target, "--trust", pub)
    #expect(refused.status == 1)
    #expect(refused.error.contains("the patched directory would not be trusted"), "\(refused.error)")
    #expect(!scratch.exists("patched.calldir"))
    let untrusted = calldir("patch", old, changes, "-o", target)
    #expect(untrusted.status == 0, "\(untrusted.error)")
    #expect(calldir("verify", target, "--trust", pub).status == 1)
  }

  @Test func diffOutputOntoAnInputIsAUsageError() throws {
    let scratch = try ScratchDirectory()
    let (old, new, _, _) = try versions(scratch)
    let before = (try bytes(old), try bytes(new))
    try FileManager.default.createSymbolicLink(atPath: scratch.path("alias.calldir"), withDestinationPath: new)
    try FileManager.default.linkItem(atPath: old, toPath: scratch.path("hard.calldir"))
    for output in [new, old, scratch.path("alias.calldir"), scratch.path("hard.calldir"), scratch.url.path + "/./new.calldir"] {
      let result = calldir("diff", old, new, "-o", output)
      #expect(result.status == 2, "\(output)")
      #expect(result.error.contains("is the input"), "\(result.error)")
      #expect(result.error.contains("calldir help diff"), "\(result.error)")
    }
    #expect(try (bytes(old), bytes(new)) == before)
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    // Patch may replace OLD, an upgrade in place, but not the changeset it reads.
    let changesBefore = try bytes(changes)
    #expect(calldir("patch", old, changes, "-o", changes).status == 2)
    #expect(try bytes(changes) == changesBefore)
    #expect(calldir("patch", old, changes, "-o", old).status == 0)
    #expect(try bytes(old) == before.1)
  }

  @Test func signRefusesADamagedChangeset() throws {
    let scratch = try ScratchDirectory()
    let (old, new, key, _) = try versions(scratch)
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, new, "-o", changes).status == 0)
    var damaged = [UInt8](try bytes(changes))
    // The first block's run, past the header, the carried sections and the block's prefix and header:
    // opening still reads it (framing is intact), its CRC does not match.
    damaged[damaged.count - 52 - 8] ^= 0x01
    try Data(damaged).write(to: URL(fileURLWithPath: changes))
    let refused = calldir("sign", changes, "--key", key)
    #expect(refused.status == 1)
    #expect(refused.error.contains(changes), "\(refused.error)")
    #expect([UInt8](try bytes(changes)) == damaged)
    let piped = CapturedConsole(input: damaged)
    #expect(CLI.main(["sign", "-", "--key", key, "-o", scratch.path("out.cdchanges")], console: piped.console) == 1)
    #expect(!scratch.exists("out.cdchanges"))
  }
}
