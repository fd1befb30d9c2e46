/// The index headers section `HDRS` (`Spec/FORMAT.md`, section 5.2): copies of the headers of
/// `BIDX` (16 bytes), `IIDX` (16 bytes) and `LIDX` (8 bytes), 40 bytes in all.
///
/// A cold open reads every index's header. Where the indexes are long, only one of them can start
/// in the file's first page; the copies put all three there, next to the table.
@usableFromInline package struct IndexHeadersSection: Sendable {
  /// The section's size in bytes.
  @usableFromInline package static let size = 2 * FormatConstants.entryIndexHeaderSize + FormatConstants.labelIndexHeaderSize
  /// The copy of the `BIDX` header.
  @usableFromInline package let blocking: ByteView
  /// The copy of the `IIDX` header.
  @usableFromInline package let identification: ByteView
  /// The copy of the `LIDX` header.
  @usableFromInline package let labels: ByteView

  /// The copies in `bytes` (their fields are checked where the indexes are parsed).
  /// - Throws: `FormatError` when the section is not 40 bytes long.
  @usableFromInline package init(parsing bytes: ByteView) throws(FormatError) {
    guard bytes.count == Self.size else {
      throw FormatError(.invalidField(field: "length of the index headers section", value: UInt64(bytes.count)), at: 0)
    }
    blocking = try bytes.slice(offset: 0, length: FormatConstants.entryIndexHeaderSize)
    identification = try bytes.slice(offset: FormatConstants.entryIndexHeaderSize, length: FormatConstants.entryIndexHeaderSize)
    labels = try bytes.slice(offset: 2 * FormatConstants.entryIndexHeaderSize, length: FormatConstants.labelIndexHeaderSize)
  }

  /// The offset of the copy of `index`'s header in the section.
  @usableFromInline package static func offset(of index: SectionType) -> Int {
    switch index {
    case .blockingIndex: 0
    case .identificationIndex: FormatConstants.entryIndexHeaderSize
    default: 2 * FormatConstants.entryIndexHeaderSize
    }
  }

  /// The section for the index sections `blocking`, `identification` and `labels`: their headers.
  /// - Precondition: each is at least as long as its header.
  @usableFromInline package static func encode(blocking: [UInt8], identification: [UInt8], labels: [UInt8]) -> [UInt8] {
    Array(blocking.prefix(FormatConstants.entryIndexHeaderSize)) + identification.prefix(FormatConstants.entryIndexHeaderSize)
      + labels.prefix(FormatConstants.labelIndexHeaderSize)
  }
}
