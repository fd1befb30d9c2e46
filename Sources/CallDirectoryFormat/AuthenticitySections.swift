/// The list version section `VERS` (`Spec/FORMAT.md`, section 16): 16 bytes.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | list version, u64 |
/// | 8 | 8 | reserved, 0 |
@usableFromInline package struct ListVersionSection: Sendable, Equatable {
  /// The section's size in bytes.
  @usableFromInline package static let size = 16
  /// The provider's list version: a number that grows with every list it publishes.
  @usableFromInline package var version: UInt64

  /// A section holding `version`.
  @usableFromInline package init(version: UInt64) {
    self.version = version
  }

  /// Parses the section's bytes, which lie at `place` in the file.
  /// - Throws: `FormatError`, placed in the file, for a wrong length or a nonzero reserved field.
  package init(parsing bytes: ByteView, at place: FilePlace) throws(FormatError) {
    guard bytes.count == Self.size else {
      throw place.error(.invalidField(field: "length of the list version section", value: UInt64(bytes.count)))
    }
    guard unsafe bytes.uncheckedUInt64LE(at: 8) == 0 else { throw place.error(.nonzeroReserved(field: "list version"), at: 8) }
    version = unsafe bytes.uncheckedUInt64LE(at: 0)
  }

  /// The section's bytes.
  @usableFromInline package var encoded: [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt64LE(version)
    bytes.appendUInt64LE(0)
    return bytes
  }
}

/// The signature section `SIGN` (`Spec/FORMAT.md`, section 16): 104 bytes, always the last
/// section of the file.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | algorithm, u32: 1 = Ed25519 |
/// | 4 | 4 | reserved, 0 |
/// | 8 | 32 | the signer's public key |
/// | 40 | 64 | the signature |
@usableFromInline package struct SignatureSection: Sendable, Equatable {
  /// The section's size in bytes.
  @usableFromInline package static let size = 104
  /// The offset of the signature inside the section: what precedes it is signed.
  @usableFromInline package static let signatureOffset = 40
  /// The one algorithm version 1 defines.
  @usableFromInline package static let ed25519: UInt32 = 1
  /// The signer's public key.
  @usableFromInline package var publicKey: PublicKey
  /// The Ed25519 signature, 64 bytes.
  @usableFromInline package var signature: [UInt8]

  /// A section with `publicKey` and `signature`.
  @usableFromInline package init(publicKey: PublicKey, signature: [UInt8]) {
    self.publicKey = publicKey
    self.signature = signature
  }

  /// Parses the section's bytes, which lie at `place` in the file.
  /// - Throws: `FormatError`, placed in the file, for a wrong length, an unknown algorithm or a
  ///   nonzero reserved field.
  package init(parsing bytes: ByteView, at place: FilePlace) throws(FormatError) {
    guard bytes.count == Self.size else {
      throw place.error(.invalidField(field: "length of the signature section", value: UInt64(bytes.count)))
    }
    let algorithm = unsafe bytes.uncheckedUInt32LE(at: 0)
    guard algorithm == Self.ed25519 else {
      throw place.error(.invalidField(field: "signature algorithm", value: UInt64(algorithm)))
    }
    guard unsafe bytes.uncheckedUInt32LE(at: 4) == 0 else { throw place.error(.nonzeroReserved(field: "signature"), at: 4) }
    publicKey = PublicKey(bytes: (8..<40).map { unsafe bytes.uncheckedByte(at: $0) })
    signature = (40..<104).map { unsafe bytes.uncheckedByte(at: $0) }
  }

  /// The section's bytes.
  @usableFromInline package var encoded: [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt32LE(Self.ed25519)
    bytes.appendUInt32LE(0)
    bytes.append(contentsOf: publicKey.bytes)
    bytes.append(contentsOf: signature)
    return bytes
  }
}

/// What a directory signature covers (`Spec/FORMAT.md`, section 16.2).
@usableFromInline package enum SignedDirectoryBytes {
  /// The text the signed digest follows, so that a directory's signature can never pass for a
  /// changeset's or anything else's.
  @usableFromInline package static let domain: [UInt8] = Array("calldir directory signature 1".utf8) + [0]

  /// Hands `update` the bytes a signature covers, in order: the file from its first byte up to the
  /// signature field of the `SIGN` section, with two fields read as zeros because they depend on the
  /// signature: the header CRC (bytes 28 ... 31) and the `SIGN` table entry's checksum.
  /// - Precondition: `header` was parsed from `file` and its last section is `SIGN`.
  @usableFromInline package static func feed(_ file: ByteView, header: FileHeader, _ update: (ByteView) -> Void)
    throws(FormatError)
  {
    guard let last = header.sections.last, last.type == SectionType.signature.code else {
      throw FormatError(unplaced: .missingSection(SectionType.signature.rawValue))
    }
    let tableEnd = FileHeader.size(sectionCount: header.sections.count)
    let end = Int(last.offset) + SignatureSection.signatureOffset
    try feedHeader(try file.slice(offset: 0, length: tableEnd), update)
    update(try file.slice(offset: tableEnd, length: end - tableEnd))
  }

  /// Hands `update` the signed bytes of a header and section table whose last entry is `SIGN`:
  /// `headerAndTable` with the header CRC and that entry's checksum read as zeros. A writer that
  /// streams a signed file feeds this, then every section's bytes, then `SIGN`'s first 40.
  /// - Throws: `FormatError` when `headerAndTable` is not a header and a whole table.
  @usableFromInline package static func feedHeader(_ headerAndTable: ByteView, _ update: (ByteView) -> Void) throws(FormatError) {
    let checksumField = headerAndTable.count - FormatConstants.sectionEntrySize + 24
    guard headerAndTable.count >= FormatConstants.headerSize + FormatConstants.sectionEntrySize else {
      throw FormatError(
        .truncated(needed: FormatConstants.headerSize + FormatConstants.sectionEntrySize, available: headerAndTable.count), at: 0)
    }
    let zeros: [UInt8] = [0, 0, 0, 0]
    update(try headerAndTable.slice(offset: 0, length: 28))
    unsafe zeros.withUnsafeBytes { update(unsafe ByteView($0)) }
    update(try headerAndTable.slice(offset: 32, length: checksumField - 32))
    unsafe zeros.withUnsafeBytes { update(unsafe ByteView($0)) }
    update(try headerAndTable.slice(offset: checksumField + 4, length: headerAndTable.count - checksumField - 4))
  }
}

/// A section as it is carried from one file to another (by a changeset, to the patched file):
/// its type, its flags and its bytes; its place and checksum follow from where it is written.
@usableFromInline package struct RawSection: Sendable, Equatable {
  /// The four-byte type, as stored in the section table.
  @usableFromInline package var type: UInt32
  /// The section's flags.
  @usableFromInline package var flags: UInt32
  /// The section's bytes.
  @usableFromInline package var bytes: [UInt8]

  /// A section of a stored type and flags.
  @usableFromInline package init(type: UInt32, flags: UInt32, bytes: [UInt8]) {
    self.type = type
    self.flags = flags
    self.bytes = bytes
  }

  /// A section of a known type, flagged as the type requires.
  @usableFromInline package init(type: SectionType, bytes: [UInt8]) {
    self.init(type: type.code, flags: type.isRequired ? SectionFlags.required : 0, bytes: bytes)
  }
}
