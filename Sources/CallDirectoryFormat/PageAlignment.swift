/// The page layout of version 2.1 (`Spec/FORMAT.md`, section 6.2): a paged file keeps what a
/// cold lookup reads from straddling pages. The index headers have copies in the file's first
/// page (`IndexHeadersSection`), each long entry data section starts on a page, after a padding
/// section, and no entry block reaches into a page it could have left alone.
@usableFromInline package enum PageAlignment {
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
