import CallDirectoryFormat

// The search inside one entry block: the Elias-Fano search for the target's offset
// (`EliasFanoView.find(_:)`), then its label id. Every read is safe whatever the bytes hold, and
// the reader checks the block's CRC before it answers from it.

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

/// The search of a raw entry block that has passed its checks, in place: its frame is read again
/// (three header bytes and the payload's bounds) without the checked views and placed errors the
/// first read builds, which a warm lookup would pay for on every call.
///
/// Every read stays inside the block's bytes whatever they hold. A block whose bytes no longer
/// parse as they did when it passed (its file changed under the mapping) is `unreadable`, and the
/// caller takes the checked path, which says what is wrong.
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
  ///
  /// The payload's parts are laid out as `EntryPayload` lays them (its `widthsFit` and `idBytes`
  /// serve both), but only the Elias-Fano view and the one label field are made: a whole
  /// `EntryPayload`, a large `~Escapable` value, costs a call to its value witness at the end of
  /// every search.
  /// - Complexity: as `EliasFanoView.find(_:)`; no allocation.
  @_transparent  // `@inline(__always)` left it a call in Swift 6.3: 12 instructions a lookup
  static func labelId(of target: UInt64, inBlock bytes: ByteView, entries: Int, identification: Bool) -> Outcome {
    let header = FormatConstants.blockHeaderSize
    let payloadLength = bytes.count &- header &- FormatConstants.blockTrailerSize
    guard payloadLength >= 0, unsafe bytes.uncheckedByte(at: 0) == BlockCodec.raw.rawValue else { return .unreadable }
    let lowBits = Int(unsafe bytes.uncheckedByte(at: 1))
    let labelBits = Int(unsafe bytes.uncheckedByte(at: 2))
    guard EntryPayload.widthsFit(entryCount: entries, lowBits: lowBits, labelBits: labelBits, labelFields: nil) else {
      return .unreadable
    }
    // entries <= 4,096 and widths <= 62: the products are small.
    let idBytes = EntryPayload.idBytes(entries, labelBits, identification)
    let lowBytes = BitPacking.byteCount(count: entries &- 1, width: lowBits)
    guard idBytes &+ lowBytes <= payloadLength else { return .unreadable }
    var entry = 0  // the block's first number, at offset 0
    if target != 0 {
      let lowStart = header &+ idBytes
      let highStart = lowStart &+ lowBytes
      // Both inside the payload: idBytes + lowBytes <= payloadLength.
      let numbers = EliasFanoView(
        count: entries &- 1, lowBits: lowBits, low: bytes.sliceOrEmpty(offset: lowStart, length: lowBytes),
        high: bytes.sliceOrEmpty(offset: highStart, length: payloadLength &- idBytes &- lowBytes))
      guard let found = numbers.find(target) else { return .absent }
      entry = found
    }
    guard identification else { return .found(0) }
    // The base id, then the entry's field of `labelBits` bits (idBytes >= 4: inside the payload).
    let base = UInt64(unsafe bytes.uncheckedUInt32LE(at: header))
    let ids = bytes.sliceOrEmpty(offset: header &+ 4, length: idBytes &- 4)
    return .found(base &+ BitPacking.field(ids, bitOffset: entry &* labelBits, width: labelBits))
  }
}
