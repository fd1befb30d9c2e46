import CallDirectoryCrypto
import CallDirectoryFormat

extension CallDirectoryReader {
  /// The provider's list version (`Spec/FORMAT.md`, section 16), 0 for a file without one.
  public var listVersion: UInt64 { layout.listVersion }

  /// The key that signed the file, whether or not its signature verifies; `nil` when unsigned.
  public var signer: PublicKey? { layout.signature?.publicKey }

  /// Opens the file at `path` and refuses it unless `trust` accepts it (`check(_:)`).
  /// - Throws: `OpenError`: as `init(path:)`, and `.notAuthentic` for a file that is well formed
  ///   but not trusted.
  /// - Complexity: O(1) without trusted keys; with them, one SHA-256 pass over the file.
  public convenience init(path: String, trust: TrustPolicy) throws(OpenError) {
    try self.init(path: path)
    do { try check(trust) } catch { throw .notAuthentic(error) }
  }

  /// Checks the file against `trust`: with trusted keys, a signature by one of them that verifies;
  /// with an installed version, a list version at least as high.
  ///
  /// - Returns: the key that signed the file, when `trust` has keys and the signature verifies.
  /// - Throws: `AuthenticityFailure`: `.unsigned`, `.unknownKey`, `.badSignature` or `.rolledBack`.
  /// - Complexity: one SHA-256 pass over the file when `trust` has keys, else O(1).
  @discardableResult
  public func check(_ trust: TrustPolicy) throws(AuthenticityFailure) -> PublicKey? {
    try layout.check(trust)
  }
}

extension DirectoryLayout {
  /// Checks the file against `trust`, as `CallDirectoryReader.check(_:)` does.
  @discardableResult
  package func check(_ trust: TrustPolicy) throws(AuthenticityFailure) -> PublicKey? {
    var signer: PublicKey?
    if trust.requiresSignature {
      guard let signature else { throw .unsigned }
      guard trust.trustedKeys.contains(signature.publicKey) else { throw .unknownKey(signature.publicKey) }
      var hasher = SHA256Hasher()
      // The signature section is last (the layout checked), so the signed bytes are all there.
      let fed: ()? = try? SignedDirectoryBytes.feed(file, header: header) { piece in
        unsafe piece.withUnsafeBytes { unsafe hasher.update($0) }
      }
      let message = SignedDirectoryBytes.domain + hasher.finish()
      guard fed != nil, Ed25519.isValid(signature: signature.signature, of: message, publicKey: signature.publicKey.bytes)
      else { throw .badSignature(signature.publicKey) }
      signer = signature.publicKey
    }
    if let installed = trust.installedVersion, listVersion < installed {
      throw .rolledBack(installed: installed, offered: listVersion)
    }
    return signer
  }
}
