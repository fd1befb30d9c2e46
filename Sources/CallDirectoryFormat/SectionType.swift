/// The section types this package knows. The six data and index sections are in every file; the
/// others only where the file has what they hold (`Spec/FORMAT.md`, section 3).
///
///     print(SectionType.blockingData.rawValue)              // BDAT
///     print(SectionType(rawValue: "SIGN") == .signature)   // true
public enum SectionType: String, Sendable, CaseIterable {
  /// Blocking numbers, in entry blocks.
  case blockingData = "BDAT"
  /// The sparse index over the blocking blocks.
  case blockingIndex = "BIDX"
  /// Identification numbers and their label ids, in entry blocks.
  case identificationData = "IDAT"
  /// The sparse index over the identification blocks.
  case identificationIndex = "IIDX"
  /// The label strings, in label blocks.
  case labelData = "LDAT"
  /// The label strings, in prefix-coded label blocks (version 2.3; required; in place of `LDAT`,
  /// `Spec/FORMAT.md` 9.1).
  case labelPrefixData = "LPFX"
  /// The index over the label blocks.
  case labelIndex = "LIDX"
  /// Blocking ranges (version 1.1; present only when there are some).
  case blockingRanges = "BRNG"
  /// Labelled identification ranges (version 1.1; present only when there are some).
  case identificationRanges = "IRNG"
  /// The provider's list version, for refusing rollbacks (version 1.2; optional).
  case listVersion = "VERS"
  /// An Ed25519 signature over the rest of the file (version 1.2; optional; always last).
  case signature = "SIGN"
  /// The top level over the blocking index (version 2.0; optional; derived from the index).
  case blockingTop = "BTOP"
  /// The top level over the identification index (version 2.0; optional; derived from the index).
  case identificationTop = "ITOP"
  /// Copies of the three index headers, in the first page (version 2.1; optional; derived).
  case indexHeaders = "HDRS"
  /// Zero bytes that start the blocking data on a page (version 2.1; optional; derived).
  case blockingPadding = "BPAD"
  /// Zero bytes that start the identification data on a page (version 2.1; optional; derived).
  case identificationPadding = "IPAD"
  /// The index over the blocking range blocks (version 2.2; required, `Spec/FORMAT.md` 10.1).
  case blockingRangeIndex = "BRIX"
  /// The blocking range blocks (version 2.2; required).
  case blockingRangeData = "BRDT"
  /// The index over the identification range blocks (version 2.2; required).
  case identificationRangeIndex = "IRIX"
  /// The identification range blocks (version 2.2; required).
  case identificationRangeData = "IRDT"
  /// The summary of the blocking top index (version 2.4; optional, `Spec/FORMAT.md` 5.3).
  case blockingTopSummary = "BSUM"
  /// The summary of the identification top index (version 2.4; optional).
  case identificationTopSummary = "ISUM"
  /// A CRC-32 for each group of blocking index records (version 2.5; optional, `Spec/FORMAT.md`
  /// 5.4), so that a lookup checks the group it reads, not the whole index.
  case blockingGroupChecks = "BGCK"
  /// A CRC-32 for each group of identification index records (version 2.5; optional).
  case identificationGroupChecks = "IGCK"
  /// A CRC-32 for each group of the blocking top's samples and their group checks (version 2.5;
  /// optional, `Spec/FORMAT.md` 5.4), so that a lookup checks the group of the top it reads.
  case blockingSummaryChecks = "BSCK"
  /// A CRC-32 for each group of the identification top's samples and their group checks.
  case identificationSummaryChecks = "ISCK"
  /// The blocking top's samples with their group checks, a summary group at a time (version 2.6;
  /// optional, `Spec/FORMAT.md` 5.5), so that a cold lookup reads the one group it searches and
  /// its check in one page.
  case blockingCheckedTop = "BTCK"
  /// The identification top's samples with their group checks (version 2.6; optional).
  case identificationCheckedTop = "ITCK"

  /// Whether the section is flagged required: every type but those a reader may ignore: the list
  /// version and the signature, which a reader that checks neither can skip, and the sections
  /// that only place, find or check things faster (the top indexes and their summaries, the
  /// group checks, the index headers' copies, padding).
  @usableFromInline package var isRequired: Bool { !isOptional }

