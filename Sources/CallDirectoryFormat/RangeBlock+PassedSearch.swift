import CProcessor

extension RangeBlock {
  /// The range holding the number `target` above the block's first number, in the raw range
  /// block `bytes` of `ranges` ranges that has passed its checks: its index in the block and its
  /// label id (0 unlabelled), or `nil` when no range holds it or the frame does not parse. The
  /// frame is read again in place by the parse an entry block's warm search uses
  /// (`calldir_raw_block_parse`, CProcessor's entry_find.h), without the checked views and placed
  /// errors of the first read. (A reader checks its ranges whole before their first lookup, so
  /// only a file changed under its mapping fails to parse.)
  ///
  /// The boundaries are an Elias-Fano code over the `2 * ranges - 1` offsets after the first
  /// number (`Spec/FORMAT.md` section 10.1); the last boundary at or below `target` is a range's
  /// start, or its end when it equals `target`.
  /// - Complexity: as `EliasFanoView.rank(of:)`; no allocation.
  @inlinable
  package static func range(containing target: UInt64, inPassedBlock bytes: ByteView, ranges: Int, labelled: Bool)
    -> (index: Int, labelId: UInt64)?
  {
    guard let base = unsafe bytes.base?.assumingMemoryBound(to: UInt8.self) else { return nil }
    var parts = unsafe calldir_raw_block()
    let numbers = Int64(truncatingIfNeeded: 2 &* ranges)
    guard
      unsafe calldir_raw_block_parse(
        base, bytes.count, numbers, Int64(truncatingIfNeeded: ranges), labelled ? 1 : 0,
        Int64(2 &* FormatConstants.maximumEntriesPerBlock), &parts) != 0
    else { return nil }
    // The parse placed every part inside `bytes`.
    let rank = unsafe calldir_elias_fano_rank(
      parts.low, parts.low_length, parts.high, parts.high_length, parts.offsets, parts.low_bits, target)
    let equal = rank & 1 == 1
    let atMost = Int(truncatingIfNeeded: rank >> 1) &+ (equal ? 1 : 0)
    guard atMost & 1 == 0 || equal else { return nil }
    return (atMost >> 1, unsafe calldir_raw_block_label_id(&parts, Int64(atMost >> 1)))
  }
}
