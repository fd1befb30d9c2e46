import CallDirectoryFormat

/// Decodes a whole label block with every check: the path streaming and the verifier share.
package enum LabelDecoder {
  /// The labels of block `block`, checked: checksum, offsets, lengths, UTF-8.
  /// - Throws: `FormatError` with file offsets.
  package static func decode(layout: DirectoryLayout, block: Int) throws(FormatError) -> [String] {
    var labels: [String] = []
    try decode(layout: layout, block: block, into: &labels)
    return labels
  }

  /// Appends the labels of block `block` to `labels`, checked as `decode` checks them.
  /// - Returns: the labels' bytes.
  /// - Throws: `FormatError` with file offsets; nothing is appended then (every label is checked
  ///   before the first is appended).
  @discardableResult
  package static func decode(layout: DirectoryLayout, block: Int, into labels: inout [String])
    throws(FormatError) -> Int
  {
    var size = 0
    try forEachLabel(layout: layout, block: block) { (_, bytes) throws(FormatError) in
      // From the block's bytes in place, not through an array: one copy, into the String.
      labels.append(
        unsafe bytes.withUnsafeBytes { raw in
          unsafe raw.withMemoryRebound(to: UInt8.self) {
            unsafe String(decoding: $0, as: UTF8.self)
          }
        })
      size += bytes.count
    }
    return size
  }

  /// Where a label block's offset table starts and ends, which reading labels does not need and
  /// the verifier checks (`o[0]` must be 0 and `o[q]` the size of the label bytes).
  package struct TableEnds: Sendable, Equatable {
    /// The first offset, `o[0]`.
    package var first: UInt32
    /// The last offset, `o[q]`.
    package var last: UInt32
    /// The bytes after the offset table: where `o[q]` must point.
    package var labelBytes: Int
  }

  /// Calls `body` with the position in the block and the bytes of each label of block `block`,
  /// checked as `decode` checks them, without making a `String` of any (the verifier's pass).
  /// The bytes are valid only during the call.
  /// - Returns: the offset table's ends, read from the payload the labels came from (a deflated
  ///   block is inflated once).
  /// - Throws: `FormatError` with file offsets, or what `body` throws.
  @discardableResult
  package static func forEachLabel(
    layout: DirectoryLayout, block: Int, _ body: (Int, ByteView) throws(FormatError) -> Void
  ) throws(FormatError) -> TableEnds {
    let index = layout.labelIndex
    let first = index.firstLabel(ofBlock: block)
    let next =
      block + 1 < index.blockCount ? index.firstLabel(ofBlock: block + 1) : index.labelCount
    let at = FormatConstants.labelIndexHeaderSize + block * FormatConstants.labelIndexRecordSize
    guard block > 0 || first == 0, first < next, next <= index.labelCount else {
      throw index.place.error(
        .malformedIndex("label block \(block) covers labels \(first)..<\(next)"), at: at)
    }
    let labelBlock = try layout.labelBlock(block, labelCount: next - first)
    let place = labelBlock.block.place
    try labelBlock.block.checkChecksum()
    return try labelBlock.block.withPayload { (payload) throws(FormatError) -> TableEnds in
      let count = next - first
      // Labels tile the bytes from o[0] to o[q], so they are all valid UTF-8 exactly when those
      // bytes are and no label starts with a continuation byte (none then ends inside a
      // character): one pass over the block instead of one call a label. A block that fails
      // is checked label by label, to name the label at fault.
      let tableBytes = (count &+ 1) &* 4
      var allValid = false
      if let start = payload.uint32LE(at: 0), let end = payload.uint32LE(at: count &* 4),
        start <= end,
        let bytes = try? payload.slice(offset: tableBytes &+ Int(start), length: Int(end &- start))
      {
        allValid = UTF8Validation.isValid(bytes)
      }
      // Every label is checked before the first is handed out. A label that starts with a
      // continuation byte means the one before ends inside a character: the labels are then
      // checked one by one, so that the error names the first label at fault.
      var position = 0
      while position < count {
        let bytes = try labelBlock.label(at: position, in: payload)
        guard Limits.isValidLabelLength(bytes.count) else {
          throw place.error(.badLabelLength(id: first + position, length: bytes.count))
        }
        if allValid {
          if unsafe bytes.uncheckedByte(at: 0) & 0xC0 == 0x80 {
            allValid = false
            position = 0
            continue
          }
        } else if !UTF8Validation.isValid(bytes) {
          throw place.error(.invalidUTF8(id: first + position))
        }
        position &+= 1
      }
      for position in 0..<count {
        try body(position, try labelBlock.label(at: position, in: payload))
      }
      // `label(at:)` proved that the count + 1 offsets fit in the payload.
      return TableEnds(
        first: payload.uint32LE(at: 0) ?? 0, last: payload.uint32LE(at: count &* 4) ?? 0,
        labelBytes: payload.count &- tableBytes)
    }
  }
}
