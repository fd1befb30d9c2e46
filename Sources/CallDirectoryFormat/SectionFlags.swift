/// Section flags (`Spec/FORMAT.md`, "Section table").
@usableFromInline package enum SectionFlags {
  /// A reader that does not know the section's type must refuse the file.
  @usableFromInline package static let required: UInt32 = 1
  /// Every flag version 1 defines; other bits are reserved and must be zero.
  @usableFromInline package static let known: UInt32 = required
}
