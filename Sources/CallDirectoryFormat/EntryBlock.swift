/// An entry block: a block whose header bytes are (codec, low bits, label bits, reserved) and whose
/// payload holds a run of one kind's entries (`Spec/FORMAT.md`, "Entry blocks").
///
/// Payload layout for `m` entries, low-bit width `l` and label-id width `w`:
///
///     base id    4 bytes (identification only)  u32, added to every stored label id
///     label ids  ceil(m * w / 8) bytes     id of entry j minus the base, at bits j*w ..< (j+1)*w
///     low bits   ceil((m-1) * l / 8) bytes  low part of offset j at bits (j-1)*l ..< j*l
///     high bits  the rest                   unary high parts (EliasFano)
@usableFromInline package struct EntryBlock: ~Escapable, Sendable {
  /// The block frame.
  @usableFromInline package let block: Block
  /// The entries in the block (from the index).
  @usableFromInline package let entryCount: Int
  /// The low-bit width of the number codec.
  @usableFromInline package let lowBits: Int
  /// The width of each label id; 0 in blocking blocks.
  @usableFromInline package let labelBits: Int
  /// Whether the block holds identification entries (a base id and label ids).
  @usableFromInline package let identification: Bool

  /// Checks an entry block's frame and header.
  ///
  /// - Parameters:
  ///   - bytes: the block's bytes.
  ///   - place: where the block lies in the file.
  ///   - number: the block's number in its section.
  ///   - entryCount: the entries the index says it holds (at least 1).
  ///   - identification: whether this is an identification block (label ids present).
  /// - Throws: `FormatError`, placed in the file.
  @_lifetime(copy bytes)
  package init(parsing bytes: ByteView, at place: FilePlace, number: Int, entryCount: Int, identification: Bool)
    throws(FormatError)
  {
    block = try Block(parsing: bytes, at: place, number: number, maximumPayload: FormatConstants.maximumEntryPayload)
    lowBits = Int(block.header.1)
    labelBits = Int(block.header.2)
    self.entryCount = entryCount
    self.identification = identification
    guard lowBits <= FormatConstants.maximumLowBits else {
      throw place.error(.invalidField(field: "low bits", value: UInt64(lowBits)), at: 1)
    }
    guard identification ? labelBits <= FormatConstants.maximumLabelBits : labelBits == 0 else {
      throw place.error(.invalidField(field: "label bits", value: UInt64(labelBits)), at: 2)
    }
    guard block.header.3 == 0 else { throw place.error(.nonzeroReserved(field: "entry block header"), at: 3) }
  }

  /// Calls `body` with the decoded layout of the payload.
  /// - Throws: `FormatError` when the payload is too short for its fixed-size parts, or inflating fails.
  @usableFromInline package func withPayload<R>(_ body: (EntryPayload) throws(FormatError) -> R) throws(FormatError) -> R {
    try block.withPayload { (payload) throws(FormatError) -> R in try body(try self.payload(payload)) }
  }

  /// The layout of `bytes` as this block's payload: the block's body when its codec is raw, or
  /// its inflated payload.
  /// - Throws: `FormatError.malformedBlock` when the fixed-size parts do not fit.
  @inlinable @_lifetime(copy bytes)
  package func payload(_ bytes: ByteView) throws(FormatError) -> EntryPayload {
    try EntryPayload(
      bytes, entryCount: entryCount, lowBits: lowBits, labelBits: labelBits, identification: identification,
      block: block.number, place: block.place)
  }

  /// The share a deflated entry payload must save, as `1 / n`: a half. Lookups search raw blocks
  /// in place but must inflate a deflated one (microseconds instead of tens of nanoseconds), so
  /// only dense runs, which deflate to a fraction, are worth it.
  @usableFromInline package static let deflateWhenSaving = 2
  /// The widest low-bit width at which the canonical writer tries deflate: 1, an average gap
  /// below 4 (dense runs). Wider low parts are close to random bits, which deflate cannot halve,
  /// and trying cost more than encoding the block.
  @usableFromInline package static let deflateAtMostLowBits = 1

  /// The length of the raw block `encode` makes of `count` ascending numbers spanning `span`
  /// (the last minus the first), with label ids `labelBits` wide in an identification block:
  /// the frame, the base label id, the ids and the numbers. O(1), for a writer deciding where a
  /// block ends before it encodes it.
  @inlinable @inline(__always)
  package static func rawLength(count: Int, span: UInt64, labelBits: Int, identification: Bool) -> Int {
    let ids = identification ? 4 &+ BitPacking.byteCount(count: count, width: labelBits) : 0
    return FormatConstants.blockHeaderSize &+ FormatConstants.blockTrailerSize &+ ids
      &+ EliasFano.encodedLength(count: count &- 1, maximum: span)
  }

  /// Encodes a block of ascending `numbers` and, for identification, their `labelIds`.
  ///
  /// The low-bit width is `EliasFano.lowBits`. Label ids are stored relative to the block's
  /// smallest (frame of reference), at the fewest bits that hold the largest difference: a block
  /// whose entries share one label stores no id bits at all, and labels that sort together (one
  /// company's departments) need few.
  /// - Parameter deflater: the compressor that tries deflate (see `Block.encode`).
  /// - Precondition: `numbers` is non-empty and strictly ascending; `labelIds` is empty, or one id
  ///   for each number (an entry block) or each pair of numbers (a range block's boundaries,
  ///   `RangeBlock.encode`).
  @usableFromInline package static func encode(
    _ numbers: ArraySlice<Int64>, labelIds: ArraySlice<UInt32>, allowDeflate: Bool = true, using deflater: Deflater? = nil
  ) -> [UInt8] {
    let numbersPart = EliasFano.encode(numbers)
    let base = labelIds.min() ?? 0
    let width = UInt64((labelIds.max() ?? 0) - base).significantBitCount
    var payload: [UInt8] = []
    if !labelIds.isEmpty {
      payload.appendUInt32LE(base)
      var ids = BitPacking.Writer()
      for id in labelIds { ids.append(UInt64(id - base), width: width) }
      payload.append(contentsOf: ids.bytes)
    }
    payload.append(contentsOf: numbersPart.low)
    payload.append(contentsOf: numbersPart.high)
    return Block.encode(
      header: (UInt8(numbersPart.lowBits), UInt8(width), 0), payload: payload,
      deflateWhenSaving: allowDeflate && numbersPart.lowBits <= deflateAtMostLowBits ? deflateWhenSaving : nil,
      using: deflater)
  }
}

