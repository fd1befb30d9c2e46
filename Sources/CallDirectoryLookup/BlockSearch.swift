import CallDirectoryFormat

// The search inside one entry block: Elias-Fano's high vector to the offsets that share the
// target's high part, then their low parts. Every read is safe whatever the bytes hold
// (positions past the parts read as zero bits), and the reader checks the block's CRC before it
// answers from it.

extension EliasFanoView {
  /// The index `j` (1 ... count) of the offset equal to `target`, or `nil` when there is none.
  ///
  /// - Complexity: O(high bytes / 8) word operations, plus O(1) per offset sharing `target`'s
  ///   high part.
  @inlinable @inline(__always)
  package func find(_ target: UInt64) -> Int? {
    let highPart = target >> UInt64(lowBits)
    // Position just after the `highPart`-th zero: where offsets with this high part begin.
    var position = 0
    if highPart > 0 {
      guard let zero = positionOfZero(highPart &- 1) else { return nil }
      position = zero &+ 1
    }
    let targetLow = lowBits == 0 ? 0 : target & ((1 << UInt64(lowBits)) &- 1)
    // The offsets with this high part are the run of ones from `position`: read a word of it at
    // once, then their low parts, which ascend.
    while true {
      let shift = position & 7
      // Ones from `position`: at most 64 - shift, since the shift brings in zeros at the top
      // (and bits past the end read as zero).
      let run = (~(high.wordLE(at: position >> 3) >> UInt64(shift))).trailingZeroBitCount
      // Ones before `position` = position - zeros before it, and the zeros before it are `highPart`.
      let first = position &- Int(truncatingIfNeeded: highPart)
      guard first >= 0 else { return nil }
      let end = min(first &+ run, count)
      // The first of the run whose low part is at least the target's: halving while the run is
      // long (clustered numbers put dozens in one), then one by one.
      var element = first
      var length = end &- first
      while length > 4 {
        let half = length >> 1
        let lowPart = BitPacking.field(low, bitOffset: (element &+ half &- 1) &* lowBits, width: lowBits)
        if lowPart < targetLow { element &+= half }
        length &-= half
      }
      while element < end {
        let lowPart = BitPacking.field(low, bitOffset: element &* lowBits, width: lowBits)
        if lowPart >= targetLow { return lowPart == targetLow ? element &+ 1 : nil }
        element &+= 1
      }
      // The run goes on past this word only when it filled the word.
      guard run == 64 &- shift, end < count else { return nil }
      position &+= run
    }
  }
}

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
