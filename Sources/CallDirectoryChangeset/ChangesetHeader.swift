import CallDirectoryFormat

/// The fixed header at offset 0 (`Spec/CHANGESET.md`, section 3): what the changeset applies to
/// and what it produces.
struct ChangesetHeader: Equatable {
  var minor: UInt16 = ChangesetLayout.minor
  /// The flags of versions 2 and 3 (`ChangesetLayout.signedFlag`, `.carriesSectionsFlag`); 0 in version 1.
  var flags: UInt16 = 0
  /// The lowest version that can say what the changeset holds: 1 with no flag, 3 when signed,
  /// else 2 (carried sections only).
  var major: UInt16 { Self.major(flags: flags) }

  static func major(flags: UInt16) -> UInt16 {
    flags == 0 ? 1 : flags & ChangesetLayout.signedFlag != 0 ? 3 : 2
  }

  /// The result's entries per block, which patch must encode with to give the same bytes.
  var entriesPerBlock: UInt16
  /// The length in bytes of the base (OLD).
  var baseLength: UInt64
  /// The length in bytes of the result (NEW).
  var resultLength: UInt64
  /// SHA-256 of the base's bytes.
  var base: [UInt8]
  /// SHA-256 of the result's bytes.
  var result: [UInt8]

  init(entriesPerBlock: UInt16, baseLength: UInt64, resultLength: UInt64, base: [UInt8], result: [UInt8]) {
    self.entriesPerBlock = entriesPerBlock
    self.baseLength = baseLength
    self.resultLength = resultLength
    self.base = base
    self.result = result
  }

  /// The header's 100 bytes.
  var encoded: [UInt8] {
    var bytes = ChangesetLayout.magic
    bytes.appendUInt16LE(major)
    bytes.appendUInt16LE(minor)
    bytes.appendUInt16LE(entriesPerBlock)
    bytes.appendUInt16LE(flags)
    bytes.appendUInt64LE(baseLength)
    bytes.appendUInt64LE(resultLength)
    bytes.append(contentsOf: base)
    bytes.append(contentsOf: result)
    bytes.appendUInt32LE(CRC32.checksum(bytes))
    return bytes
  }

  /// Parses and checks the header at the start of `file`.
  /// - Throws: `FormatError` for a short file, bad magic, an unknown major version, a nonzero
  ///   reserved field or a checksum mismatch.
  init(parsing file: ByteView) throws(FormatError) {
    let size = ChangesetLayout.headerSize
    guard file.count >= size else { throw FormatError(.truncated(needed: size, available: file.count), at: 0) }
    // One length check above covers every unchecked read below (all inside the first 100 bytes).
    for index in 0..<8 where unsafe file.uncheckedByte(at: index) != ChangesetLayout.magic[index] {
      throw FormatError(.badMagic, at: 0)
    }
    let stored = unsafe file.uncheckedUInt32LE(at: size &- 4)
    let computed = CRC32.checksum(file.sliceOrEmpty(offset: 0, length: size &- 4))
    let major = unsafe file.uncheckedUInt16LE(at: 8)
    minor = unsafe file.uncheckedUInt16LE(at: 10)
    // The version comes before the checksum so that a later major version is named as such.
    guard ChangesetLayout.majors.contains(major) else {
      throw FormatError(.unsupportedVersion(major: major, minor: minor), at: 8)
    }
    guard stored == computed else {
      throw FormatError(.headerChecksumMismatch(stored: stored, computed: computed), at: size &- 4)
    }
    entriesPerBlock = unsafe file.uncheckedUInt16LE(at: 12)
    guard entriesPerBlock >= FormatConstants.minimumEntriesPerBlock, entriesPerBlock <= FormatConstants.maximumEntriesPerBlock
    else {
      throw FormatError(.invalidField(field: "entries per block", value: UInt64(entriesPerBlock)), at: 12)
    }
    flags = unsafe file.uncheckedUInt16LE(at: 14)
    // Version 2's first signature trailer had no check; its files are refused by name.
    guard major != 2 || flags & ChangesetLayout.signedFlag == 0 else {
      throw FormatError(
        .invalidField(field: "version 2 header flags (a signed changeset is version 3: make it again)", value: UInt64(flags)),
        at: 14)
    }
    // Each set of flags has one spelling, the lowest version that holds it.
    let known = ChangesetLayout.signedFlag | ChangesetLayout.carriesSectionsFlag
    guard flags & ~known == 0, Self.major(flags: flags) == major else {
      if major == 1 || flags & ~known != 0 {
        throw FormatError(.nonzeroReserved(field: major == 1 ? "header reserved" : "header flags"), at: 14)
      }
      // Known flags, under the wrong version: say which version they make.
      throw FormatError(
        .invalidField(
          field: "version \(major) header flags (these flags make a version \(Self.major(flags: flags)) changeset)",
          value: UInt64(flags)),
        at: 14)
    }
    baseLength = unsafe file.uncheckedUInt64LE(at: 16)
    resultLength = unsafe file.uncheckedUInt64LE(at: 24)
    base = (0..<32).map { unsafe file.uncheckedByte(at: 32 &+ $0) }
    result = (0..<32).map { unsafe file.uncheckedByte(at: 64 &+ $0) }
  }
}

/// The fixed footer at the end of the file (`Spec/CHANGESET.md`, section 5): each list's run and
/// block counts. It comes last so that a writer can stream the blocks out before it knows them.
struct ChangesetFooter: Equatable {
  /// Runs and blocks of each list, in `ChangeList` order.
  var lists: [(runs: UInt64, blocks: UInt32)] = Array(repeating: (0, 0), count: 4)

  static func == (a: ChangesetFooter, b: ChangesetFooter) -> Bool {
    a.lists.elementsEqual(b.lists) { $0.runs == $1.runs && $0.blocks == $1.blocks }
  }

  init() {}

  /// The footer's 52 bytes.
  var encoded: [UInt8] {
    var bytes: [UInt8] = []
    for list in lists {
      bytes.appendUInt64LE(list.runs)
      bytes.appendUInt32LE(list.blocks)
    }
    bytes.appendUInt32LE(CRC32.checksum(bytes))
    return bytes
  }

  /// Parses and checks the footer: the last 52 bytes of `file`, or the 52 before a signature
  /// trailer of `trailer` bytes.
  /// - Throws: `FormatError` for a file too short for header and footer, or a checksum mismatch.
  init(parsing file: ByteView, trailer: Int) throws(FormatError) {
    let size = ChangesetLayout.footerSize
    let minimum = ChangesetLayout.headerSize + size + trailer
    guard file.count >= minimum else { throw FormatError(.truncated(needed: minimum, available: file.count), at: 0) }
    let start = file.count &- size &- trailer  // count >= minimum
    let footer = try file.slice(offset: start, length: size)
    let stored = unsafe footer.uncheckedUInt32LE(at: size &- 4)
    let computed = CRC32.checksum(try footer.slice(offset: 0, length: size &- 4))
    guard stored == computed else {
      throw FormatError(.sectionChecksumMismatch(stored: stored, computed: computed), at: start, section: "footer")
    }
    for list in 0..<4 {
      let offset = list &* ChangesetLayout.footerRecordSize  // at most 36
      lists[list] = (unsafe footer.uncheckedUInt64LE(at: offset), unsafe footer.uncheckedUInt32LE(at: offset &+ 8))
    }
  }
}