/// The parts of an entry block's payload.
@usableFromInline package struct EntryPayload: ~Escapable, Sendable {
  /// The Elias-Fano parts of the numbers after the first.
  @usableFromInline package let numbers: EliasFanoView
  /// The packed label ids, relative to `baseLabelId` (empty in blocking blocks).
  @usableFromInline package let labelIds: ByteView
  /// The label id width.
  @usableFromInline package let labelBits: Int
  /// The value added to every stored label id (0 in blocking blocks).
  @usableFromInline package let baseLabelId: UInt64

  /// Splits `payload`, the payload of block `block` at `place` in the file, into its parts.
  /// - Parameter labelFields: the label ids the payload holds: one an entry (the default), or one
  ///   for each pair of numbers in a range block, whose numbers are its ranges' boundaries.
  /// - Throws: `FormatError.malformedBlock`, at the block's payload, when the fixed-size parts do
  ///   not fit.
  @usableFromInline @_lifetime(copy payload)
  package init(
    _ payload: ByteView, entryCount: Int, lowBits: Int, labelBits: Int, identification: Bool, block: Int, place: FilePlace,
    labelFields: Int? = nil
  ) throws(FormatError) {
    if let parts = EntryPayload(
      payload, entryCount: entryCount, lowBits: lowBits, labelBits: labelBits, identification: identification,
      labelFields: labelFields)
    {
      self = parts
      return
    }
    let reason =
      Self.widthsFit(entryCount: entryCount, lowBits: lowBits, labelBits: labelBits, labelFields: labelFields)
      ? "a \(payload.count)-byte payload cannot hold "
        + "\(Self.idBytes(labelFields ?? entryCount, labelBits, identification)) bytes of label ids and "
        + "\(BitPacking.byteCount(count: entryCount &- 1, width: lowBits)) of low bits"
      : "\(entryCount) entries of \(lowBits) low bits and \(labelBits)-bit label ids"
    throw place.error(.malformedBlock(block: block, reason: reason), at: FormatConstants.blockHeaderSize)
  }

  /// Splits `payload` into its parts, or `nil` when the widths are out of range or the
  /// fixed-size parts do not fit: the throwing initializer without the error, for the lookups'
  /// quick path over a block that has passed its checks.
  /// - Complexity: O(1).
  @inlinable @inline(__always) @_lifetime(copy payload)
  package init?(
    _ payload: ByteView, entryCount: Int, lowBits: Int, labelBits: Int, identification: Bool, labelFields: Int? = nil
  ) {
    // Checked here as well as in the block header, since a payload comes from several callers:
    // every payload then has widths the decoders can shift by.
    guard Self.widthsFit(entryCount: entryCount, lowBits: lowBits, labelBits: labelBits, labelFields: labelFields)
    else { return nil }
    // entryCount <= 8192 (a range block's boundaries) and widths <= 62: the products are small.
    let baseBytes = identification ? 4 : 0
    let idBytes = Self.idBytes(labelFields ?? entryCount, labelBits, identification)
    let lowBytes = BitPacking.byteCount(count: entryCount &- 1, width: lowBits)
    guard idBytes <= payload.count, lowBytes <= payload.count &- idBytes,
      let labelIds = payload.subview(offset: baseBytes, length: idBytes &- baseBytes),
      let low = payload.subview(offset: idBytes, length: lowBytes),
      let high = payload.subview(offset: idBytes &+ lowBytes, length: payload.count &- idBytes &- lowBytes)
    else { return nil }
    baseLabelId = identification ? UInt64(unsafe payload.uncheckedUInt32LE(at: 0)) : 0  // 4 <= idBytes <= count
    self.labelIds = labelIds
    numbers = EliasFanoView(count: entryCount &- 1, lowBits: lowBits, low: low, high: high)
    self.labelBits = labelBits
  }

  /// Whether the entry count and widths are ones a payload may have: at least one entry, at most
  /// a block's (twice that for a range block's boundaries), widths the decoders can shift by.
  @inlinable
  package static func widthsFit(entryCount: Int, lowBits: Int, labelBits: Int, labelFields: Int?) -> Bool {
    let mostNumbers = labelFields == nil ? FormatConstants.maximumEntriesPerBlock : 2 &* FormatConstants.maximumEntriesPerBlock
    let labelFields = labelFields ?? entryCount
    return entryCount >= 1 && entryCount <= mostNumbers && lowBits >= 0 && lowBits <= FormatConstants.maximumLowBits
      && labelBits >= 0 && labelBits <= FormatConstants.maximumLabelBits && labelFields >= 0 && labelFields <= entryCount
  }

  /// The bytes of the base id and the packed label ids (`fields` of `labelBits` bits).
  @inlinable
  package static func idBytes(_ fields: Int, _ labelBits: Int, _ identification: Bool) -> Int {
    (identification ? 4 : 0) &+ BitPacking.byteCount(count: fields, width: labelBits)
  }

  /// Whether the unused bits at the end of the label-id and low-bits parts are zero, as the
  /// spec requires of every bit string (so that every bit of a valid block means something).
  @usableFromInline package func paddingIsZero(entryCount: Int, lowBits: Int) -> Bool {
    func tailIsZero(_ part: ByteView, bits: Int) -> Bool {
      let used = bits & 7
      guard used != 0, part.count > 0 else { return true }
      return unsafe part.uncheckedByte(at: part.count &- 1) >> UInt8(used) == 0
    }
    // Products are small: at most 4096 entries of at most 62 bits.
    return tailIsZero(labelIds, bits: entryCount &* labelBits) && tailIsZero(numbers.low, bits: (entryCount &- 1) &* lowBits)
  }

  /// Decodes every entry's label id into `ids` (one per entry), each checked below `labelCount`.
  ///
  /// - Returns: `nil`, or the first id at or above `labelCount` (`ids` is then unspecified).
  /// - Complexity: O(entries); one eight-byte read an entry (a field is at most 32 bits), and the
  ///   range is checked once, on the largest field.
  @usableFromInline package func decodeLabelIds(into ids: inout [UInt32], below labelCount: UInt64) -> UInt64? {
    let width = labelBits
    guard width > 0 else {  // every entry has the base id
      guard baseLabelId < labelCount else { return baseLabelId }
      for index in ids.indices { ids[index] = UInt32(truncatingIfNeeded: baseLabelId) }
      return nil
    }
    return unsafe ids.withUnsafeMutableBufferPointer { buffer -> UInt64? in
      var largest: UInt64 = 0
      BitPacking.forEachField(in: labelIds, width: width, count: buffer.count) { entry, field in
        largest = max(largest, field)
        unsafe buffer[entry] = UInt32(truncatingIfNeeded: baseLabelId &+ field)  // entry < buffer.count
      }
      guard baseLabelId &+ largest >= labelCount else { return nil }  // < 2^33: no wrap
      // Some id is out of range: the error names the first.
      for entry in 0..<buffer.count where UInt64(unsafe buffer[entry]) >= labelCount { return UInt64(unsafe buffer[entry]) }
      return nil
    }
  }

  /// The label id of entry `entry` (0-based within the block): the base plus the stored field.
  /// It may exceed `UInt32.max` in a damaged block; callers check it against the label count.
  @inlinable
  package func labelId(at entry: Int) -> UInt64 {
    baseLabelId &+ BitPacking.field(labelIds, bitOffset: entry &* labelBits, width: labelBits)  // < 2^33
  }
}
