import CallDirectoryFormat

/// NEW's optional sections (its list version and signature), which a version 2 changeset carries
/// right after its header so that patch rebuilds NEW byte for byte (`Spec/CHANGESET.md`, section 4.1):
///
///     u32 count (1 ... 8), u32 reserved (0), then per section:
///     u32 type, u32 flags (0: optional), u32 length (at most 65,536), u32 CRC-32 of the bytes, bytes
enum CarriedSections {
  /// The part's bytes.
  static func encode(_ sections: [RawSection]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt32LE(UInt32(sections.count))
    bytes.appendUInt32LE(0)
    for section in sections {
      bytes.appendUInt32LE(section.type)
      bytes.appendUInt32LE(section.flags)
      bytes.appendUInt32LE(UInt32(section.bytes.count))
      bytes.appendUInt32LE(CRC32.checksum(section.bytes))
      bytes.append(contentsOf: section.bytes)
    }
    return bytes
  }

  /// Parses the part at `offset`, which must end at or before `end`.
  /// - Returns: the sections, and the offset just past the part.
  /// - Throws: `FormatError` for a count, flag or length out of bounds, a nonzero reserved field,
  ///   a derived section (which patch derives itself), a section past `end`, or a checksum mismatch.
  static func parse(_ file: ByteView, at offset: Int, end: Int) throws(FormatError) -> (sections: [RawSection], end: Int) {
    func word(_ at: Int) throws(FormatError) -> UInt32 {
      guard at <= end &- 4, let value = file.uint32LE(at: at) else {
        throw FormatError(.truncated(needed: 4, available: max(0, end &- at)), at: at, section: "carried sections")
      }
      return value
    }
    let count = Int(try word(offset))
    guard count >= 1, count <= ChangesetLayout.maximumCarriedSections else {
      throw FormatError(
        .invalidField(field: "carried section count", value: UInt64(count)), at: offset, section: "carried sections")
    }
    guard try word(offset &+ 4) == 0 else {
      throw FormatError(.nonzeroReserved(field: "carried sections"), at: offset &+ 4, section: "carried sections")
    }
    var sections: [RawSection] = []
    var at = offset &+ 8
    for _ in 0..<count {
      let type = try word(at)
      let flags = try word(at &+ 4)
      let length = Int(try word(at &+ 8))
      let stored = try word(at &+ 12)
      // Carried sections follow NEW's contents, which a reader must understand: only optional ones.
      guard flags == 0 else {
        throw FormatError(
          .invalidField(field: "carried section flags", value: UInt64(flags)), at: at &+ 4, section: "carried sections")
      }
      // Patch's writer derives these from the entries: a carried one would be a second copy.
      if let known = SectionType.allCases.first(where: { $0.code == type }), known.isDerived {
        throw FormatError(
          .invalidField(field: "carried section type (\(known.rawValue) is derived, never carried)", value: UInt64(type)),
          at: at, section: "carried sections")
      }
      let body = at &+ 16
      guard length <= ChangesetLayout.maximumCarriedSectionBytes, length <= end &- body else {
        throw FormatError(
          .invalidField(field: "carried section length", value: UInt64(length)), at: at &+ 8, section: "carried sections")
      }
      let bytes = try file.slice(offset: body, length: length, in: FilePlace(offset: body, part: "carried sections"))
      let computed = CRC32.checksum(bytes)
      guard computed == stored else {
        throw FormatError(
          .sectionChecksumMismatch(stored: stored, computed: computed), at: at &+ 12, section: SectionType.name(of: type))
      }
      sections.append(RawSection(type: type, flags: flags, bytes: (0..<length).map { unsafe bytes.uncheckedByte(at: $0) }))
      at = body &+ length
    }
    return (sections, at)
  }
}
