import CallDirectory
import CallDirectoryCrypto
import Foundation
import Testing

/// RFC 8032, section 7.1, tests 1 to 3: secret key (seed), public key, message, signature.
private let rfc8032: [(seed: String, publicKey: String, message: String, signature: String)] = [
  (
    "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
  ),
  (
    "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
    "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
  ),
  (
    "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
    "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
    "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
  ),
]

private func hex(_ text: String) -> [UInt8] {
  var bytes: [UInt8] = []
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(index, offsetBy: 2)
    bytes.append(UInt8(text[index..<next], radix: 16)!)
    index = next
  }
  return bytes
}

/// A fixed key, so that failures reproduce.
private let providerKey = SigningKey(seed: hex(rfc8032[0].seed))!
private let otherKey = SigningKey(seed: hex(rfc8032[1].seed))!

private func directory(_ numbers: [Int64], labels: [(Int64, String)] = [], version: UInt64? = nil) throws -> [UInt8] {
  var builder = DirectoryBuilder()
  builder.options.listVersion = version
  for number in numbers { try builder.block(number) }
  for (number, label) in labels { try builder.identify(number, label: label) }
  try builder.block(12_025_559_000...12_025_559_099)
  return try builder.encoded()
}

private func trust(_ keys: SigningKey..., installed: UInt64? = nil) -> VerificationOptions {
  var options = VerificationOptions()
  options.trust = TrustPolicy(trustedKeys: keys.map(\.publicKey), installedVersion: installed)
  return options
}

@Suite("Signatures")
struct SignatureTests {
  @Test("RFC 8032 test vectors through the Ed25519 interface", arguments: 0..<3)
  func rfc8032Vectors(index: Int) {
    let vector = rfc8032[index]
    let seed = hex(vector.seed)
    let message = hex(vector.message)
    #expect(Ed25519.publicKey(seed: seed) == hex(vector.publicKey))
    #if !canImport(CryptoKit)
      // libsodium signs deterministically, as RFC 8032 specifies; CryptoKit randomises.
      #expect(Ed25519.sign(message, seed: seed) == hex(vector.signature))
    #endif
    #expect(Ed25519.isValid(signature: hex(vector.signature), of: message, publicKey: hex(vector.publicKey)))
    #expect(Ed25519.isValid(signature: Ed25519.sign(message, seed: seed), of: message, publicKey: hex(vector.publicKey)))
    var changed = message + [0]
    #expect(!Ed25519.isValid(signature: hex(vector.signature), of: changed, publicKey: hex(vector.publicKey)))
    changed = hex(vector.signature)
    changed[0] ^= 1
    #expect(!Ed25519.isValid(signature: changed, of: message, publicKey: hex(vector.publicKey)))
    #expect(!Ed25519.isValid(signature: [], of: message, publicKey: hex(vector.publicKey)))
  }

  @Test("A signed directory verifies and names its key; signing changes only the table and the SIGN section")
  func signedDirectoryVerifies() throws {
    let unsigned = try directory([12_025_550_100, 12_025_550_101], labels: [(12_025_550_123, "Acme")], version: 7)
    let signed = try DirectorySigner.sign(unsigned, key: providerKey)
    let report = Verifier.verify(signed, options: trust(otherKey, providerKey))
    #expect(report.isValid, "\(report.problems)")
    #expect(report.signer == providerKey.publicKey)
    #expect(report.listVersion == 7)
    let reader = try CallDirectoryReader(bytes: signed)
    #expect(reader.version == (2, 0))  // version 2.0 has the signature section from the start
    #expect(try reader.isBlocked(12_025_550_100))
    // Every section of the unsigned file is in the signed one, byte for byte, 32 bytes later.
    let before = try CallDirectoryReader(bytes: unsigned).shape.header.sections
    let after = reader.shape.header.sections
    #expect(after.count == before.count + 1)
    for (old, new) in zip(before, after) {
      #expect(new.offset == old.offset + 32 && new.length == old.length && new.checksum == old.checksum)
      #expect(signed[Int(new.offset)..<Int(new.offset + new.length)] == unsigned[Int(old.offset)..<Int(old.offset + old.length)])
    }
    #expect(try DirectorySigner.stripSignature(signed) == unsigned)
    // Re-signing replaces the signature: the same bytes as signing the unsigned file (with
    // libsodium's deterministic signatures; CryptoKit's differ each time).
    let resigned = try DirectorySigner.sign(try DirectorySigner.sign(unsigned, key: otherKey), key: providerKey)
    #if canImport(CryptoKit)
      #expect(resigned.count == signed.count && Verifier.verify(resigned, options: trust(providerKey)).isValid)
    #else
      #expect(resigned == signed)
    #endif
  }

