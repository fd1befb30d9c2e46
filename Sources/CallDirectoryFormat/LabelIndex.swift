/// The index over the label blocks (`Spec/FORMAT.md`, "Label index").
///
/// Record `i` holds the id of block `i`'s first label and the block's offset in the label data
/// section; block `i` holds the labels from its first id up to the next block's first id.
@usableFromInline package struct LabelIndex: ~Escapable, Sendable {
  /// What the index is, without its bytes: its counts and where its records lie in the file.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The number of distinct labels.
    @usableFromInline package let labelCount: Int
    /// The number of label blocks.
    @usableFromInline package let blockCount: Int
    /// Where the records lie in the file, `blockCount * 16` bytes.
    @usableFromInline package let records: FileRange
    /// Where the index section lies in the file: errors about its records are placed there.
    @usableFromInline package let place: FilePlace
    /// The length of the label data section.
    @usableFromInline package let dataLength: Int
  }

  /// The counts and places.
  @usableFromInline package let shape: Shape
  /// The records, `blockCount * 16` bytes.
  @usableFromInline package let records: ByteView

  /// The index of `shape` over `file`, the bytes the shape was parsed from.
  /// - Complexity: O(1).
  @inlinable @_lifetime(copy file)
  package init(_ shape: Shape, in file: ByteView) {
    self.shape = shape
    records = unsafe file.view(of: shape.records)
  }

  /// The number of distinct labels.
  @inlinable package var labelCount: Int { shape.labelCount }
  /// The number of label blocks.
  @inlinable package var blockCount: Int { shape.blockCount }
  /// Where the index section lies in the file.
  @inlinable package var place: FilePlace { shape.place }
  /// The length of the label data section.
  @inlinable package var dataLength: Int { shape.dataLength }
}

extension LabelIndex.Shape {
  /// Checks and wraps a label index section.
  ///
  /// `header`, when given, is the 8 bytes to read the header from instead of the section's own
  /// (its copy in `HDRS`), with their place.
  ///
  /// - Throws: `FormatError`, placed in the file (in the copy, for the header's fields read from
  ///   one), when the counts are inconsistent or the section's length does not match its block count.
  /// - Complexity: O(1).
  package init(
    parsing section: ByteView, at place: FilePlace, dataLength: Int, header: (bytes: ByteView, place: FilePlace)? = nil
  ) throws(FormatError) {
    guard section.count >= FormatConstants.labelIndexHeaderSize else {
      throw place.error(.truncated(needed: FormatConstants.labelIndexHeaderSize, available: section.count))
    }
    let fields: ByteView
    let fieldsPlace: FilePlace
    if let header {
      fields = header.bytes
      fieldsPlace = header.place
    } else {
      fields = section
      fieldsPlace = place
    }
    guard fields.count >= FormatConstants.labelIndexHeaderSize else {
      throw fieldsPlace.error(.truncated(needed: FormatConstants.labelIndexHeaderSize, available: fields.count))
    }
    let labels = Int(unsafe fields.uncheckedUInt32LE(at: 0))
    let blocks = Int(unsafe fields.uncheckedUInt32LE(at: 4))
    guard blocks <= labels, (blocks == 0) == (labels == 0) else {
      throw fieldsPlace.error(.malformedIndex("\(blocks) label blocks for \(labels) labels"), at: 4)
    }
    guard section.count - FormatConstants.labelIndexHeaderSize == blocks * FormatConstants.labelIndexRecordSize else {
      throw fieldsPlace.error(
        .malformedIndex("\(blocks) label blocks need \(blocks * 16) bytes of records, the section has \(section.count - 8)"),
        at: 4)
    }
    labelCount = labels
    blockCount = blocks
    records = FileRange(
      offset: place.offset &+ FormatConstants.labelIndexHeaderSize, count: section.count - FormatConstants.labelIndexHeaderSize)
    self.dataLength = dataLength
    self.place = place
  }
}

extension LabelIndex {

  /// The id of block `block`'s first label, as stored. Precondition: `0 <= block < blockCount`.
  @inlinable
  package func firstLabel(ofBlock block: Int) -> Int {
    Int(unsafe records.uncheckedUInt32LE(at: block &* FormatConstants.labelIndexRecordSize))
  }

  /// The block holding label `id` and the label's position in it, or `nil` when `id` is out of range.
  ///
  /// - Throws: `FormatError` when the records around the block are not ascending or reserved bits are set.
  /// - Complexity: O(log blockCount).
  @usableFromInline package func locate(_ id: Int) throws(FormatError) -> (block: Int, position: Int, count: Int)? {
    guard id >= 0 && id < labelCount else { return nil }
    var low = 0
    var high = blockCount
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if firstLabel(ofBlock: middle) <= id { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0 else { throw place.error(.malformedIndex("the first label block does not start at label 0"), at: 8) }
    let block = low &- 1
    let first = firstLabel(ofBlock: block)
    let next = block &+ 1 < blockCount ? firstLabel(ofBlock: block &+ 1) : labelCount
    let at = FormatConstants.labelIndexHeaderSize &+ block &* FormatConstants.labelIndexRecordSize
    guard block == 0 ? first == 0 : true, first < next, next <= labelCount else {
      throw place.error(.malformedIndex("label block \(block) covers labels \(first)..<\(next)"), at: at)
    }
    try checkReserved(ofBlock: block)
    return (block, id &- first, next &- first)
  }

  /// Checks that record `block`'s reserved field is 0, as a reader must before it relies on the
  /// record (section 11: a future version may give it meaning).
  /// - Precondition: `block < blockCount`.
  /// - Throws: `FormatError.nonzeroReserved`, placed at the field.
  @usableFromInline package func checkReserved(ofBlock block: Int) throws(FormatError) {
    let record = block &* FormatConstants.labelIndexRecordSize  // inside the records: block < blockCount
    guard unsafe records.uncheckedUInt32LE(at: record &+ 4) == 0 else {
      throw place.error(
        .nonzeroReserved(field: "label index record"), at: FormatConstants.labelIndexHeaderSize &+ record &+ 4)
    }
  }

  /// The byte range of block `block` in the label data section.
  /// - Throws: `FormatError`, placed in the index section, when the offsets are out of order or past the end.
  @usableFromInline package func blockRange(_ block: Int) throws(FormatError) -> Range<Int> {
    try BlockRanges.range(
      block, count: blockCount, dataLength: dataLength, place: place.advanced(by: FormatConstants.labelIndexHeaderSize),
      recordSize: FormatConstants.labelIndexRecordSize
    ) { unsafe records.uncheckedUInt64LE(at: $0 &* FormatConstants.labelIndexRecordSize &+ 8) }
  }
}
