import CallDirectoryCrypto
import CallDirectoryFormat

/// A provider's private Ed25519 key: its 32-byte seed.
///
/// Its file holds one line, `calldir-ed25519-secret-key HEX`; keep it readable by its owner only
/// (`calldir keygen` creates it so).
///
///     let key = SigningKey.generate()
///     let secretText = key.fileText  // for the owner only
///     let publicText = key.publicKey.fileText  // for consumers
///     print(publicText)  // calldir-ed25519-public-key ...
///     guard let again = SigningKey(text: secretText) else { return }
///     let signed = try DirectorySigner.sign(directoryBytes, key: again)
///     print(signed.count)
public struct SigningKey: Sendable {
  /// The 32-byte seed.
  let seed: [UInt8]
  /// The matching public key, which consumers trust.
  public let publicKey: PublicKey

  /// A new key from the system's random generator.
  public static func generate() -> SigningKey { SigningKey(validSeed: Ed25519.randomSeed()) }

  /// The key of a 32-byte seed.
  /// - Returns: `nil` for a seed of another length.
  public init?(seed: [UInt8]) {
    guard seed.count == Ed25519.keySize else { return nil }
    self.init(validSeed: seed)
  }

  private init(validSeed seed: [UInt8]) {
    self.seed = seed
    publicKey = PublicKey(bytes: Ed25519.publicKey(seed: seed))
  }

  /// Parses a private key file's text, or the seed as 64 hex digits alone.
  /// - Returns: `nil` when the text is neither.
  public init?(text: String) {
    guard let seed = KeyText.parse(text, prefix: KeyText.secretPrefix) else { return nil }
    self.init(validSeed: seed)
  }

  /// The text of the key's file.
  public var fileText: String { KeyText.secretPrefix + " " + Hex.string(seed) + "\n" }

  /// The Ed25519 signature of `message`.
  package func sign(_ message: [UInt8]) -> [UInt8] { Ed25519.sign(message, seed: seed) }
}
