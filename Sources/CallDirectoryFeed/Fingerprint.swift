import CallDirectoryFormat

/// FNV-1a over a file header's fields: a cheap identity for "the same directory", which a
/// cursor carries so that it is never applied to another file.
enum Fingerprint {
  static func of(_ header: FileHeader) -> UInt64 {
    var hash = Hasher64()
    hash.mix(UInt64(header.major) << 16 | UInt64(header.minor))
    hash.mix(header.fileLength)
    for section in header.sections {
      hash.mix(UInt64(section.type) << 32 | UInt64(section.flags))
      hash.mix(section.offset)
      hash.mix(section.length)
      hash.mix(UInt64(section.checksum))
    }
    return hash.value
  }

  /// FNV-1a, 64-bit: stable across runs and platforms, unlike `Hasher`, which is seeded per process.
  struct Hasher64 {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func mix(_ word: UInt64) {
      for shift in stride(from: 0, to: 64, by: 8) {
        value ^= (word >> UInt64(shift)) & 0xff
        value &*= 0x100_0000_01b3  // FNV prime; the product wraps by design
      }
    }
  }
}
