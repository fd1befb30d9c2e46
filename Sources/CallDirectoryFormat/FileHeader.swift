/// The fixed header and the section table at the start of every file (`Spec/FORMAT.md`,
/// "File header" and "Section table").
@usableFromInline package struct FileHeader: Sendable, Equatable {
  /// The major format version (1 or 2).
  @usableFromInline package var major: UInt16
  /// The minor format version.
  @usableFromInline package var minor: UInt16
  /// The whole file's length in bytes.
  @usableFromInline package var fileLength: UInt64
  /// The section table, in file order.
  @usableFromInline package var sections: [SectionEntry]

  /// A header with the given fields. The minor version has no default: it follows the file's
  /// sections (`FormatVersion.minor(paged:)`).
  @usableFromInline package init(major: UInt16 = FormatVersion.major, minor: UInt16, fileLength: UInt64, sections: [SectionEntry])
  {
    self.major = major
    self.minor = minor
    self.fileLength = fileLength
    self.sections = sections
  }

  /// The bytes the header and a table of `sectionCount` entries take.
  @usableFromInline package static func size(sectionCount: Int) -> Int {
    FormatConstants.headerSize + sectionCount * FormatConstants.sectionEntrySize
  }

  /// The entry for `type`, if the table has one.
  @usableFromInline package func section(_ type: SectionType) -> SectionEntry? {
    sections.first { $0.type == type.code }
  }
}

/// One entry of the section table: where a section lies and its checksum.
@usableFromInline package struct SectionEntry: Sendable, Equatable {
  /// The four ASCII bytes of the section's type, read as a little-endian `UInt32`.
  @usableFromInline package var type: UInt32
  /// `SectionFlags`: bit 0 marks a section a reader must understand.
  @usableFromInline package var flags: UInt32
  /// The offset of the section's first byte from the start of the file.
  @usableFromInline package var offset: UInt64
  /// The section's length in bytes.
  @usableFromInline package var length: UInt64
  /// The CRC-32 of the section's bytes.
  @usableFromInline package var checksum: UInt32

  /// An entry with the given fields.
  @usableFromInline package init(type: UInt32, flags: UInt32, offset: UInt64, length: UInt64, checksum: UInt32) {
    self.type = type
    self.flags = flags
    self.offset = offset
    self.length = length
    self.checksum = checksum
  }

  /// The type as text, for messages.
  @usableFromInline package var typeName: String { SectionType.name(of: type) }
}
