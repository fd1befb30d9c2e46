/// The fixed byte layout of the file (`Spec/FORMAT.md`, "File layout"). All integers are
/// little-endian; nothing is aligned.
@usableFromInline package enum FormatConstants {
  /// The eight magic bytes `89 43 44 49 52 0D 0A 1A` ("\x89CDIR\r\n\x1A"): a high byte to catch
  /// 7-bit transfers, CR LF to catch newline conversion, and DOS end-of-file to stop `type`.
  @usableFromInline package static let magic: [UInt8] = [0x89, 0x43, 0x44, 0x49, 0x52, 0x0D, 0x0A, 0x1A]
  /// Bytes in the fixed file header.
  @usableFromInline package static let headerSize = 32
  /// Bytes in one section table entry.
  @usableFromInline package static let sectionEntrySize = 32
  /// The most sections a file may have.
  @usableFromInline package static let maximumSectionCount = 64
  /// Bytes at the start of an entry index section, before its block entries.
  @usableFromInline package static let entryIndexHeaderSize = 16
  /// Bytes in one entry index record: the block's first number and its offset (version 2: a
  /// 48-bit offset and the block's entry count minus one in the last two bytes).
  @usableFromInline package static let entryIndexRecordSize = 16
  /// Bytes at the start of a label index section, before its block entries.
  @usableFromInline package static let labelIndexHeaderSize = 8
  /// Bytes in one label index record: the block's first label id, reserved, and its offset.
  @usableFromInline package static let labelIndexRecordSize = 16
  /// Bytes of a block's header (codec and parameters) before its body.
  @usableFromInline package static let blockHeaderSize = 4
  /// Bytes of a block's trailing checksum.
  @usableFromInline package static let blockTrailerSize = 4
  /// The fewest entries a writer may put in a full entry block.
  @usableFromInline package static let minimumEntriesPerBlock = 1
  /// The most entries a writer may put in one entry block.
  @usableFromInline package static let maximumEntriesPerBlock = 4096
  /// The most payload bytes (raw, or after inflating) of an entry block.
  @usableFromInline package static let maximumEntryPayload = 65_536
  /// The most payload bytes (raw, or after inflating) of a label block.
  @usableFromInline package static let maximumLabelPayload = 131_072
  /// The widest low-bits field of the Elias-Fano number codec.
  @usableFromInline package static let maximumLowBits = 62
  /// The widest label id field of an identification block.
  @usableFromInline package static let maximumLabelBits = 32
  /// Bytes at the start of a range section, before its records: the range count.
  @usableFromInline package static let rangeHeaderSize = 8
  /// Bytes in one blocking range record: first and last number.
  @usableFromInline package static let blockingRangeSize = 16
  /// Bytes in one identification range record: first, last, label id, reserved.
  @usableFromInline package static let identificationRangeSize = 24
}
