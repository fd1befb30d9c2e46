import CallDirectoryCrypto
import CallDirectoryFormat

/// Checks a directory's signature (`Spec/FORMAT.md`, section 16.2) as its bytes go by, in pieces
/// of any size: a trusted patch hands it the result it writes, so that a result its consumer's own
/// check would refuse is refused before it is published (`Spec/CHANGESET.md`, section 4.2).
///
/// Holds the header and section table (at most 2,080 bytes) and `SIGN`'s 104 bytes; everything
/// else is hashed as it passes. The bytes are those of the writer's result, whose SHA-256 patch
/// checks too; what is read here is still checked before it is used, and nothing traps.
struct StreamedSignature {
  /// The header and table, until they are whole.
  private var head: [UInt8] = []
  /// Where the table ends: the header's size until the header's section count is read.
  private var tableEnd = FormatConstants.headerSize
  /// `SIGN`'s offset, once the table is read and names `SIGN` last.
  private var signStart: Int?
  /// The table does not end with a `SIGN` of the right length: the file is not signed.
  private var unsigned = false
  /// The file offset of the next byte handed in, once past the table.
  private var position = 0
  private var hasher = SHA256Hasher()
  private var section: [UInt8] = []

  /// Takes the next bytes of the file, in order.
  /// - Complexity: O(piece) for the hashed part.
  mutating func update(_ piece: [UInt8]) {
    var rest = piece[...]
    while signStart == nil, !unsigned, !rest.isEmpty {
      let taken = rest.prefix(tableEnd - head.count)  // head.count < tableEnd while the loop runs
      head += taken
      rest = rest.dropFirst(taken.count)
      guard head.count == tableEnd else { return }
      if tableEnd == FormatConstants.headerSize {
        let count = Int(word(at: 12))
        guard count >= 1, count <= FormatConstants.maximumSectionCount else {
          unsigned = true
          return
        }
        tableEnd = FileHeader.size(sectionCount: count)
        continue
      }
      readTable()
    }
    guard let start = signStart, !rest.isEmpty else { return }
    // Signed: everything up to SIGN's signature field. `position` and `start` are at most the
    // bytes handed in plus a table-checked u64 bounded below, so none of these differences wrap.
    let signedEnd = start + SignatureSection.signatureOffset
    if position < signedEnd {
      let count = min(rest.count, signedEnd - position)
      hasher.update(Array(rest.prefix(count)))
    }
    let from = max(position, start)
    let to = min(position + rest.count, start + SignatureSection.size)
    if from < to { section += rest.dropFirst(from - position).prefix(to - from) }
    position += rest.count
  }

  /// The header and table are whole: hash them with the two fields that depend on the signature
  /// read as zeros, and find `SIGN`, which must be the last section.
  private mutating func readTable() {
    let entry = tableEnd - FormatConstants.sectionEntrySize  // the table has at least one entry
    let offset = UInt64(word(at: entry + 8)) | UInt64(word(at: entry + 12)) << 32
    let length = UInt64(word(at: entry + 16)) | UInt64(word(at: entry + 20)) << 32
    guard word(at: entry) == SectionType.signature.code, length == UInt64(SignatureSection.size),
      offset >= UInt64(tableEnd), offset <= UInt64(Int.max / 2)
    else {
      unsigned = true
      return
    }
    signStart = Int(offset)
    position = tableEnd
    unsafe head.withUnsafeBytes { raw in
      try? SignedDirectoryBytes.feedHeader(unsafe ByteView(raw)) { piece in
        unsafe piece.withUnsafeBytes { unsafe hasher.update($0) }
      }
    }
  }

  /// The little-endian `u32` at `offset` of the header and table.
  /// - Precondition: `offset + 4 <= head.count`.
  private func word(at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(head[offset + $1]) << (8 * $1) }
  }

  /// Checks that the bytes handed in end in a `SIGN` section by one of `trust`'s keys whose
  /// signature verifies.
  /// - Returns: the key that signed.
  /// - Throws: `ChangesetError` of kind `.resultNotAuthentic`: `.unsigned`, `.unknownKey` or `.badSignature`.
  /// - Complexity: one Ed25519 verification.
  consuming func check(_ trust: TrustPolicy) throws(ChangesetError) -> PublicKey {
    let parsed = unsafe section.withUnsafeBytes { unsafe try? SignatureSection(parsing: ByteView($0), at: FilePlace(offset: 0)) }
    guard signStart != nil, let parsed else { throw ChangesetError(.resultNotAuthentic(.unsigned)) }
    guard trust.trustedKeys.contains(parsed.publicKey) else {
      throw ChangesetError(.resultNotAuthentic(.unknownKey(parsed.publicKey)))
    }
    let message = SignedDirectoryBytes.domain + hasher.finish()
    guard Ed25519.isValid(signature: parsed.signature, of: message, publicKey: parsed.publicKey.bytes) else {
      throw ChangesetError(.resultNotAuthentic(.badSignature(parsed.publicKey)))
    }
    return parsed.publicKey
  }
}
