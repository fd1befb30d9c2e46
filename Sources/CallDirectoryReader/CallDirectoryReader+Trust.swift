import CallDirectoryCrypto
import CallDirectoryFormat

extension CallDirectoryReader {
  /// The provider's list version (`Spec/FORMAT.md`, section 16), 0 for a file without one.
  public var listVersion: UInt64 { layout.listVersion }

  /// The key that signed the file, whether or not its signature verifies; `nil` when unsigned.
  public var signer: PublicKey? { layout.signature?.publicKey }

  /// Opens the file at `path` and refuses it unless `trust` accepts it (`check(_:)`).
  /// - Throws: `FormatError`, with kind `.notAuthentic` for a file that is well formed but not trusted.
  /// - Complexity: O(1) without trusted keys; with them, one SHA-256 pass over the file.
  public convenience init(path: String, trust: TrustPolicy) throws(FormatError) {
    try self.init(path: path)
    try check(trust)
  }

  /// Checks the file against `trust`: with trusted keys, a signature by one of them that verifies;
  /// with an installed version, a list version at least as high.
  ///
  /// - Returns: the key that signed the file, when `trust` has keys and the signature verifies.
  /// - Throws: `FormatError` of kind `.notAuthentic`: `.unsigned`, `.unknownKey`, `.badSignature`
  ///   or `.rolledBack`, placed at the signature or list version section.
  /// - Complexity: one SHA-256 pass over the file when `trust` has keys, else O(1).
  @discardableResult
  public func check(_ trust: TrustPolicy) throws(FormatError) -> PublicKey? {
    try layout.check(trust)
  }
}

extension DirectoryLayout {
  /// Checks the file against `trust`, as `CallDirectoryReader.check(_:)` does.
  @discardableResult
  public func check(_ trust: TrustPolicy) throws(FormatError) -> PublicKey? {
    let layout = self
    var signer: PublicKey?
    if trust.requiresSignature {
      let at = Int(layout.header.section(.signature)?.offset ?? 0)
      guard let signature = layout.signature else { throw FormatError(.notAuthentic(.unsigned), at: 0) }
      guard trust.trustedKeys.contains(signature.publicKey) else {
        throw FormatError(.notAuthentic(.unknownKey(signature.publicKey)), at: at + 8, section: "SIGN")
      }
      var hasher = SHA256Hasher()
      try SignedDirectoryBytes.feed(layout.file, header: layout.header) { piece in unsafe piece.withUnsafeBytes { unsafe hasher.update($0) } }
      let message = SignedDirectoryBytes.domain + hasher.finish()
      guard Ed25519.isValid(signature: signature.signature, of: message, publicKey: signature.publicKey.bytes) else {
        throw FormatError(.notAuthentic(.badSignature(signature.publicKey)), at: at + 40, section: "SIGN")
      }
      signer = signature.publicKey
    }
    if let installed = trust.installedVersion, listVersion < installed {
      let at = Int(header.section(.listVersion)?.offset ?? 0)
      throw FormatError(.notAuthentic(.rolledBack(installed: installed, offered: listVersion)), at: at)
    }
    return signer
  }
}
