/// Where a parser's bytes lie in the file: the file offset of their first byte, and the part of
/// the file (a directory's section, a changeset's part) they belong to.
///
/// Every parser is given the place of the bytes it parses and throws errors through it, so each
/// error names an offset in the file and its section when it is made, and nothing re-places an
/// error on its way up. The part is a `StaticString`, so a place is a trivial value that hot
/// paths copy for free.
@frozen @usableFromInline
package struct FilePlace: Sendable {
  /// The file offset of the bytes' first byte.
  @usableFromInline package let offset: Int
  /// The section's four-character type or the changeset part's name; empty when the bytes belong
  /// to no section (the header and section table).
  @usableFromInline package let part: StaticString

  /// The place at file offset `offset`, in `part`.
  @inlinable
  package init(offset: Int, part: StaticString = "") {
    self.offset = offset
    self.part = part
  }

  /// The place of section `type`, which starts at file offset `offset`.
  @inlinable
  package init(_ type: SectionType, at offset: Int) {
    self.init(offset: offset, part: type.name)
  }

  /// The place `distance` bytes further into the same part.
  @inlinable
  package func advanced(by distance: Int) -> FilePlace {
    FilePlace(offset: offset &+ distance, part: part)  // both bounded by the file's size
  }

  /// The error of `kind` at byte `relative` of the bytes this place starts.
  @usableFromInline package func error(_ kind: FormatError.Kind, at relative: Int = 0) -> FormatError {
    FormatError(kind, at: offset &+ relative, section: part.utf8CodeUnitCount == 0 ? nil : part.description)
  }
}

extension SectionType {
  /// The four-character type as a static string, for `FilePlace`.
  @usableFromInline package var name: StaticString {
    switch self {
    case .blockingData: "BDAT"
    case .blockingIndex: "BIDX"
    case .identificationData: "IDAT"
    case .identificationIndex: "IIDX"
    case .labelData: "LDAT"
    case .labelPrefixData: "LPFX"
    case .labelIndex: "LIDX"
    case .blockingRanges: "BRNG"
    case .identificationRanges: "IRNG"
    case .listVersion: "VERS"
    case .signature: "SIGN"
    case .blockingTop: "BTOP"
    case .identificationTop: "ITOP"
    case .indexHeaders: "HDRS"
    case .blockingPadding: "BPAD"
    case .identificationPadding: "IPAD"
    case .blockingRangeIndex: "BRIX"
    case .blockingRangeData: "BRDT"
    case .identificationRangeIndex: "IRIX"
    case .identificationRangeData: "IRDT"
    case .blockingTopSummary: "BSUM"
    case .identificationTopSummary: "ISUM"
    case .blockingGroupChecks: "BGCK"
    case .identificationGroupChecks: "IGCK"
    case .blockingSummaryChecks: "BSCK"
    case .identificationSummaryChecks: "ISCK"
    case .blockingCheckedTop: "BTCK"
    case .identificationCheckedTop: "ITCK"
    }
  }
}
