#if canImport(CryptoKit)
  import CryptoKit
#else
  import CSodium
#endif

/// Ed25519 signatures (RFC 8032): the one interface through which this package signs and checks.
///
/// libsodium where CryptoKit is absent, CryptoKit on Apple platforms; nothing here is
/// hand-written cryptography. A private key is kept as its 32-byte seed, from which both
/// libraries derive the same key pair. libsodium's signatures are deterministic (RFC 8032);
/// CryptoKit's are randomised, so on Apple platforms two signatures of one message differ, and
/// both verify.
package enum Ed25519 {
  /// Bytes in a seed (a private key) and in a public key.
  package static let keySize = 32
  /// Bytes in a signature.
  package static let signatureSize = 64

  /// A new random seed from the system's generator.
  package static func randomSeed() -> [UInt8] {
    #if canImport(CryptoKit)
      return Array(Curve25519.Signing.PrivateKey().rawRepresentation)
    #else
      ensureInitialised()
      var seed = [UInt8](repeating: 0, count: keySize)
      unsafe seed.withUnsafeMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        unsafe randombytes_buf(base, keySize)
      }
      return seed
    #endif
  }

  /// The public key of `seed`.
  /// - Precondition: `seed.count == keySize` (callers check lengths when they parse keys).
  package static func publicKey(seed: [UInt8]) -> [UInt8] {
    #if canImport(CryptoKit)
      // The seed has the right length, so the key always parses.
      return (try? Curve25519.Signing.PrivateKey(rawRepresentation: seed)).map { Array($0.publicKey.rawRepresentation) } ?? []
    #else
      return keyPair(seed).public
    #endif
  }

  /// The signature of `message` by the key of `seed`.
  package static func sign(_ message: [UInt8], seed: [UInt8]) -> [UInt8] {
    #if canImport(CryptoKit)
      guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
        let signature = try? key.signature(for: message)
      else { return [] }
      return Array(signature)
    #else
      let secret = keyPair(seed).secret
      var signature = [UInt8](repeating: 0, count: signatureSize)
      unsafe signature.withUnsafeMutableBufferPointer { output in
        unsafe message.withUnsafeBufferPointer { input in
          unsafe secret.withUnsafeBufferPointer { key in
            // Both arrays have storage; signing with a well-formed secret key cannot fail.
            guard let target = output.baseAddress, let secretKey = key.baseAddress else { return }
            _ = unsafe crypto_sign_ed25519_detached(target, nil, input.baseAddress, UInt64(input.count), secretKey)
          }
        }
      }
      return signature
    #endif
  }

  /// Whether `signature` is `publicKey`'s signature of `message`; wrong lengths are simply invalid.
  package static func isValid(signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
    guard signature.count == signatureSize, publicKey.count == keySize else { return false }
    #if canImport(CryptoKit)
      guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
      return key.isValidSignature(signature, for: message)
    #else
      ensureInitialised()
      return unsafe signature.withUnsafeBufferPointer { sig in
        unsafe message.withUnsafeBufferPointer { input in
          unsafe publicKey.withUnsafeBufferPointer { key in
            guard let signatureBytes = sig.baseAddress, let keyBytes = key.baseAddress else { return false }
            return unsafe crypto_sign_ed25519_verify_detached(signatureBytes, input.baseAddress, UInt64(input.count), keyBytes)
              == 0
          }
        }
      }
    #endif
  }

  #if !canImport(CryptoKit)
    /// libsodium's 32-byte public key and 64-byte secret key (seed and public key) for `seed`.
    private static func keyPair(_ seed: [UInt8]) -> (public: [UInt8], secret: [UInt8]) {
      ensureInitialised()
      var publicKey = [UInt8](repeating: 0, count: keySize)
      var secret = [UInt8](repeating: 0, count: 64)
      guard seed.count == keySize else { return (publicKey, secret) }
      unsafe publicKey.withUnsafeMutableBufferPointer { pk in
        unsafe secret.withUnsafeMutableBufferPointer { sk in
          unsafe seed.withUnsafeBufferPointer { s in
            guard let p = pk.baseAddress, let k = sk.baseAddress, let s = s.baseAddress else { return }
            _ = unsafe crypto_sign_ed25519_seed_keypair(p, k, s)
          }
        }
      }
      return (publicKey, secret)
    }

    /// `sodium_init` is idempotent and thread-safe; its random generator needs it first.
    private static func ensureInitialised() {
      _ = sodium_init()
    }
  #endif
}
