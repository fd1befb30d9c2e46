extension FileHeader {
  /// The header and section table as bytes, with the header checksum filled in.
  /// - Complexity: O(section count).
  @usableFromInline package func encoded() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(FileHeader.size(sectionCount: sections.count))
    bytes.append(contentsOf: FormatConstants.magic)
    bytes.appendUInt16LE(major)
    bytes.appendUInt16LE(minor)
    bytes.appendUInt32LE(UInt32(sections.count))
    bytes.appendUInt64LE(fileLength)
    bytes.appendUInt32LE(0)  // reserved flags
    bytes.appendUInt32LE(0)  // checksum, patched below
    for section in sections {
      bytes.appendUInt32LE(section.type)
      bytes.appendUInt32LE(section.flags)
      bytes.appendUInt64LE(section.offset)
      bytes.appendUInt64LE(section.length)
      bytes.appendUInt32LE(section.checksum)
      bytes.appendUInt32LE(0)  // reserved
    }
    let crc = unsafe bytes.withUnsafeBytes { unsafe FileHeader.checksum(of: ByteView($0), sectionCount: sections.count) }
    bytes.setUInt32LE(crc, at: 28)
    return bytes
  }
}
