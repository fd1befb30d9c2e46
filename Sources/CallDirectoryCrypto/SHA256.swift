import CallDirectoryFormat

#if canImport(CryptoKit)
  import CryptoKit
#else
  import CSodium
#endif

/// SHA-256 (FIPS 180-4), the content hash a changeset names its base and result by.
///
/// CryptoKit where the platform has it, libsodium elsewhere: one call over the whole view, which
/// for a directory is its memory mapping, so hashing reads the file once and copies nothing.
package enum SHA256Digest {
  /// The digest's length in bytes.
  package static let size = 32

  /// The 32-byte digest of `bytes`.
  package static func hash(_ bytes: ByteView) -> [UInt8] {
    #if canImport(CryptoKit)
      return unsafe bytes.withUnsafeBytes { unsafe Array(CryptoKit.SHA256.hash(data: $0)) }
    #else
      var digest = [UInt8](repeating: 0, count: size)
      unsafe bytes.withUnsafeBytes { source in
        unsafe digest.withUnsafeMutableBufferPointer { target in
          // A 32-element array always has storage.
          guard let output = target.baseAddress else { return }
          // libsodium's one-shot hash cannot fail; its status is always 0.
          _ = unsafe crypto_hash_sha256(output, source.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(source.count))
        }
      }
      return digest
    #endif
  }

  /// The 32-byte digest of `bytes`.
  package static func hash(_ bytes: [UInt8]) -> [UInt8] {
    unsafe bytes.withUnsafeBytes { unsafe hash(ByteView($0)) }
  }

  /// `digest` as lowercase hexadecimal, for messages.
  package static func hex(_ digest: [UInt8]) -> String { Hex.string(digest) }
}

/// SHA-256 over bytes that arrive in pieces: a file as it is written.
package struct SHA256Hasher {
  #if canImport(CryptoKit)
    private var state = CryptoKit.SHA256()
  #else
    private var state = crypto_hash_sha256_state()
  #endif

  package init() {
    #if !canImport(CryptoKit)
      // Initialising a state cannot fail; its status is always 0.
      _ = unsafe crypto_hash_sha256_init(&state)
    #endif
  }

  /// Adds `bytes` to the digest.
  package mutating func update(_ bytes: ByteView) {
    #if canImport(CryptoKit)
      unsafe bytes.withUnsafeBytes { unsafe state.update(bufferPointer: $0) }
    #else
      unsafe bytes.withUnsafeBytes { buffer in
        _ = unsafe crypto_hash_sha256_update(
          &state, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(buffer.count))
      }
    #endif
  }

  /// Adds `bytes` to the digest.
  package mutating func update(_ bytes: [UInt8]) {
    #if canImport(CryptoKit)
      state.update(data: bytes)
    #else
      unsafe bytes.withUnsafeBufferPointer { buffer in
        _ = unsafe crypto_hash_sha256_update(&state, buffer.baseAddress, UInt64(buffer.count))
      }
    #endif
  }

  /// The 32-byte digest of every byte given.
  package consuming func finish() -> [UInt8] {
    #if canImport(CryptoKit)
      return Array(state.finalize())
    #else
      var digest = [UInt8](repeating: 0, count: SHA256Digest.size)
      unsafe digest.withUnsafeMutableBufferPointer { target in
        guard let output = target.baseAddress else { return }
        _ = unsafe crypto_hash_sha256_final(&state, output)
      }
      return digest
    #endif
  }
}
