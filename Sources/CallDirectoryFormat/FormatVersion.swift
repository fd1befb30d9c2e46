/// The format version this package reads and writes (`Spec/FORMAT.md`, "Versioning").
///
/// Writers write version 2.0, or 2.1 for a paged file (one with the index headers' copies and
/// padding, section 6.2 of the spec). Readers read every major version in `readable`, whatever
/// its minor version: minor versions only add sections, which a reader that does not know them
/// skips or refuses as their flags say.
@usableFromInline package enum FormatVersion {
  /// The major version writers write: 2, whose entry blocks hold a varying number of entries
  /// (each index record carries its block's count), so that a block can end at a wide gap.
  @usableFromInline package static let major: UInt16 = 2
  /// The highest minor version writers write: 2.1 added the index headers' copies and padding
  /// (version 2.0 has every section of version 1.2). A writer writes the lowest minor version
  /// whose sections the file has.
  @usableFromInline package static let minor: UInt16 = 1

  /// The minor version of a file written with or without the page layout: 2.1 or 2.0.
  @usableFromInline package static func minor(paged: Bool) -> UInt16 { paged ? 1 : 0 }
  /// The major versions a reader reads: 1 (blocks of exactly `B` entries, all but the last) and 2.
  @usableFromInline package static let readable: ClosedRange<UInt16> = 1...2
  /// The highest minor version of major version 1: 1.2 added the list version and signature
  /// sections, 1.1 the range sections.
  @usableFromInline package static let lastMinorOfVersion1: UInt16 = 2
}

/// The fixed byte layout of the file (`Spec/FORMAT.md`, "File layout"). All integers are
/// little-endian; nothing is aligned.
@usableFromInline package enum Layout {
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

/// How a block's payload is stored (`Spec/FORMAT.md`, "Blocks").
@usableFromInline package enum BlockCodec: UInt8, Sendable {
  /// The payload bytes follow the header as they are.
  case raw = 0
  /// A `UInt32` payload length, then the payload as a raw deflate stream (RFC 1951).
  case deflate = 1
}

/// The section types this package knows. The six data and index sections are in every file; the
/// others only where the file has what they hold (`Spec/FORMAT.md`, section 3).
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

  /// Whether the section is flagged required: every type but those a reader may ignore: the list
  /// version and the signature, which a reader that checks neither can skip, and the sections
  /// that only place or find things faster (the top indexes, the index headers' copies, padding).
  @usableFromInline package var isRequired: Bool { !isOptional }

  private var isOptional: Bool { self == .listVersion || self == .signature || isDerived }

  /// Whether the writer derives the section from the others (the top indexes, the index headers'
  /// copies, padding): a changeset carries NEW's other optional sections, not these, which patch
  /// makes again.
  @usableFromInline package var isDerived: Bool {
    switch self {
    case .blockingTop, .identificationTop, .indexHeaders, .blockingPadding, .identificationPadding: true
    default: false
    }
  }

  /// Whether the section is padding, zero bytes before a data section (version 2.1).
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

/// Section flags (`Spec/FORMAT.md`, "Section table").
@usableFromInline package enum SectionFlags {
  /// A reader that does not know the section's type must refuse the file.
  @usableFromInline package static let required: UInt32 = 1
  /// Every flag version 1 defines; other bits are reserved and must be zero.
  @usableFromInline package static let known: UInt32 = required
}
