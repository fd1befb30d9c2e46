import CallDirectoryFormat

// The checked path's search inside one entry block: the Elias-Fano rank of the target's offset
// (`EliasFanoView.rank(of:)`), then its label id. Every read is safe whatever the bytes hold, and
// the reader checks a block's CRC before it answers from it. (A block that has passed its checks
// is searched by the warm path, CProcessor's `calldir_entry_find`.)

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
