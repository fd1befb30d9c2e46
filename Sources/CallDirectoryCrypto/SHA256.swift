#if canImport(CryptoKit)
  import CryptoKit
#else
  import CSodium
#endif

/// SHA-256 (FIPS 180-4), the content hash a changeset names its base and result by.
///
/// CryptoKit where the platform has it, libsodium elsewhere: one call over the whole buffer, which
/// for a directory is its memory mapping, so hashing reads the file once and copies nothing.
/// This module takes plain bytes and depends on no other module of the package.
package enum SHA256Digest {
  /// The digest's length in bytes.
  package static let size = 32

  /// The 32-byte digest of the bytes in `source`, which the caller keeps alive until this returns.
  package static func hash(_ source: UnsafeRawBufferPointer) -> [UInt8] {
    #if canImport(CryptoKit)
      return unsafe Array(CryptoKit.SHA256.hash(data: source))
    #else
      var digest = [UInt8](repeating: 0, count: size)
      unsafe digest.withUnsafeMutableBufferPointer { target in
        // A 32-element array always has storage.
        guard let output = target.baseAddress else { return }
        // libsodium's one-shot hash cannot fail; its status is always 0.
        _ = unsafe crypto_hash_sha256(output, source.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(source.count))
      }
      return digest
    #endif
  }

  /// The 32-byte digest of `bytes`.
  package static func hash(_ bytes: [UInt8]) -> [UInt8] {
    unsafe bytes.withUnsafeBytes { unsafe hash($0) }
  }

  /// `digest` as lowercase hexadecimal, for messages.
  package static func hex(_ digest: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(digest.count * 2)
    for byte in digest { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: text, as: UTF8.self)
  }
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

  /// Adds the bytes in `buffer`, which the caller keeps alive until this returns, to the digest.
  package mutating func update(_ buffer: UnsafeRawBufferPointer) {
    #if canImport(CryptoKit)
      unsafe state.update(bufferPointer: buffer)
    #else
      _ = unsafe crypto_hash_sha256_update(
        &state, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(buffer.count))
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
