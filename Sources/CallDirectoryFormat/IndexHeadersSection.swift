/// The index headers section `HDRS` (`Spec/FORMAT.md`, section 5.2): copies of the headers of
/// `BIDX` (16 bytes), `IIDX` (16 bytes) and `LIDX` (8 bytes), 40 bytes in all.
///
/// A cold open reads every index's header. Where the indexes are long, only one of them can start
/// in the file's first page; the copies put all three there, next to the table.
@usableFromInline package struct IndexHeadersSection: Sendable {
  /// The section's size in bytes.
  @usableFromInline package static let size = 2 * FormatConstants.entryIndexHeaderSize + FormatConstants.labelIndexHeaderSize
  /// The copy of the `BIDX` header.
  @usableFromInline package let blocking: FileRange
  /// The copy of the `IIDX` header.
  @usableFromInline package let identification: FileRange
  /// The copy of the `LIDX` header.
  @usableFromInline package let labels: FileRange
  /// Where the section lies in the file.
  package let place: FilePlace

  /// The copies in `bytes`, which lie at `place` in the file (their fields are checked where the
  /// indexes are parsed).
  /// - Throws: `FormatError`, placed in the file, when the section is not 40 bytes long.
  package init(parsing bytes: ByteView, at place: FilePlace) throws(FormatError) {
    guard bytes.count == Self.size else {
      throw place.error(.invalidField(field: "length of the index headers section", value: UInt64(bytes.count)))
    }
    self.place = place
    blocking = FileRange(offset: place.offset, count: FormatConstants.entryIndexHeaderSize)
    identification = FileRange(
      offset: place.offset &+ FormatConstants.entryIndexHeaderSize, count: FormatConstants.entryIndexHeaderSize)
    labels = FileRange(
      offset: place.offset &+ 2 * FormatConstants.entryIndexHeaderSize, count: FormatConstants.labelIndexHeaderSize)
  }

  /// The copy of `index`'s header (`BIDX`, `IIDX` or `LIDX`) and its place in the file, for the
  /// index's parser to read its header fields from and place their errors at.
  package func header(of index: SectionType) -> (range: FileRange, place: FilePlace) {
    let range =
      switch index {
      case .blockingIndex: blocking
      case .identificationIndex: identification
      default: labels
      }
    return (range, place.advanced(by: Self.offset(of: index)))
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
