import CallDirectoryFormat

/// Decodes a whole label block with every check: the path streaming and the verifier share.
public enum LabelDecoder {
  /// The labels of block `block`, checked: checksum, offsets, lengths, UTF-8.
  /// - Throws: `FormatError` with file offsets.
  public static func decode(layout: DirectoryLayout, block: Int) throws(FormatError) -> [String] {
    var labels: [String] = []
    try forEachLabel(layout: layout, block: block) { (_, bytes) throws(FormatError) in
      labels.append(String(decoding: bytes.bytes, as: UTF8.self))
    }
    return labels
  }

  /// Calls `body` with the position in the block and the bytes of each label of block `block`,
  /// checked as `decode` checks them, without making a `String` of any (the verifier's pass).
  /// The bytes are valid only during the call.
  /// - Throws: `FormatError` with file offsets, or what `body` throws.
  public static func forEachLabel(
    layout: DirectoryLayout, block: Int, _ body: (Int, ByteView) throws(FormatError) -> Void
  ) throws(FormatError) {
    let index = layout.labelIndex
    let first = index.firstLabel(ofBlock: block)
    let next = block + 1 < index.blockCount ? index.firstLabel(ofBlock: block + 1) : index.labelCount
    let at = Layout.labelIndexHeaderSize + block * Layout.labelIndexRecordSize
    guard block > 0 || first == 0, first < next, next <= index.labelCount else {
      throw FormatError(.malformedIndex("label block \(block) covers labels \(first)..<\(next)"), at: at)
        .placed(in: SectionType.labelIndex.rawValue, base: layout.indexOffsets.labels)
    }
    let labelBlock = try layout.labelBlock(block, labelCount: next - first)
    let base = layout.labelBlockOffset(block)
    do throws(FormatError) {
      try labelBlock.block.checkChecksum()
      try labelBlock.block.withPayload { (payload) throws(FormatError) in
        for position in 0..<(next - first) {
          let bytes = try labelBlock.label(at: position, in: payload)
          guard Limits.isValidLabelLength(bytes.count) else {
            throw FormatError(.badLabelLength(id: first + position, length: bytes.count), at: 0)
          }
          guard UTF8Validation.isValid(bytes) else { throw FormatError(.invalidUTF8(id: first + position), at: 0) }
          try body(position, bytes)
        }
      }
    } catch {
      throw error.placed(in: SectionType.labelData.rawValue, base: base)
    }
  }
}
