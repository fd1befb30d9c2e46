import CallDirectoryFormat

/// The layout constants of the changeset format (`Spec/CHANGESET.md`): the one place they are written.
enum ChangesetLayout {
  /// `CDCHANGE`, the first eight bytes of every changeset.
  static let magic: [UInt8] = Array("CDCHANGE".utf8)
  /// The major versions this code reads: 1; 2, which adds carried sections; 3, which adds the
  /// checked signature trailer. Writers write the lowest that holds what the changeset has, so
  /// that older readers still read an unsigned changeset.
  static let majors: ClosedRange<UInt16> = 1...3
  /// Header flag (version 3): a signature trailer (`trailerSize` bytes) follows the footer.
  static let signedFlag: UInt16 = 1
  /// Header flag (versions 2 and 3): NEW's optional sections follow the header, for patch to carry over.
  static let carriesSectionsFlag: UInt16 = 2
  /// The signature trailer: a directory's `SIGN` section, then the CRC-32 of its bytes, which
  /// covers the key and signature for a reader that checks no signature.
  static let trailerSize = SignatureSection.size + 4
  /// The most sections a changeset may carry, and the most bytes each may hold.
  static let maximumCarriedSections = 8
  static let maximumCarriedSectionBytes = 65_536
  /// The minor version this code writes; a reader accepts any minor version of its major.
  static let minor: UInt16 = 0
  /// The fixed header at offset 0, its CRC-32 included.
  static let headerSize = 100
  /// The fixed footer at the end of the file, its CRC-32 included.
  static let footerSize = 52
  /// The bytes of one footer record: runs (u64) and blocks (u32) of one list.
  static let footerRecordSize = 12
  /// The length prefix in front of every block.
  static let blockPrefixSize = 4
  /// The smallest possible framed block, prefix included: prefix, block header, trailer.
  static let minimumFramedBlock = blockPrefixSize + 4 + 4
  /// The most runs one block may hold.
  static let maximumRunsPerBlock = 4096
  /// The payload size at which a writer closes a block.
  static let targetPayload = 65_536
  /// The largest payload a block may declare: the target plus one run with the longest label.
  static let maximumPayload = 131_072
  /// Deflate a block's payload when that saves at least this share of it, as `1 / n`.
  static let deflateDivisor = 16
}

/// The four lists of a changeset, in file order; the raw value is the list id in each block header.
enum ChangeList: UInt8, CaseIterable {
  case blockingRemovals = 0
  case identificationRemovals = 1
  case blockingAdditions = 2
  case identificationAdditions = 3

  init(_ kind: EntryKind, addition isAddition: Bool) {
    switch (kind, isAddition) {
    case (.blocking, false): self = .blockingRemovals
    case (.identification, false): self = .identificationRemovals
    case (.blocking, true): self = .blockingAdditions
    case (.identification, true): self = .identificationAdditions
    }
  }

  /// Whether each run carries a label.
  var labelled: Bool { self == .identificationAdditions }

  /// The list's name, for messages.
  var name: String { part.description }

  /// The list's name as the part of a `FilePlace`.
  var part: StaticString {
    switch self {
    case .blockingRemovals: "blocking removals"
    case .identificationRemovals: "identification removals"
    case .blockingAdditions: "blocking additions"
    case .identificationAdditions: "identification additions"
    }
  }
}
