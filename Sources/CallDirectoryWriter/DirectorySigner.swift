import CallDirectoryCrypto
import CallDirectoryFormat

/// Signs directory files (`Spec/FORMAT.md`, section 16).
///
/// Signing appends a `SIGN` section, or replaces the one a file has: the other sections keep their
/// bytes, the section table gains one entry, so every offset moves by its 32 bytes, and a version
/// 1 file becomes version 1.2 (version 2 has the section from 2.0). Signing the same file again
/// gives the same bytes, the signature aside.
public enum DirectorySigner {
  /// `file` signed by `key`.
  /// - Throws: `FormatError` when `file` is not a well-formed directory (its header, table and
  ///   indexes are checked; verify a file before signing it to check every block).
  /// - Complexity: O(file size): one copy and one SHA-256 pass.
  public static func sign(_ file: [UInt8], key: SigningKey) throws(FormatError) -> [UInt8] {
    let unsigned = try stripSignature(file)
    let header = try viewing(unsigned) { (view) throws(FormatError) in try FileHeader(parsing: view) }
    let oldTableEnd = FileHeader.size(sectionCount: header.sections.count)
    let newTableEnd = FileHeader.size(sectionCount: header.sections.count + 1)
    let shift = UInt64(newTableEnd - oldTableEnd)
    var sections = header.sections.map {
      SectionEntry(type: $0.type, flags: $0.flags, offset: $0.offset + shift, length: $0.length, checksum: $0.checksum)
    }
    let signatureOffset = UInt64(unsigned.count) + shift
    sections.append(
      SectionEntry(
        type: SectionType.signature.code, flags: 0, offset: signatureOffset, length: UInt64(SignatureSection.size),
        checksum: 0))
    let fileLength = signatureOffset + UInt64(SignatureSection.size)
    var placeholder = SignatureSection(publicKey: key.publicKey, signature: [UInt8](repeating: 0, count: 64))
    // Version 1 files first had the signature section in 1.2.
    let minor = header.major == 1 ? FormatVersion.lastMinorOfVersion1 : header.minor
    let newHeader = FileHeader(major: header.major, minor: minor, fileLength: fileLength, sections: sections)
    var signed = newHeader.encoded()
    signed.append(contentsOf: unsigned[oldTableEnd...])
    signed.append(contentsOf: placeholder.encoded)
    // The digest reads the header CRC and SIGN's checksum as zeros, so they can be filled in after.
    let digest = try viewing(signed) { (view) throws(FormatError) -> [UInt8] in
      var hasher = SHA256Hasher()
      try SignedDirectoryBytes.feed(view, header: newHeader) { hasher.update($0) }
      return hasher.finish()
    }
    placeholder.signature = key.sign(SignedDirectoryBytes.domain + digest)
    let section = placeholder.encoded
    signed.replaceSubrange(Int(signatureOffset)..<Int(fileLength), with: section)
    sections[sections.count - 1].checksum = CRC32.checksum(section)
    signed.replaceSubrange(
      0..<newTableEnd,
      with: FileHeader(major: header.major, minor: minor, fileLength: fileLength, sections: sections).encoded())
    return signed
  }

  /// `file` without its signature section, if it has one (the rest unchanged but for the offsets
  /// and the header). The version stays as it was.
  /// - Throws: `FormatError` when `file` is not a well-formed directory.
  public static func stripSignature(_ file: [UInt8]) throws(FormatError) -> [UInt8] {
    // The whole layout is checked, but only the header (values) leaves the closure.
    let header = try viewing(file) { (view) throws(FormatError) in try DirectoryLayout(parsing: view).header }
    guard let last = header.sections.last, last.type == SectionType.signature.code else { return file }
    let shift = UInt64(Layout.sectionEntrySize)
    let sections = header.sections.dropLast().map {
      SectionEntry(type: $0.type, flags: $0.flags, offset: $0.offset - shift, length: $0.length, checksum: $0.checksum)
    }
    let contentEnd = Int(last.offset)
    var stripped = FileHeader(major: header.major, minor: header.minor, fileLength: UInt64(contentEnd) - shift, sections: Array(sections)).encoded()
    stripped.append(contentsOf: file[FileHeader.size(sectionCount: header.sections.count)..<contentEnd])
    return stripped
  }
}

/// Calls `body` with a view of `bytes`, which lives until it returns.
private func viewing<T>(_ bytes: [UInt8], _ body: (ByteView) throws(FormatError) -> T) throws(FormatError) -> T {
  try unsafe bytes.withUnsafeBytes { raw in Result { () throws(FormatError) in try body(unsafe ByteView(raw)) } }.get()
}