  @Test("A file signed as it is written is the file signed after: in memory or spooled, with or without a version")
  func signedWhileWritten() throws {
    let scratch = try ScratchDirectory()
    var random = SeededGenerator(seed: 0x516E)
    let numbers = (0..<5_000).map { _ in Int64.random(in: 12_000_000_000...12_999_999_999, using: &random) }
    for version in [nil, 9] as [UInt64?] {
      for spooled in [false, true] {
        func write(signingWith key: SigningKey?) throws -> [UInt8] {
          var options = DirectoryBuilder.Options()
          options.listVersion = version
          var writer = try AscendingDirectoryWriter(options: options, temporaryDirectory: spooled ? scratch.url.path : nil)
          for number in Set(numbers).sorted() {
            if number % 3 == 0 { try writer.identify(number, label: "Caller \(number % 97)") } else { try writer.block(number) }
          }
          var bytes: [UInt8] = []
          try writer.finish(signingWith: key) { (piece) throws(WriterError) in bytes += piece }
          return bytes
        }
        let streamed = try write(signingWith: providerKey)
        let after = try DirectorySigner.sign(try write(signingWith: nil), key: providerKey)
        let report = Verifier.verify(streamed, options: trust(providerKey, installed: version))
        #expect(report.isValid, "version \(String(describing: version)), spooled \(spooled): \(report.problems)")
        #expect(report.signer == providerKey.publicKey)
        #if canImport(CryptoKit)  // randomised signatures: the same bytes but the signature's
          #expect(streamed.count == after.count && streamed.prefix(28) == after.prefix(28))
          #expect(try DirectorySigner.stripSignature(streamed) == DirectorySigner.stripSignature(after))
        #else
          #expect(streamed == after, "version \(String(describing: version)), spooled \(spooled)")
        #endif
      }
    }
    #expect(try scratch.names().isEmpty, "spool files are removed")
  }

