import CallDirectory
import CallDirectoryFormat
import Testing

@testable import CallDirectoryChangeset

/// Signed changesets end to end (`Spec/CHANGESET.md`, section 4.2): the trailer's CRC, version 3,
/// rollbacks through patch, and a trusted patch that must give a signed result.
@Suite struct ChangesetTrustTests {
  /// Fixed keys, so that failures reproduce.
  static let provider = SigningKey(seed: Array(repeating: 0x5A, count: 32))!
  static let stranger = SigningKey(seed: Array(repeating: 0xA5, count: 32))!

  /// A directory blocking `numbers`, with a list version, signed by `key` when given.
  static func version(_ numbers: [Int64], list: UInt64, signedBy key: SigningKey?) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.listVersion = list
    for number in numbers { try builder.block(number) }
    try builder.identify(12_025_550_123, label: "Acme \(list)")
    let bytes = try builder.encoded()
    return try key.map { (key) throws(FormatError) in try DirectorySigner.sign(bytes, key: key) } ?? bytes
  }

  /// OLD (list 4) and NEW (list `newList`), both signed by the provider unless told.
  static func pair(newList: UInt64 = 5, newSigned: SigningKey? = provider) throws -> (old: [UInt8], new: [UInt8]) {
    (
      try version([12_025_550_100, 12_025_550_101], list: 4, signedBy: provider),
      try version([12_025_550_100, 12_025_550_102], list: newList, signedBy: newSigned)
    )
  }

  static func signedChangeset(newList: UInt64 = 5, newSigned: SigningKey? = provider) throws -> (
    old: [UInt8], new: [UInt8], changes: [UInt8]
  ) {
    let (old, new) = try pair(newList: newList, newSigned: newSigned)
    let unsigned = try Changeset.diff(old: try CallDirectoryReader(bytes: old), new: try CallDirectoryReader(bytes: new))
    return (old, new, try ChangesetSigner.sign(unsigned, key: provider))
  }

  /// Applies `changes` to `old` under `trust`: the result's bytes, or the patch's error.
  static func patch(_ old: [UInt8], _ changes: [UInt8], trust: TrustPolicy) throws -> Result<[UInt8], ChangesetError> {
    let base = try CallDirectoryReader(bytes: old)
    let reader = try ChangesetReader(bytes: changes)
    return Result { () throws(ChangesetError) -> [UInt8] in
      var output: [UInt8] = []
      try Changeset.patch(old: base, changes: reader, trust: trust, temporaryDirectory: nil) { output += $0 }
      return output
    }
  }

  @Test func signedChangesetsAreVersion3WithACheckedTrailer() throws {
    let (_, _, signed) = try Self.signedChangeset()
    #expect(signed[8] == 3 && signed[9] == 0)
    #expect(signed[14] & 1 == 1)
    let trailer = Array(signed.suffix(ChangesetLayout.trailerSize))
    #expect(trailer.count == 108)
    let stored = UInt32(trailer[104]) | UInt32(trailer[105]) << 8 | UInt32(trailer[106]) << 16 | UInt32(trailer[107]) << 24
    #expect(stored == CRC32.checksum(Array(trailer.prefix(104))))
    #expect(Array(trailer[8..<40]) == Self.provider.publicKey.bytes)
  }

  /// Without trusted keys no signature is checked: the trailer's CRC alone must catch every
  /// changed byte of the algorithm, reserved field, key, signature and CRC itself.
  @Test func everyChangedTrailerByteIsRefusedWithoutTrustedKeys() throws {
    let (_, _, signed) = try Self.signedChangeset()
    for offset in (signed.count - ChangesetLayout.trailerSize)..<signed.count {
      for flip in [0x01, 0x80] as [UInt8] {
        var damaged = signed
        damaged[offset] ^= flip
        #expect {
          try ChangesetReader(bytes: damaged)
        } throws: { error in
          guard case .format(let error)? = (error as? ChangesetError)?.kind, case .sectionChecksumMismatch = error.kind else {
            return false
          }
          return error.section == "signature" && error.offset == signed.count - 4
        }
      }
    }
  }

  @Test func everyChangedByteOfASignedChangesetIsRefusedWithoutTrustedKeys() throws {
    let (old, _, signed) = try Self.signedChangeset()
    let base = try CallDirectoryReader(bytes: old)
    #expect(!ChangesetDamageTests.rejected(signed, old: base))
    for offset in signed.indices {
      var damaged = signed
      damaged[offset] ^= 0x04
      #expect(ChangesetDamageTests.rejected(damaged, old: base), "byte \(offset)")
    }
  }

  /// The 104-byte trailer of version 2, which no check covered, is refused by name; a version 3
  /// header without the signed flag is another spelling of version 2 and refused too.
  @Test(arguments: [(UInt16(2), true), (3, false)])
  func retiredSpellingsAreRefused(major: UInt16, keepsSignedFlag: Bool) throws {
    let (_, _, signed) = try Self.signedChangeset()
    var bytes = keepsSignedFlag ? Array(signed.dropLast(4)) : Array(signed.dropLast(ChangesetLayout.trailerSize))
    bytes[8] = UInt8(major)
    if !keepsSignedFlag { bytes[14] &= ~1 }
    let crc = CRC32.checksum(Array(bytes[0..<96]))
    for index in 0..<4 { bytes[96 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
    do {
      _ = try ChangesetReader(bytes: bytes)
      Issue.record("a version \(major) header with flags \(bytes[14]) was accepted")
    } catch {
      guard case .format(let format) = error.kind else {
        Issue.record("\(error)")
        return
      }
      #expect(format.offset == 14)
      if keepsSignedFlag { #expect(error.description.contains("version 3"), "\(error)") }
    }
  }

  @Test func signingRefusesADamagedChangeset() throws {
    let (_, _, signed) = try Self.signedChangeset()
    let unsigned = try Changeset.diff(
      old: try CallDirectoryReader(bytes: try Self.pair().old), new: try CallDirectoryReader(bytes: try Self.pair().new))
    // A byte inside the first block's payload: framing and header still read, the block's CRC does not.
    var damaged = unsigned
    let payload = damaged.count - ChangesetLayout.footerSize - 6
    damaged[payload] ^= 0x10
    _ = try ChangesetReader(bytes: damaged)  // opening checks framing only
    #expect {
      try ChangesetSigner.sign(damaged, key: Self.provider)
    } throws: { error in
      guard let error = error as? ChangesetError, case .format(let format) = error.kind,
        case .blockChecksumMismatch = format.kind
      else { return false }
      return true
    }
    #expect(try ChangesetSigner.sign(unsigned, key: Self.provider) == signed)
  }

  /// The failure a patch threw, when it is about trust.
  static func failure(_ result: Result<[UInt8], ChangesetError>) -> (result: Bool, AuthenticityFailure)? {
    guard case .failure(let error) = result else { return nil }
    switch error.kind {
    case .notAuthentic(let failure): return (false, failure)
    case .resultNotAuthentic(let failure): return (true, failure)
    default: return nil
    }
  }

  @Test func patchRefusesARollbackBelowTheInstalledVersion() throws {
    let (old, new, changes) = try Self.signedChangeset(newList: 3)
    let keys = [Self.provider.publicKey]
    for trust in [TrustPolicy(trustedKeys: keys, installedVersion: 4), TrustPolicy(installedVersion: 4)] {
      let refused = try Self.patch(old, changes, trust: trust)
      #expect(Self.failure(refused)?.1 == .rolledBack(installed: 4, offered: 3), "\(refused)")
    }
    // The same list version again, or a lower installed one, applies.
    for installed in [0, 2, 3] as [UInt64] {
      #expect(try Self.patch(old, changes, trust: TrustPolicy(trustedKeys: keys, installedVersion: installed)).get() == new)
    }
  }

  @Test func trustedPatchOfASignedBaseRefusesAnUnsignedResultBeforeWritingIt() throws {
    let (old, new, changes) = try Self.signedChangeset(newSigned: nil)
    let reader = try ChangesetReader(bytes: changes)
    #expect(reader.resultSigner == nil)
    #expect {
      try Changeset.patch(
        old: try CallDirectoryReader(bytes: old), changes: reader, trust: TrustPolicy(trustedKeys: [Self.provider.publicKey]),
        temporaryDirectory: nil
      ) { _ in Issue.record("bytes written for a result that is refused") }
    } throws: { error in
      guard let error = error as? ChangesetError, case .resultNotAuthentic(.unsigned) = error.kind else { return false }
      return true
    }
    let refused = try Self.patch(old, changes, trust: TrustPolicy(trustedKeys: [Self.provider.publicKey]))
    #expect(Self.failure(refused).map { $0.result && $0.1 == .unsigned } == true, "\(refused)")
    #expect("\(refused)".contains("patched directory"))
    // Without trusted keys no signature is asked for, and the unsigned NEW is the result.
    #expect(try Self.patch(old, changes, trust: TrustPolicy()).get() == new)
  }

  @Test func trustedPatchRefusesAResultSignedByAKeyNotTrusted() throws {
    let (old, new, changes) = try Self.signedChangeset(newSigned: Self.stranger)
    let refused = try Self.patch(old, changes, trust: TrustPolicy(trustedKeys: [Self.provider.publicKey]))
    #expect(Self.failure(refused).map { $0.result && $0.1 == .unknownKey(Self.stranger.publicKey) } == true, "\(refused)")
    let both = TrustPolicy(trustedKeys: [Self.provider.publicKey, Self.stranger.publicKey])
    #expect(try Self.patch(old, changes, trust: both).get() == new)
  }

  /// A NEW whose carried signature does not verify over it: only hashing the result as it is
  /// written can tell, since the key is trusted and the changeset's own signature is good.
  @Test func trustedPatchRefusesAResultWhoseSignatureDoesNotVerify() throws {
    let (old, good) = try Self.pair()
    var crafted = try CraftedFile(good)
    crafted.patch(.signature, at: 70, [crafted[.signature][70] ^ 0x01])
    let new = crafted.bytes
    let trust = TrustPolicy(trustedKeys: [Self.provider.publicKey])
    #expect(throws: AuthenticityFailure.badSignature(Self.provider.publicKey)) {
      try CallDirectoryReader(bytes: new).check(trust)
    }
    let unsigned = try Changeset.diff(old: try CallDirectoryReader(bytes: old), new: try CallDirectoryReader(bytes: new))
    let changes = try ChangesetSigner.sign(unsigned, key: Self.provider)
    let refused = try Self.patch(old, changes, trust: trust)
    #expect(Self.failure(refused).map { $0.result && $0.1 == .badSignature(Self.provider.publicKey) } == true, "\(refused)")
    #expect(try Self.patch(old, changes, trust: TrustPolicy()).get() == new)
    // The good NEW's changeset applies under the same trust, and its result verifies.
    let (_, _, goodChanges) = try Self.signedChangeset()
    let patched = try Self.patch(old, goodChanges, trust: trust).get()
    #expect(try CallDirectoryReader(bytes: patched).check(trust) == Self.provider.publicKey)
  }

  /// Signed changesets between unsigned directories still apply under trust: the consumer keeps
  /// unsigned directories, which its own check does not ask to be signed.
  @Test func trustedPatchOfAnUnsignedBaseMayGiveAnUnsignedResult() throws {
    let old = try Self.version([12_025_550_100], list: 1, signedBy: nil)
    let new = try Self.version([12_025_550_101], list: 2, signedBy: nil)
    let changes = try ChangesetSigner.sign(
      try Changeset.diff(old: try CallDirectoryReader(bytes: old), new: try CallDirectoryReader(bytes: new)), key: Self.provider)
    #expect(try Self.patch(old, changes, trust: TrustPolicy(trustedKeys: [Self.provider.publicKey])).get() == new)
  }

  /// The streamed check gives the same answer whatever the pieces: one byte at a time, seeded
  /// random sizes, or whole; and any changed byte of the signed part makes it refuse.
  @Test func streamedSignatureIsIndependentOfPieceSizes() throws {
    let (_, signed) = try Self.pair()
    let trust = TrustPolicy(trustedKeys: [Self.provider.publicKey])
    func check(_ bytes: [UInt8], pieces: (inout SeededGenerator) -> Int) -> Bool {
      var rng = SeededGenerator(seed: 22)
      var stream = StreamedSignature()
      var at = 0
      while at < bytes.count {
        let size = min(bytes.count - at, max(1, pieces(&rng)))
        stream.update(Array(bytes[at..<(at + size)]))
        at += size
      }
      return (try? stream.check(trust)) != nil
    }
    #expect(check(signed) { _ in 1 })
    #expect(check(signed) { Int.random(in: 1...300, using: &$0) })
    #expect(check(signed) { _ in Int.max })
    // Not signed, since they depend on the signature: the header CRC and SIGN's table checksum
    // (patch's result hash covers them).
    let count = Int(signed[12])
    let entryChecksum = FileHeader.size(sectionCount: count) - FormatConstants.sectionEntrySize + 24
    for offset in stride(from: 0, to: signed.count, by: 7)
    where !(28..<32).contains(offset) && !(entryChecksum..<(entryChecksum + 4)).contains(offset) {
      var damaged = signed
      damaged[offset] ^= 0x02
      #expect(!check(damaged) { Int.random(in: 1...64, using: &$0) }, "byte \(offset)")
    }
  }
}
