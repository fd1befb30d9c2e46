/// The format version this package reads and writes (`Spec/FORMAT.md`, "Versioning").
///
/// Writers write the lowest version 2 minor version whose sections the file has (2.0 ... 2.6).
/// Readers read every major version in `readable`, whatever
/// its minor version: minor versions only add sections, which a reader that does not know them
/// skips or refuses as their flags say.
@usableFromInline package enum FormatVersion {
  /// The major version writers write: 2, whose entry blocks hold a varying number of entries
  /// (each index record carries its block's count), so that a block can end at a wide gap.
  @usableFromInline package static let major: UInt16 = 2
  /// The highest minor version writers write: 2.1 added the index headers' copies and padding
  /// (version 2.0 has every section of version 1.2), 2.2 the range blocks, 2.3 the prefix-coded
  /// label blocks, 2.4 the top indexes' summaries, 2.5 the index group checks, 2.6 the checked
  /// tops. A writer writes the lowest minor version whose sections the file has.
  @usableFromInline package static let minor: UInt16 = 6

  /// The minor version of a file written with or without checked tops, group checks, top
  /// summaries, prefix-coded labels, range blocks and the page layout: 2.6, 2.5, 2.4, 2.3, 2.2,
  /// 2.1 or 2.0.
  @usableFromInline package static func minor(
    paged: Bool, rangeBlocks: Bool = false, prefixedLabels: Bool = false, topSummaries: Bool = false,
    groupChecks: Bool = false, checkedTops: Bool = false
  ) -> UInt16 {
    checkedTops ? 6 : groupChecks ? 5 : topSummaries ? 4 : prefixedLabels ? 3 : rangeBlocks ? 2 : paged ? 1 : 0
  }
  /// The major versions a reader reads: 1 (blocks of exactly `B` entries, all but the last) and 2.
  @usableFromInline package static let readable: ClosedRange<UInt16> = 1...2
  /// The highest minor version of major version 1: 1.2 added the list version and signature
  /// sections, 1.1 the range sections.
  @usableFromInline package static let lastMinorOfVersion1: UInt16 = 2
}