  @Test("A file of 64 sections has no room for a signature: signing refuses it, a signed one re-signs")
  func noRoomForASignature() throws {
    func file(extraSections: Int) throws -> [UInt8] {
      var writer = try AscendingDirectoryWriter()
      try writer.block(12_025_550_100)
      // Optional sections of types the format does not define ("ZAAZ", "ZABZ", ...): readers skip them.
      let extra = (0..<extraSections).map { index in
        let code = [0x5A, 0x41 + index / 26, 0x41 + index % 26, 0x5A].enumerated().reduce(UInt32(0)) {
          $0 | UInt32($1.element) << (8 * UInt32($1.offset))
        }
        return RawSection(type: code, flags: 0, bytes: [UInt8(index)])
      }
      var bytes: [UInt8] = []
      try writer.finish(appending: extra) { (piece) throws(WriterError) in bytes += piece }
      return bytes
    }
    let full = try file(extraSections: 58)
    #expect(try CallDirectoryReader(bytes: full).shape.header.sections.count == 64)
    #expect(throws: FormatError(.invalidField(field: "section count (no room for a signature)", value: 64), at: 12)) {
      try DirectorySigner.sign(full, key: providerKey)
    }
    let room = try file(extraSections: 57)
    let signed = try DirectorySigner.sign(room, key: providerKey)
    #expect(try CallDirectoryReader(bytes: signed).shape.header.sections.count == 64)
    #expect(Verifier.verify(signed, options: trust(providerKey)).isValid)
    // A signature already there is replaced, so a full signed file signs again.
    #expect(Verifier.verify(try DirectorySigner.sign(signed, key: otherKey), options: trust(otherKey)).isValid)
  }

  @Test("A version 1 file signed becomes version 1.2 and keeps its blocks; stripping gives it back")
  func signingAVersionOneFile() throws {
    let unsigned = try [UInt8](
      Data(contentsOf: SpecVectorTests.versionOneVectors.appendingPathComponent("multiblock.calldir")))
    let signed = try DirectorySigner.sign(unsigned, key: providerKey)
    let report = Verifier.verify(signed, options: trust(providerKey))
    #expect(report.isValid, "\(report.problems)")
    #expect(try CallDirectoryReader(bytes: signed).version == (1, 2))
    #expect(try DirectorySigner.stripSignature(signed).count == unsigned.count)
  }

  @Test("Any changed byte of a signed directory fails verification with a trusted key")
  func everyChangedByteIsCaught() throws {
    let signed = try DirectorySigner.sign(
      try directory([12_025_550_100], labels: [(12_025_550_123, "Acme")], version: 3), key: providerKey)
    for index in signed.indices {
      var damaged = signed
      damaged[index] ^= 0x20
      let report = Verifier.verify(damaged, options: trust(providerKey))
      #expect(!report.isValid, "byte \(index)")
      // Even with every checksum recomputed, the signature catches the change.
      if let fixed = try? recomputedChecksums(damaged), fixed != signed {
        #expect(!Verifier.verify(fixed, options: trust(providerKey)).isValid, "byte \(index), checksums recomputed")
      }
    }
  }

  /// `file` with its header CRC and section checksums recomputed: what an attacker can always do.
  private func recomputedChecksums(_ file: [UInt8]) throws -> [UInt8] {
    let count = Int(file[12]) | Int(file[13]) << 8
    guard count >= 1 && count <= 16, file.count >= 32 + 32 * count else { throw CocoaError(.coderInvalidValue) }
    var sections: [SectionEntry] = []
    for index in 0..<count {
      let at = 32 + 32 * index
      func u32(_ o: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(file[at + o + $1]) << (8 * UInt32($1)) } }
      func u64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(file[at + o + $1]) << (8 * UInt64($1)) } }
      let offset = u64(8)
      let length = u64(16)
      guard offset <= UInt64(file.count), length <= UInt64(file.count) - offset else { throw CocoaError(.coderInvalidValue) }
      sections.append(
        SectionEntry(
          type: u32(0), flags: u32(4), offset: offset, length: length,
          checksum: CRC32.checksum(Array(file[Int(offset)..<Int(offset + length)]))))
    }
    let minor = UInt16(file[10]) | UInt16(file[11]) << 8
    let length = (0..<8).reduce(UInt64(0)) { $0 | UInt64(file[16 + $1]) << (8 * UInt64($1)) }
    var fixed = FileHeader(minor: minor, fileLength: length, sections: sections).encoded()
    fixed.append(contentsOf: file[fixed.count...])
    return fixed
  }

  @Test("A wrong key, a missing signature, a moved signature and an older version are refused")
  func refusals() throws {
    let first = try DirectorySigner.sign(try directory([12_025_550_100], version: 4), key: providerKey)
    let second = try DirectorySigner.sign(try directory([12_025_550_200], version: 4), key: providerKey)
    #expect(Verifier.verify(first, options: trust(otherKey)).authenticityFailure == .unknownKey(providerKey.publicKey))
    let stripped = try DirectorySigner.stripSignature(first)
    #expect(Verifier.verify(stripped, options: trust(providerKey)).authenticityFailure == .unsigned)
    // Unsigned files stay valid when no key is required.
    #expect(Verifier.verify(stripped).isValid)
    // The second file's signature section (and its table checksum) moved onto the first.
    var moved = first
    moved.replaceSubrange((first.count - 104)..<first.count, with: second[(second.count - 104)...])
    let fixed = try recomputedChecksums(moved)
    #expect(Verifier.verify(fixed, options: trust(providerKey)).authenticityFailure == .badSignature(providerKey.publicKey))
    #expect(
      Verifier.verify(first, options: trust(providerKey, installed: 5)).authenticityFailure
        == .rolledBack(installed: 5, offered: 4))
    #expect(Verifier.verify(first, options: trust(providerKey, installed: 4)).isValid)
    // The reader refuses the same way, with a typed error.
    #expect(throws: AuthenticityFailure.unsigned) {
      try CallDirectoryReader(bytes: stripped).check(TrustPolicy(trustedKeys: [providerKey.publicKey]))
    }
    #expect(throws: AuthenticityFailure.unknownKey(providerKey.publicKey)) {
      try CallDirectoryReader(bytes: first).check(TrustPolicy(trustedKeys: [otherKey.publicKey]))
    }
  }

  /// The conformance suite's signed cases are signed by RFC 8032's first key (its runner checks
  /// them without keys): with the key trusted, the genuine ones verify, `signed-version-1.0` made
  /// by the suite's own Ed25519 code rather than this package's signer, and the damaged ones fail
  /// as the spec says.
  @Test("The conformance suite's signatures verify under the test key, a version 1.0 file's too")
  func conformanceSignatures() throws {
    func verdict(_ name: String) throws -> VerificationReport {
      let url = ConformanceSuiteTests.suite.appendingPathComponent("cases/\(name).calldir")
      return Verifier.verify(try [UInt8](Data(contentsOf: url)), options: trust(providerKey))
    }
    #expect(try verdict("signed").isValid)
    let versionOne = try verdict("signed-version-1.0")
    #expect(versionOne.isValid, "\(versionOne.problems)")
    #expect(try verdict("signed-signature-does-not-verify").authenticityFailure == .badSignature(providerKey.publicKey))
    #expect(try verdict("signed-by-another-key").authenticityFailure != nil)
  }

  @Test("Keys round-trip through their file text; malformed key text is refused")
  func keyFiles() throws {
    let key = SigningKey.generate()
    let parsed = try #require(SigningKey(text: key.fileText))
    #expect(parsed.publicKey == key.publicKey)
    #expect(PublicKey(text: key.publicKey.fileText) == key.publicKey)
    #expect(PublicKey(text: Hex.string(key.publicKey.bytes)) == key.publicKey)
    #expect(key.fileText.hasPrefix("calldir-ed25519-secret-key "))
    // A key file saved with CR LF line ends, or with a second line, reads the same.
    let crlf = key.publicKey.fileText.replacingOccurrences(of: "\n", with: "\r\n")
    #expect(PublicKey(text: crlf) == key.publicKey)
    #expect(PublicKey(text: crlf + "comment\r\n") == key.publicKey)
    #expect(SigningKey(text: key.fileText.replacingOccurrences(of: "\n", with: "\r\n"))?.publicKey == key.publicKey)
    // The first line is the key's, as the spec says: an empty first line is not skipped, and a
    // vertical tab or a form feed is no line end.
    #expect(PublicKey(text: "\n" + key.publicKey.fileText) == nil)
    #expect(PublicKey(text: key.publicKey.fileText.dropLast() + "\u{0B}") == nil)
    for bad in [
      "", "calldir-ed25519-public-key", "calldir-ed25519-public-key 12", "other-prefix " + String(repeating: "a", count: 64),
      "calldir-ed25519-public-key " + String(repeating: "g", count: 64),
    ] {
      #expect(PublicKey(text: bad) == nil, "\(bad)")
    }
    // A secret key file is not a public key file, and the other way round.
    #expect(PublicKey(text: key.fileText) == nil)
    #expect(SigningKey(text: key.publicKey.fileText) == nil)
  }

  @Test("A reloading directory refuses an unsigned or rolled-back replacement and keeps serving")
  func reloadingRefusesUntrustedReplacements() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("list.calldir")
    func publish(_ bytes: [UInt8]) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: path + ".new"))
      _ = unsafe rename(path + ".new", path)
    }
    try publish(try DirectorySigner.sign(try directory([12_025_550_100], version: 10), key: providerKey))
    let served = try ReloadingDirectory(path: path, checkInterval: nil, trust: TrustPolicy(trustedKeys: [providerKey.publicKey]))
    #expect(try served.current().isBlocked(12_025_550_100))
    try publish(try directory([12_025_550_200], version: 11))  // unsigned
    _ = served.refresh()
    #expect(try served.current().isBlocked(12_025_550_100))
    try publish(try DirectorySigner.sign(try directory([12_025_550_300], version: 9), key: providerKey))  // older
    _ = served.refresh()
    #expect(try served.current().isBlocked(12_025_550_100))
    try publish(try DirectorySigner.sign(try directory([12_025_550_400], version: 12), key: providerKey))
    _ = served.refresh()
    #expect(try served.current().isBlocked(12_025_550_400))
  }
}

