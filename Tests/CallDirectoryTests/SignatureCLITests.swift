import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

@Suite("Signing at the command line")
struct SignatureCLITests {
  /// A key pair and a signed, versioned directory in `scratch`.
  private func provider(_ scratch: ScratchDirectory) throws -> (list: String, key: String, pub: String) {
    #expect(calldir("keygen", "-o", scratch.path("provider")).status == 0)
    let block = try scratch.write("block.txt", "+12025550100\n+12025550101\n")
    let list = scratch.path("list.calldir")
    let pack = calldir("pack", "--block", block, "--list-version", "41", "--sign", scratch.path("provider.key"), "-o", list)
    #expect(pack.status == 0, "\(pack.error)")
    return (list, scratch.path("provider.key"), scratch.path("provider.pub"))
  }

  @Test func keygenWritesAnOwnerOnlyPrivateKeyAndNeverOverwrites() throws {
    let scratch = try ScratchDirectory()
    let result = calldir("keygen", "-o", scratch.path("k"))
    #expect(result.status == 0)
    #expect(result.output.contains("key id "))
    let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path("k.key"))
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("k.key")))
    let again = calldir("keygen", "-o", scratch.path("k"))
    #expect(again.status == 1)
    #expect(again.error.contains("k.key"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("k.key"))) == before)
    #expect(calldir("keygen").status == 2)
  }

  @Test func verifyTrustNamesTheKeyAndRefusesOthers() throws {
    let scratch = try ScratchDirectory()
    let (list, _, pub) = try provider(scratch)
    #expect(calldir("keygen", "-o", scratch.path("other")).status == 0)
    let ok = calldir("verify", list, "--trust", scratch.path("other.pub"), "--trust", pub)
    #expect(ok.status == 0, "\(ok.output)")
    #expect(ok.output.contains("list version 41") && ok.output.contains("provider.pub"), "\(ok.output)")
    let foreign = calldir("verify", list, "--trust", scratch.path("other.pub"))
    #expect(foreign.status == 1)
    #expect(foreign.error.contains("not a trusted key"), "\(foreign.error)")
    let rolledBack = calldir("verify", list, "--trust", pub, "--installed-version", "42")
    #expect(rolledBack.status == 1)
    #expect(rolledBack.error.contains("rollback"), "\(rolledBack.error)")
    #expect(calldir("verify", list).status == 0)
    #expect(calldir("verify", list, "--trust", scratch.path("missing.pub")).status == 1)
    #expect(calldir("verify", list, "--installed-version", "x").status == 2)
  }

  /// `calldir sign` maps a directory file and signs it as it copies it: the bytes must be what
  /// the library's in-memory signer makes, for a file signed before (re-signing) or not, in place
  /// or to another file; a file that is not a directory
  /// leaves the target as it was.
  @Test func signMappedFileMatchesTheLibrarysSigner() throws {
    let scratch = try ScratchDirectory()
    let (signed, key, pub) = try provider(scratch)
    #if !canImport(CryptoKit)
      let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: key)), as: UTF8.self)
      let signingKey = try #require(SigningKey(text: text))
    #endif
    let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: signed)))
    let unsigned = try DirectorySigner.stripSignature(original)
    let plain = scratch.path("plain.calldir")
    try Data(unsigned).write(to: URL(fileURLWithPath: plain))
    for (input, output) in [(signed, scratch.path("resigned.calldir")), (plain, plain)] {
      let result = calldir("sign", input, "--key", key, "-o", output)
      #expect(result.status == 0, "\(result.error)")
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
      #if canImport(CryptoKit)  // randomised signatures
        #expect(try DirectorySigner.stripSignature(bytes) == unsigned)
      #else
        #expect(bytes == (try DirectorySigner.sign(unsigned, key: signingKey)), "\(input) -> \(output)")
      #endif
      #expect(calldir("verify", output, "--trust", pub).status == 0)
    }
    let junk = try scratch.write("junk.calldir", "not a directory\n")
    let refused = calldir("sign", junk, "--key", key)
    #expect(refused.status == 1)
    #expect(refused.error.contains("junk.calldir"), "\(refused.error)")
    #expect(try String(contentsOfFile: junk, encoding: .utf8) == "not a directory\n")
  }

  /// A signature vouches for the bytes: a directory whose body is damaged (its header still
  /// opens) is not signed, mapped or read from standard input, and the file is left as it was.
  @Test func aDamagedDirectoryIsNotSigned() throws {
    let scratch = try ScratchDirectory()
    let (signed, key, _) = try provider(scratch)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: signed)))
    let reader = try CallDirectoryReader(bytes: bytes)
    // The last byte of the first blocking block: inside its checksum, outside the header.
    let data = reader.layout.section(.blockingData)
    bytes[Int(data.offset) + 20] ^= 0x40
    #expect(!Verifier.verify(bytes).isValid)
    let damaged = scratch.path("damaged.calldir")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let mapped = calldir("sign", damaged, "--key", key)
    #expect(mapped.status == 1)
    #expect(mapped.error.contains("damaged.calldir"), "\(mapped.error)")
    #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: damaged))) == bytes)
    let piped = CapturedConsole(input: bytes)
    #expect(CLI.main(["sign", "-", "--key", key, "-o", scratch.path("out.calldir")], console: piped.console) == 1)
    #expect(!scratch.exists("out.calldir"))
  }

  @Test func signInPlaceThenPatchWithTrust() throws {
    let scratch = try ScratchDirectory()
    let (old, key, pub) = try provider(scratch)
    let newList = try scratch.write("new.txt", "+12025550100\n+12025550102\n")
    let unsignedNew = scratch.path("new.calldir")
    #expect(calldir("pack", "--block", newList, "--list-version", "42", "-o", unsignedNew).status == 0)
    #expect(calldir("verify", unsignedNew, "--trust", pub).status == 1)
    #expect(calldir("sign", unsignedNew, "--key", key).status == 0)
    #expect(calldir("verify", unsignedNew, "--trust", pub).status == 0)
    // A public key is not a private key.
    let wrong = calldir("sign", unsignedNew, "--key", pub)
    #expect(wrong.status == 1)
    #expect(wrong.error.contains("not a private key"), "\(wrong.error)")
    let changes = scratch.path("c.cdchanges")
    #expect(calldir("diff", old, unsignedNew, "-o", changes).status == 0)
    let refused = calldir("patch", old, changes, "-o", scratch.path("patched.calldir"), "--trust", pub)
    #expect(refused.status == 1)
    #expect(refused.error.contains("not signed"), "\(refused.error)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("patched.calldir")))
    #expect(calldir("sign", changes, "--key", key).status == 0)
    let applied = calldir("patch", old, changes, "-o", scratch.path("patched.calldir"), "--trust", pub)
    #expect(applied.status == 0, "\(applied.error)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("patched.calldir")))
        == Data(contentsOf: URL(fileURLWithPath: unsignedNew)))
    #expect(calldir("verify", scratch.path("patched.calldir"), "--trust", pub, "--installed-version", "42").status == 0)
  }
}
