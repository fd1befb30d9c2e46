extension FileHeader {
  /// Parses and checks the header and section table at the start of `file`.
  ///
  /// Checks, in this order: the magic, the major version, the section count, that the table fits,
  /// the reserved field, the header checksum, the declared file length against `file.count`, each
  /// entry's reserved bits, and that the sections tile the rest of the file in table order with no
  /// type twice. Section contents are not read: the cost is O(section count), not O(file).
  ///
  /// - Throws: `FormatError` naming the first failed check and its byte offset.
  @usableFromInline package init(parsing file: ByteView) throws(FormatError) {
    guard file.count >= FormatConstants.headerSize else {
      throw FormatError(.truncated(needed: FormatConstants.headerSize, available: file.count), at: 0)
    }
    for (index, byte) in FormatConstants.magic.enumerated() where unsafe file.uncheckedByte(at: index) != byte {
      throw FormatError(.badMagic, at: 0)
    }
    let major = unsafe file.uncheckedUInt16LE(at: 8)
    let minor = unsafe file.uncheckedUInt16LE(at: 10)
    guard FormatVersion.readable.contains(major) else {
      throw FormatError(.unsupportedVersion(major: major, minor: minor), at: 8)
    }
    let rawCount = unsafe file.uncheckedUInt32LE(at: 12)
    guard rawCount >= 1 && rawCount <= UInt32(FormatConstants.maximumSectionCount) else {
      throw FormatError(.badSectionCount(rawCount), at: 12)
    }
    let sectionCount = Int(rawCount)
    let tableEnd = FileHeader.size(sectionCount: sectionCount)
    guard tableEnd <= file.count else {
      throw FormatError(.truncated(needed: tableEnd, available: file.count), at: FormatConstants.headerSize)
    }
    let fileLength = unsafe file.uncheckedUInt64LE(at: 16)
    guard unsafe file.uncheckedUInt32LE(at: 24) == 0 else { throw FormatError(.nonzeroReserved(field: "header flags"), at: 24) }
    let stored = unsafe file.uncheckedUInt32LE(at: 28)
    let computed = FileHeader.checksum(of: file, sectionCount: sectionCount)
    guard stored == computed else {
      throw FormatError(.headerChecksumMismatch(stored: stored, computed: computed), at: 28)
    }
    guard fileLength == UInt64(file.count) else {
      throw FormatError(.fileLengthMismatch(declared: fileLength, actual: file.count), at: 16)
    }

    var sections: [SectionEntry] = []
    sections.reserveCapacity(sectionCount)  // bounded by maximumSectionCount
    var expectedOffset = UInt64(tableEnd)
    for index in 0..<sectionCount {
      let at = FormatConstants.headerSize + index * FormatConstants.sectionEntrySize
      let entry = SectionEntry(
        type: unsafe file.uncheckedUInt32LE(at: at), flags: unsafe file.uncheckedUInt32LE(at: at + 4),
        offset: unsafe file.uncheckedUInt64LE(at: at + 8), length: unsafe file.uncheckedUInt64LE(at: at + 16),
        checksum: unsafe file.uncheckedUInt32LE(at: at + 24))
      guard entry.flags & ~SectionFlags.known == 0 else {
        throw FormatError(.nonzeroReserved(field: "section flags"), at: at + 4, section: entry.typeName)
      }
      guard unsafe file.uncheckedUInt32LE(at: at + 28) == 0 else {
        throw FormatError(.nonzeroReserved(field: "section entry"), at: at + 28, section: entry.typeName)
      }
      guard entry.offset == expectedOffset else {
        throw FormatError(
          .sectionLayout("section \(index) starts at \(entry.offset), expected \(expectedOffset)"), at: at + 8,
          section: entry.typeName)
      }
      // expectedOffset <= fileLength here, so the subtraction cannot wrap.
      guard entry.length <= fileLength - expectedOffset else {
        throw FormatError(
          .sectionLayout("section \(index) runs past the end of the file"), at: at + 16, section: entry.typeName)
      }
      guard !sections.contains(where: { $0.type == entry.type }) else {
        throw FormatError(.duplicateSection(entry.typeName), at: at)
      }
      expectedOffset += entry.length  // bounded by fileLength, just checked
      sections.append(entry)
    }
    guard expectedOffset == fileLength else {
      throw FormatError(
        .sectionLayout("\(fileLength - expectedOffset) bytes after the last section"), at: Int(expectedOffset))
    }
    self.init(major: major, minor: minor, fileLength: fileLength, sections: sections)
  }

  /// The header checksum: CRC-32 of bytes 0 ..< 28, then of the section table.
  /// Precondition: `file` holds the header and a table of `sectionCount` entries.
  static func checksum(of file: ByteView, sectionCount: Int) -> UInt32 {
    var crc = CRC32()
    // Both slices lie inside the prefix the caller proved.
    if let head = try? file.slice(offset: 0, length: 28),
      let table = try? file.slice(offset: FormatConstants.headerSize, length: sectionCount * FormatConstants.sectionEntrySize)
    {
      crc.update(head)
      crc.update(table)
    }
    return crc.value
  }
}
