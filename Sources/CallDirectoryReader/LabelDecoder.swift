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

  /// Calls `body` with the position in the block and the bytes of each label of block `block`,
  /// checked as `decode` checks them, without making a `String` of any (the verifier's pass).
  /// The bytes are valid only during the call. The labels tile the payload after the offset
  /// table (`o[0] = 0`, `o[q]` its end) or, prefix-coded, fill it: no byte lies outside them.
  /// - Throws: `FormatError` with file offsets, or what `body` throws.
  package static func forEachLabel(
    layout: DirectoryLayout, block: Int, _ body: (Int, ByteView) throws(FormatError) -> Void
  ) throws(FormatError) {
    let index = layout.labelIndex
    let first = index.firstLabel(ofBlock: block)
    let next =
      block + 1 < index.blockCount ? index.firstLabel(ofBlock: block + 1) : index.labelCount
    let at = FormatConstants.labelIndexHeaderSize + block * FormatConstants.labelIndexRecordSize
    guard block > 0 || first == 0, first < next, next <= index.labelCount else {
      throw index.place.error(
        .malformedIndex("label block \(block) covers labels \(first)..<\(next)"), at: at)
    }
    try index.checkReserved(ofBlock: block)
    let labelBlock = try layout.labelBlock(block, labelCount: next - first)
    try labelBlock.block.checkChecksum()
    let count = next - first
    try labelBlock.block.withPayload { (payload) throws(FormatError) in
      switch labelBlock.coding {
      case .offsets:
        // Labels tile the bytes from o[0] to o[q]: those bytes, for one UTF-8 check of them all.
        let tableBytes = (count &+ 1) &* 4
        // A first offset past 0 would cut the first label from bytes after its start: refused
        // before any label is read (section 9).
        if let start = payload.uint32LE(at: 0), start != 0 {
          throw malformed(labelBlock, "the first label offset is \(start), not 0")
        }
        var all: ByteView?
        if let start = payload.uint32LE(at: 0), let end = payload.uint32LE(at: count &* 4), start <= end {
          all = try? payload.slice(offset: tableBytes &+ Int(start), length: Int(end &- start))
        }
        try visit(count, in: payload, all: all, first: first, labelBlock) { (position) throws(FormatError) in
          try labelBlock.labelRange(at: position, in: payload)
        } body: { (position, label) throws(FormatError) in
          try body(position, label)
        }
        // Bytes after the last label belong to none: the block is malformed, though each label
        // read is as the table says (`labelRange` proved the count + 1 offsets fit).
        if let end = payload.uint32LE(at: count &* 4), Int(end) != payload.count &- tableBytes {
          throw malformed(labelBlock, "the labels end at byte \(end) of \(payload.count &- tableBytes)")
        }
      case .prefixed:
        let (text, ends) = try labelBlock.prefixedLabels(in: payload)
        // Array.withUnsafeBytes rethrows untyped: carry the typed error out through a Result.
        let result = unsafe text.withUnsafeBytes { raw in
          Result { () throws(FormatError) in
            let all = unsafe ByteView(raw)
            // `ends` ascend from 0 to `text.count`: every slice lies inside `all`.
            try visit(count, in: all, all: all, first: first, labelBlock) { (position) throws(FormatError) in
              (position == 0 ? 0 : ends[position &- 1])..<ends[position]
            } body: { (position, label) throws(FormatError) in
              try body(position, label)
            }
          }
        }
        try result.get()
      }
    }
  }

  /// A malformed-block error at `labelBlock`'s payload.
  private static func malformed(_ labelBlock: LabelBlock, _ reason: String) -> FormatError {
    labelBlock.block.place.error(
      .malformedBlock(block: labelBlock.block.number, reason: reason), at: FormatConstants.blockHeaderSize)
  }

  /// Checks every one of a block's `count` labels (its length and UTF-8), then hands each to
  /// `body`: no label is handed out before the last is checked.
  ///
  /// Labels tile `all`, so they are all valid UTF-8 exactly when `all` is and no label starts
  /// with a continuation byte (none then ends inside a character): one pass over the block
  /// instead of one call a label. When that fails, the labels are checked one by one, so that
  /// the error names the first label at fault.
  private static func visit(
    _ count: Int, in base: ByteView, all: ByteView?, first: Int, _ labelBlock: LabelBlock,
    label: (Int) throws(FormatError) -> Range<Int>,
    body: (Int, ByteView) throws(FormatError) -> Void
  ) throws(FormatError) {
    let place = labelBlock.block.place
    var allValid = false
    if let all { allValid = UTF8Validation.isValid(all) }
    var position = 0
    while position < count {
      let range = try label(position)
      let bytes = base.sliceOrEmpty(offset: range.lowerBound, length: range.count)
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
      let range = try label(position)
      try body(position, base.sliceOrEmpty(offset: range.lowerBound, length: range.count))
    }
  }
}
