import CallDirectoryFormat

// The searches inside one entry or range block: the Elias-Fano rank of the target's offset
// (`EliasFanoView.rank(of:)`), then its label id. Every read is safe whatever the bytes hold, and
// the reader checks a block's CRC before it answers from it.

extension EntryPayload {
  /// The label id (0 in a blocking block) of the entry `target` above the block's first number,
  /// or `nil` when there is none.
  /// - Complexity: as `EliasFanoView.find(_:)`.
  @inline(__always)
  func labelId(ofEntryAt target: UInt64) -> UInt64? {
    if target == 0 { return labelId(at: 0) }
    guard let entry = numbers.find(target) else { return nil }
    return labelId(at: entry)
  }
}

/// The search of a raw entry or range block that has passed its checks, in place: its frame is
/// read again (three header bytes and the payload's bounds) without the checked views and placed
/// errors the first read builds, which a warm lookup would pay for on every call.
///
/// Every read stays inside the block's bytes whatever they hold. An entry block whose bytes no
/// longer parse as they did when it passed (its file changed under the mapping) is `unreadable`,
/// and the caller takes the checked path, which says what is wrong.
enum PassedBlockSearch {
  /// What the search found.
  enum Outcome {
    /// The entry's label id (0 in a blocking block).
    case found(UInt64)
    /// No entry has the number.
    case absent
    /// The block is deflated, or its frame does not parse: search it the checked way.
    case unreadable
  }

  /// The label id of the entry `target` above the block's first number, in the entry block
  /// `bytes` of `entries` entries.
  /// - Complexity: as `EliasFanoView.find(_:)`; no allocation.
  @_transparent  // `@inline(__always)` left it a call in Swift 6.3: 12 instructions a lookup
  static func labelId(of target: UInt64, inBlock bytes: ByteView, entries: Int, identification: Bool) -> Outcome {
    guard let parts = Parts(bytes, numbers: entries, labelFields: nil, labelled: identification) else { return .unreadable }
    var entry = 0  // the block's first number, at offset 0
    if target != 0 {
      guard let found = parts.numbers.find(target) else { return .absent }
      entry = found
    }
    return .found(parts.labelId(entry))
  }

  /// The range holding the number `target` above the block's first number, in the range block
  /// `bytes` of `ranges` ranges: its index in the block and its label id (0 unlabelled), or `nil`
  /// when no range holds it or the frame does not parse. (A reader checks its ranges whole
  /// before their first lookup, so only a file changed under its mapping fails to parse.)
  ///
  /// The boundaries are an Elias-Fano code over the `2 * ranges - 1` offsets after the first
  /// number (`Spec/FORMAT.md` section 10.1); the last boundary at or below `target` is a range's
  /// start, or its end when it equals `target`.
  /// - Complexity: as `EliasFanoView.rank(of:)`; no allocation.
  @_transparent
  static func range(containing target: UInt64, inBlock bytes: ByteView, ranges: Int, labelled: Bool) -> (
    index: Int, labelId: UInt64
  )? {
    guard let parts = Parts(bytes, numbers: 2 &* ranges, labelFields: ranges, labelled: labelled) else { return nil }
    let (atMost, equal) = parts.numbers.count(atMost: target)
    guard atMost & 1 == 0 || equal else { return nil }
    return (atMost >> 1, parts.labelId(atMost >> 1))
  }

  /// What a search reads of a raw block's payload, from its frame read again: the Elias-Fano code
  /// of its numbers and its label ids. Laid out as `EntryPayload` lays them (its `widthsFit` and
  /// `idBytes` serve both), but nothing else is made: a whole `EntryPayload`, a large
  /// `~Escapable` value, costs a call to its value witness at the end of every search.
  struct Parts: ~Escapable {
    /// The offsets of the block's numbers after its first.
    let numbers: EliasFanoView
    /// The packed label ids (empty when the block has none).
    let ids: ByteView
    /// The base every packed id is added to (0 when the block has no ids).
    let baseLabelId: UInt64
    /// The width of a packed id.
    let labelBits: Int

    /// The parts of the raw block `bytes` of `numbers` numbers (at least 1) and `labelFields`
    /// label ids (`numbers` when `nil`) when `labelled`, or `nil` when its frame does not parse.
    @_lifetime(copy bytes) @_transparent
    init?(_ bytes: ByteView, numbers: Int, labelFields: Int?, labelled: Bool) {
      let header = FormatConstants.blockHeaderSize
      let payloadLength = bytes.count &- header &- FormatConstants.blockTrailerSize
      guard payloadLength >= 0, unsafe bytes.uncheckedByte(at: 0) == BlockCodec.raw.rawValue else { return nil }
      let lowBits = Int(unsafe bytes.uncheckedByte(at: 1))
      let labelBits = Int(unsafe bytes.uncheckedByte(at: 2))
      guard
        EntryPayload.widthsFit(entryCount: numbers, lowBits: lowBits, labelBits: labelBits, labelFields: labelFields)
      else { return nil }
      // numbers <= 8,192 and widths <= 62: the products are small.
      let idBytes = EntryPayload.idBytes(labelFields ?? numbers, labelBits, labelled)
      let lowBytes = BitPacking.byteCount(count: numbers &- 1, width: lowBits)
      guard idBytes &+ lowBytes <= payloadLength else { return nil }
      // Every part inside the payload: idBytes + lowBytes <= payloadLength, and idBytes >= 4 when
      // labelled (the base id).
      let lowStart = header &+ idBytes
      self.numbers = unsafe EliasFanoView(
        count: numbers &- 1, lowBits: lowBits, low: bytes.uncheckedSlice(offset: lowStart, length: lowBytes),
        high: bytes.uncheckedSlice(offset: lowStart &+ lowBytes, length: payloadLength &- idBytes &- lowBytes))
      ids = unsafe bytes.uncheckedSlice(offset: labelled ? header &+ 4 : 0, length: labelled ? idBytes &- 4 : 0)
      baseLabelId = labelled ? UInt64(unsafe bytes.uncheckedUInt32LE(at: header)) : 0
      self.labelBits = labelled ? labelBits : 0
    }

    /// The label id of field `field` (0 when the block has no ids).
    @_transparent
    func labelId(_ field: Int) -> UInt64 {
      baseLabelId &+ BitPacking.field(ids, bitOffset: field &* labelBits, width: labelBits)  // < 2^33
    }
  }
}
