/// The page layout of version 2.1 (`Spec/FORMAT.md`, section 6.2): a paged file keeps what a
/// cold lookup reads from straddling pages. The index headers have copies in the file's first
/// page (`IndexHeadersSection`), each long entry data section starts on a page, after a padding
/// section, and no entry block reaches into a page it could have left alone.
@usableFromInline package enum PageLayout {
  /// The page the layout aligns to, in bytes: the smallest in common use. A block inside one
  /// 4 KiB page is also inside one page of 16 KiB (iOS, Apple silicon), which are multiples of it.
  @usableFromInline package static let pageSize = 4096

  /// The length of a padding section that starts at `offset`: what takes the next section to the
  /// next multiple of `pageSize` (0 when `offset` is one).
  @inlinable
  package static func paddingLength(at offset: UInt64) -> UInt64 {
    let page = UInt64(pageSize)
    return (page &- offset % page) % page
  }

  /// Whether a data section of `length` bytes is paged: longer than one page, so that its blocks
  /// could lie across page boundaries.
  @inlinable
  package static func isPaged(dataLength length: Int) -> Bool { length > pageSize }

  /// Whether a block at `start` in its data section would leave the page it starts in by growing
  /// to `grown` bytes. A block whose first entry already crosses into the next page is then ended
  /// after that entry: a lookup reads two pages only for that one number.
  /// - Precondition: `0 < grown`, and `start + grown` does not overflow.
  @inlinable
  package static func leavesPage(start: Int, grown: Int) -> Bool {
    (start &+ grown &- 1) / pageSize != start / pageSize
  }
}

/// The index headers section `HDRS` (`Spec/FORMAT.md`, section 5.2): copies of the headers of
/// `BIDX` (16 bytes), `IIDX` (16 bytes) and `LIDX` (8 bytes), 40 bytes in all.
///
/// A cold open reads every index's header. Where the indexes are long, only one of them can start
/// in the file's first page; the copies put all three there, next to the table.
@usableFromInline package struct IndexHeadersSection: Sendable {
  /// The section's size in bytes.
  @usableFromInline package static let size = 2 * Layout.entryIndexHeaderSize + Layout.labelIndexHeaderSize
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
    blocking = try bytes.slice(offset: 0, length: Layout.entryIndexHeaderSize)
    identification = try bytes.slice(offset: Layout.entryIndexHeaderSize, length: Layout.entryIndexHeaderSize)
    labels = try bytes.slice(offset: 2 * Layout.entryIndexHeaderSize, length: Layout.labelIndexHeaderSize)
  }

  /// The offset of the copy of `index`'s header in the section.
  @usableFromInline package static func offset(of index: SectionType) -> Int {
    switch index {
    case .blockingIndex: 0
    case .identificationIndex: Layout.entryIndexHeaderSize
    default: 2 * Layout.entryIndexHeaderSize
    }
  }

  /// The section for the index sections `blocking`, `identification` and `labels`: their headers.
  /// - Precondition: each is at least as long as its header.
  @usableFromInline package static func encode(blocking: [UInt8], identification: [UInt8], labels: [UInt8]) -> [UInt8] {
    Array(blocking.prefix(Layout.entryIndexHeaderSize)) + identification.prefix(Layout.entryIndexHeaderSize)
      + labels.prefix(Layout.labelIndexHeaderSize)
  }
}
