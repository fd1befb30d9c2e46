import CallDirectoryFormat

extension VerificationPass {
  /// Checks what the page layout adds (`Spec/FORMAT.md`, sections 5.2 and 6.2): the file says
  /// version 2.1 or later, the copies in `HDRS` equal the index headers a reader using them no
  /// longer reads, and padding is zeros.
  /// - Complexity: O(padding length), at most a page each.
  mutating func checkPageLayout() {
    let file = layout.file
    let header = layout.header
    let types: [SectionType] = [.indexHeaders, .blockingPadding, .identificationPadding]
    if let present = types.first(where: { header.section($0) != nil }) {
      checkVersion(atLeast: 1, for: present.rawValue)
    }
    if let copies = layout.header.section(.indexHeaders) {
      for (type, size) in [
        (SectionType.blockingIndex, FormatConstants.entryIndexHeaderSize),
        (.identificationIndex, FormatConstants.entryIndexHeaderSize),
        (.labelIndex, FormatConstants.labelIndexHeaderSize),
      ] {
        let at = Int(copies.offset) &+ IndexHeadersSection.offset(of: type)
        let index = Int(layout.section(type).offset)
        // The layout parsed both: the copy is inside HDRS, and the index is at least a header long.
        guard let copy = try? file.slice(offset: at, length: size), let original = try? file.slice(offset: index, length: size),
          copy.bytes != original.bytes
        else { continue }
        problems.record(
          FormatError(
            .malformedIndex("the copy of \(type.rawValue)'s header differs from the header at byte \(index)"), at: at,
            section: SectionType.indexHeaders.rawValue))
      }
    }
    for type in [SectionType.blockingPadding, .identificationPadding] {
      guard let entry = layout.header.section(type),
        let bytes = try? file.slice(offset: Int(entry.offset), length: Int(entry.length))
      else { continue }
      if let position = (0..<bytes.count).first(where: { unsafe bytes.uncheckedByte(at: $0) != 0 }) {
        problems.record(
          FormatError(.nonzeroReserved(field: "padding"), at: Int(entry.offset) &+ position, section: type.rawValue))
      }
    }
  }
}
