import CallDirectoryCrypto
import CallDirectoryFormat

/// Signs directory files (`Spec/FORMAT.md`, section 16).
///
/// Signing appends a `SIGN` section, or replaces the one a file has: the other sections keep their
/// bytes, the section table gains one entry, so every offset moves by its 32 bytes, and a version
/// 1 file becomes version 1.2 (version 2 has the section from 2.0). Padding (`BPAD`, `IPAD`,
/// version 2.1) gets the length that keeps the section after it on a page. Signing the same file
/// again gives the same bytes, the signature aside.
///
///     let signed = try DirectorySigner.sign(directoryBytes, key: signingKey)
///     let reader = try CallDirectoryReader(bytes: signed)
///     _ = try reader.check(TrustPolicy(trustedKeys: [signingKey.publicKey]))
///     let unsigned = try DirectorySigner.stripSignature(signed)
///     print(unsigned == directoryBytes)  // true
public enum DirectorySigner {
  /// `file` signed by `key`.
  /// - Throws: `FormatError` when `file` is not a well-formed directory (its header, table and
  ///   indexes are checked; verify a file before signing it to check every block).
  /// - Complexity: O(file size): one copy and one SHA-256 pass.
  public static func sign(_ file: [UInt8], key: SigningKey) throws(FormatError) -> [UInt8] {
    var signed: [UInt8] = []
    try viewing(file) { (view) throws(FormatError) in try sign(view, key: key) { signed += $0 } }
    return signed
  }

  /// The bytes of `file` signed by `key`, handed to `sink` in pieces, header first: for files
  /// mapped rather than read, which then never have a copy in memory.
  ///
  /// Reads the file twice, once to hash it and once to copy it.
  /// - Throws: `FormatError` as `sign(_:key:)` does; `sink` must not throw (collect its failure
  ///   and stop writing, as the pieces are handed out only after the file was checked).
  /// - Complexity: O(file size); memory: a 1 MiB piece.
  package static func sign(_ file: ByteView, key: SigningKey, into sink: ([UInt8]) -> Void) throws(FormatError) {
    let header = try DirectoryLayout(parsing: file).header
    // The content: every section but a signature already there, which this one replaces.
    let hadSignature = header.sections.last?.type == SectionType.signature.code
    let content = hadSignature ? Array(header.sections.dropLast()) : header.sections
    guard content.count < FormatConstants.maximumSectionCount else {
      throw FormatError(.invalidField(field: "section count (no room for a signature)", value: UInt64(content.count)), at: 12)
    }
    var sections = Self.relaidOut(content, tableEntries: content.count + 1)
    let signatureOffset = sections.last.map { $0.offset + $0.length } ?? UInt64(FileHeader.size(sectionCount: 1))
    sections.append(
      SectionEntry(
        type: SectionType.signature.code, flags: 0, offset: signatureOffset, length: UInt64(SignatureSection.size),
        checksum: 0))
    let fileLength = signatureOffset + UInt64(SignatureSection.size)
    // Version 1 files first had the signature section in 1.2.
    let minor = header.major == 1 ? FormatVersion.lastMinorOfVersion1 : header.minor
    var digest = try SignatureDigest(
      header: FileHeader(major: header.major, minor: minor, fileLength: fileLength, sections: sections).encoded())
    try Self.forEachPiece(of: file, content, relaidOut: sections) { digest.update($0) }
    let section = digest.signatureSection(key: key)
    sections[sections.count - 1].checksum = CRC32.checksum(section)
    sink(FileHeader(major: header.major, minor: minor, fileLength: fileLength, sections: sections).encoded())
    try Self.forEachPiece(of: file, content, relaidOut: sections) { sink($0.bytes) }
    sink(section)
  }

  /// `content`, sections of a file, laid out again after a table of `tableEntries` entries: back
  /// to back in the same order with the same bytes, but padding (`BPAD`, `IPAD`), which gets the
  /// length that starts the next section on a page again.
  static func relaidOut(_ content: [SectionEntry], tableEntries: Int) -> [SectionEntry] {
    var offset = UInt64(FileHeader.size(sectionCount: tableEntries))
    return content.map { entry in
      var moved = entry
      moved.offset = offset
      if isPadding(entry) {
        moved.length = PageAlignment.paddingLength(at: offset)
        moved.checksum = CRC32.checksum([UInt8](repeating: 0, count: Int(moved.length)))
      }
      offset += moved.length
      return moved
    }
  }