@Suite("Signed changesets")
struct ChangesetSignatureTests {
  private func versions() throws -> (old: [UInt8], new: [UInt8]) {
    let old = try DirectorySigner.sign(
      try directory([12_025_550_100, 12_025_550_101], labels: [(12_025_550_123, "Acme")], version: 1), key: providerKey)
    let new = try DirectorySigner.sign(
      try directory([12_025_550_100, 12_025_550_102], labels: [(12_025_550_123, "Acme Support")], version: 2), key: providerKey)
    return (old, new)
  }

  @Test("Patch rebuilds a signed, versioned NEW byte for byte, and it verifies")
  func patchCarriesVersionAndSignature() throws {
    let (old, new) = try versions()
    let changes = try Changeset.diff(old: try CallDirectoryReader(bytes: old), new: try CallDirectoryReader(bytes: new))
    let reader = try ChangesetReader(bytes: changes)
    #expect(reader.resultListVersion == 2)
    let patched = try Changeset.patched(old: try CallDirectoryReader(bytes: old), changes: reader)
    #expect(patched == new)
    #expect(Verifier.verify(patched, options: trust(providerKey, installed: 2)).isValid)
  }

  @Test("A signed changeset verifies; any changed byte, a wrong key or a missing signature is refused")
  func signedChangeset() throws {
    let (old, new) = try versions()
    let unsigned = try Changeset.diff(old: try CallDirectoryReader(bytes: old), new: try CallDirectoryReader(bytes: new))
    let signed = try ChangesetSigner.sign(unsigned, key: providerKey)
    let policy = TrustPolicy(trustedKeys: [otherKey.publicKey, providerKey.publicKey])
    #expect(try ChangesetReader(bytes: signed).check(policy) == providerKey.publicKey)
    let resigned = try ChangesetSigner.sign(try ChangesetSigner.sign(unsigned, key: otherKey), key: providerKey)
    #if canImport(CryptoKit)
      #expect(try ChangesetReader(bytes: resigned).check(policy) == providerKey.publicKey)
    #else
      #expect(resigned == signed)
    #endif
    for index in signed.indices {
      var damaged = signed
      damaged[index] ^= 0x01
      let accepted = (try? ChangesetReader(bytes: damaged).check(policy)) != nil
      #expect(!accepted, "byte \(index)")
    }
    func failure(_ bytes: [UInt8], _ policy: TrustPolicy) -> AuthenticityFailure? {
      do { try ChangesetReader(bytes: bytes).check(policy) } catch {
        if case .notAuthentic(let failure) = error.kind { return failure }
      }
      return nil
    }
    #expect(failure(signed, TrustPolicy(trustedKeys: [otherKey.publicKey])) == .unknownKey(providerKey.publicKey))
    #expect(failure(unsigned, policy) == .unsigned)
    #expect(
      failure(signed, TrustPolicy(trustedKeys: [providerKey.publicKey], installedVersion: 3))
        == .rolledBack(installed: 3, offered: 2))
    // Patch checks first and writes nothing for an untrusted changeset.
    #expect {
      try Changeset.patch(
        old: try CallDirectoryReader(bytes: old), changes: try ChangesetReader(bytes: unsigned), trust: policy,
        temporaryDirectory: nil
      ) { _ in Issue.record("bytes written for an untrusted changeset") }
    } throws: { error in
      guard let error = error as? ChangesetError, case .notAuthentic(.unsigned) = error.kind else { return false }
      return true
    }
    var output: [UInt8] = []
    try Changeset.patch(
      old: try CallDirectoryReader(bytes: old), changes: try ChangesetReader(bytes: signed), trust: policy,
      temporaryDirectory: nil
    ) { output += $0 }
    #expect(output == new)
  }
}
