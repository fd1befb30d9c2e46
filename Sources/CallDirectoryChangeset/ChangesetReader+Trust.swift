import CallDirectoryCrypto
import CallDirectoryFormat

extension ChangesetReader {
  /// The text the signed digest follows: a changeset's signature can never pass for a directory's.
  static let signatureDomain: [UInt8] = Array("calldir changeset signature 1".utf8) + [0]

  /// The key that signed the changeset, whether or not its signature verifies; `nil` when unsigned.
  public var signer: PublicKey? { signature?.publicKey }

  /// The list version of the directory the changeset produces (0 when it carries none).
  public var resultListVersion: UInt64 {
    guard let section = carried.first(where: { $0.type == SectionType.listVersion.code }) else { return 0 }
    let version = unsafe section.bytes.withUnsafeBytes {
      unsafe try? ListVersionSection(parsing: ByteView($0), at: FilePlace(offset: 0))
    }
    return version?.version ?? 0
  }

  /// The key that signed the directory the changeset produces (its carried `SIGN`), whether or
  /// not that signature verifies; `nil` when it carries none.
  public var resultSigner: PublicKey? {
    guard let section = carried.first(where: { $0.type == SectionType.signature.code }) else { return nil }
    let signature = unsafe section.bytes.withUnsafeBytes {
      unsafe try? SignatureSection(parsing: ByteView($0), at: FilePlace(offset: 0))
    }
    return signature?.publicKey
  }

  /// Whether a patch under `trust` of a base that is signed (`baseSigned`) or not must check the
  /// result's signature (`Spec/CHANGESET.md`, section 4.2), and, when it must, the checks that
  /// need no result: a signature carried, by a trusted key.
  /// - Throws: `ChangesetError` of kind `.resultNotAuthentic` (`.unsigned`, `.unknownKey`).
  /// - Complexity: O(1).
  func resultMustBeSigned(under trust: TrustPolicy, baseSigned: Bool) throws(ChangesetError) -> Bool {
    let signer = resultSigner
    guard trust.requiresSignature, baseSigned || signer != nil else { return false }
    guard let signer else { throw ChangesetError(.resultNotAuthentic(.unsigned)) }
    guard trust.trustedKeys.contains(signer) else { throw ChangesetError(.resultNotAuthentic(.unknownKey(signer))) }
    return true
  }

  /// Checks the changeset against `trust`: with trusted keys, a signature by one of them over
  /// every other byte (`Spec/CHANGESET.md`, section 4.2); with an installed version, a result
  /// whose list version is at least as high.
  /// - Returns: the key that signed, when `trust` has keys and the signature verifies.
  /// - Throws: `ChangesetError` of kind `.notAuthentic`.
  /// - Complexity: one SHA-256 pass over the changeset when `trust` has keys, else O(1).
  @discardableResult
  public func check(_ trust: TrustPolicy) throws(ChangesetError) -> PublicKey? {
    var signer: PublicKey?
    if trust.requiresSignature {
      guard let signature else { throw ChangesetError(.notAuthentic(.unsigned)) }
      guard trust.trustedKeys.contains(signature.publicKey) else {
        throw ChangesetError(.notAuthentic(.unknownKey(signature.publicKey)))
      }
      // Everything before the signature field: all but the signature and the trailer CRC after it.
      let file = self.file
      let unsigned = ChangesetLayout.trailerSize - SignatureSection.signatureOffset
      let signed = file.sliceOrEmpty(offset: 0, length: file.count - unsigned)
      let message = Self.signatureDomain + (unsafe signed.withUnsafeBytes { unsafe SHA256Digest.hash($0) })
      guard Ed25519.isValid(signature: signature.signature, of: message, publicKey: signature.publicKey.bytes) else {
        throw ChangesetError(.notAuthentic(.badSignature(signature.publicKey)))
      }
      signer = signature.publicKey
    }
    if let installed = trust.installedVersion, resultListVersion < installed {
      throw ChangesetError(.notAuthentic(.rolledBack(installed: installed, offered: resultListVersion)))
    }
    return signer
  }
}
