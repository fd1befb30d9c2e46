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
  /// - Complexity: as `EliasFanoView.find(_:)`; no allocation.
  @inline(__always)
  static func labelId(of target: UInt64, inBlock bytes: ByteView, entries: Int, identification: Bool) -> Outcome {
    let frame = FormatConstants.blockHeaderSize &+ FormatConstants.blockTrailerSize
    guard bytes.count >= frame, unsafe bytes.uncheckedByte(at: 0) == BlockCodec.raw.rawValue,
      let body = bytes.subview(offset: FormatConstants.blockHeaderSize, length: bytes.count &- frame),
      let payload = EntryPayload(
        body, entryCount: entries, lowBits: Int(unsafe bytes.uncheckedByte(at: 1)),
        labelBits: Int(unsafe bytes.uncheckedByte(at: 2)), identification: identification)
    else { return .unreadable }
    return payload.labelId(ofEntryAt: target).map(Outcome.found) ?? .absent
  }
}