  /// Whether `entry` is padding (`BPAD`, `IPAD`), whose bytes the signer makes instead of copying.
  static func isPadding(_ entry: SectionEntry) -> Bool {
    entry.type == SectionType.blockingPadding.code || entry.type == SectionType.identificationPadding.code
  }

  /// Hands `body` the bytes of the sections `relaid`, laid out from `content` of `file` by
  /// `relaidOut`, in order and in pieces of at most 1 MiB: each section's bytes from `file`, or
  /// zeros for padding.
  static func forEachPiece(
    of file: ByteView, _ content: [SectionEntry], relaidOut relaid: some Collection<SectionEntry>, _ body: (ByteView) -> Void
  ) throws(FormatError) {
    for (old, new) in zip(content, relaid) {
      if isPadding(old) {
        try viewing([UInt8](repeating: 0, count: Int(new.length))) { body($0) }
        continue
      }
      // The header parser proved every section lies inside the file.
      var done = 0
      while done < Int(old.length) {
        let length = min(1 << 20, Int(old.length) - done)
        body(try file.slice(offset: Int(old.offset) + done, length: length))
        done += length
      }
    }
  }

  /// `file` without its signature section, if it has one (the rest unchanged but for the offsets
  /// and the header). The version stays as it was.
  /// - Throws: `FormatError` when `file` is not a well-formed directory.
  public static func stripSignature(_ file: [UInt8]) throws(FormatError) -> [UInt8] {
    // The whole layout is checked, but only the header (values) leaves the closure.
    let header = try viewing(file) { (view) throws(FormatError) in try DirectoryLayout(parsing: view).header }
    guard let last = header.sections.last, last.type == SectionType.signature.code else { return file }
    let content = Array(header.sections.dropLast())
    let sections = Self.relaidOut(content, tableEntries: content.count)
    let fileLength = sections.last.map { $0.offset + $0.length } ?? UInt64(FileHeader.size(sectionCount: 0))
    var stripped = FileHeader(major: header.major, minor: header.minor, fileLength: fileLength, sections: sections).encoded()
    try viewing(file) { (view) throws(FormatError) in
      try Self.forEachPiece(of: view, content, relaidOut: sections) { stripped += $0.bytes }
    }
    return stripped
  }
}

/// Calls `body` with a view of `bytes`, which lives until it returns.
func viewing<T>(_ bytes: [UInt8], _ body: (ByteView) throws(FormatError) -> T) throws(FormatError) -> T {
  try unsafe bytes.withUnsafeBytes { raw in Result { () throws(FormatError) in try body(unsafe ByteView(raw)) } }.get()
}

/// The digest of a directory's signed bytes (`Spec/FORMAT.md`, section 16.2), fed in file order
/// as they are written or read, and the `SIGN` section made from it: what the signer of a whole
/// file and the writer that signs as it writes share.
struct SignatureDigest {
  private var hasher = SHA256Hasher()

  /// A digest that has taken `header`, an encoded header and section table whose last entry is
  /// `SIGN` (its CRC fields are read as zeros, since they depend on the signature).
  /// - Throws: `FormatError` when `header` is shorter than a header and one table entry.
  init(header: [UInt8]) throws(FormatError) {
    try viewing(header) { (view) throws(FormatError) in try SignedDirectoryBytes.feedHeader(view) { update($0) } }
  }

  /// Takes the next bytes of the file, in order: every section after the table, then nothing of `SIGN`.
  mutating func update(_ bytes: ByteView) { unsafe bytes.withUnsafeBytes { unsafe hasher.update($0) } }

  /// Takes the next bytes of the file, in order.
  mutating func update(_ bytes: [UInt8]) { hasher.update(bytes) }

  /// The `SIGN` section of `key` over what was fed: its signed part (algorithm, reserved, public
  /// key) completes the digest, then the signature fills it.
  consuming func signatureSection(key: SigningKey) -> [UInt8] {
    hasher.update(Array(Self.placeholder(key: key).prefix(SignatureSection.signatureOffset)))
    return SignatureSection(publicKey: key.publicKey, signature: key.sign(SignedDirectoryBytes.domain + hasher.finish())).encoded
  }

  /// The placeholder `SIGN` section a table entry is made for before the signature is known.
  static func placeholder(key: SigningKey) -> [UInt8] {
    SignatureSection(publicKey: key.publicKey, signature: [UInt8](repeating: 0, count: 64)).encoded
  }
}