  private var isOptional: Bool { self == .listVersion || self == .signature || isDerived }

  /// Whether the writer derives the section from the others (the top indexes and their
  /// summaries, the group checks, the checked tops, the index headers' copies, padding): a
  /// changeset carries NEW's other optional sections, not these, which patch makes again.
  @usableFromInline package var isDerived: Bool {
    switch self {
    case .blockingTop, .identificationTop, .blockingTopSummary, .identificationTopSummary, .indexHeaders, .blockingPadding,
      .identificationPadding, .blockingGroupChecks, .identificationGroupChecks, .blockingSummaryChecks,
      .identificationSummaryChecks, .blockingCheckedTop, .identificationCheckedTop:
      true
    default: false
    }
  }

  /// Whether the section is padding, zero bytes before a data section (version 2.1).
  /// Whether the section is a range index or range data section (version 2.2).
  @usableFromInline package var isRangeBlocks: Bool {
    switch self {
    case .blockingRangeIndex, .blockingRangeData, .identificationRangeIndex, .identificationRangeData: true
    default: false
    }
  }

  @usableFromInline package var isPadding: Bool { self == .blockingPadding || self == .identificationPadding }

  /// The type as the four bytes stored in the section table, read as a little-endian `UInt32`
  /// (constants, so comparing types costs nothing; a test checks them against `rawValue`).
  @usableFromInline package var code: UInt32 {
    switch self {
    case .blockingData: 0x5441_4442  // "BDAT"
    case .blockingIndex: 0x5844_4942  // "BIDX"
    case .identificationData: 0x5441_4449  // "IDAT"
    case .identificationIndex: 0x5844_4949  // "IIDX"
    case .labelData: 0x5441_444C  // "LDAT"
    case .labelPrefixData: 0x5846_504C  // "LPFX"
    case .labelIndex: 0x5844_494C  // "LIDX"
    case .blockingRanges: 0x474E_5242  // "BRNG"
    case .identificationRanges: 0x474E_5249  // "IRNG"
    case .listVersion: 0x5352_4556  // "VERS"
    case .signature: 0x4E47_4953  // "SIGN"
    case .blockingTop: 0x504F_5442  // "BTOP"
    case .identificationTop: 0x504F_5449  // "ITOP"
    case .indexHeaders: 0x5352_4448  // "HDRS"
    case .blockingPadding: 0x4441_5042  // "BPAD"
    case .identificationPadding: 0x4441_5049  // "IPAD"
    case .blockingRangeIndex: 0x5849_5242  // "BRIX"
    case .blockingRangeData: 0x5444_5242  // "BRDT"
    case .identificationRangeIndex: 0x5849_5249  // "IRIX"
    case .identificationRangeData: 0x5444_5249  // "IRDT"
    case .blockingTopSummary: 0x4D55_5342  // "BSUM"
    case .identificationTopSummary: 0x4D55_5349  // "ISUM"
    case .blockingGroupChecks: 0x4B43_4742  // "BGCK"
    case .identificationGroupChecks: 0x4B43_4749  // "IGCK"
    case .blockingSummaryChecks: 0x4B43_5342  // "BSCK"
    case .identificationSummaryChecks: 0x4B43_5349  // "ISCK"
    case .blockingCheckedTop: 0x4B43_5442  // "BTCK"
    case .identificationCheckedTop: 0x4B43_5449  // "ITCK"
    }
  }

  /// Renders a stored four-byte type for messages (non-printable bytes as `\xNN`).
  @usableFromInline package static func name(of code: UInt32) -> String {
    var name = ""
    for shift in stride(from: 0, to: 32, by: 8) {
      let byte = UInt8(truncatingIfNeeded: code >> UInt32(shift))
      if byte >= 0x20 && byte < 0x7F {
        name.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        let digits = String(byte, radix: 16, uppercase: true)
        name += "\\x" + (digits.count == 1 ? "0" + digits : digits)
      }
    }
    return name
  }
}
