import CProcessor
import CallDirectoryFormat

/// What a warm lookup of each kind reads, as addresses in a reader's bytes and in its bits of
/// checked blocks: the plan CProcessor's `calldir_entry_find` searches (`entry_find.h`), made once
/// when the reader opens, so that a lookup passes one pointer where it would read the index's
/// shape and make a view of each part again on every call.
///
/// The one owner of the plans' memory, held by the reader in a `let` beside the storage and the
/// checks its addresses point into: all three live exactly as long as the reader, and a plan is
/// only read inside the reader's own methods.
@safe @usableFromInline package struct LookupPlans: ~Copyable, @unchecked Sendable {
  /// The blocking plan, then the identification plan.
  @usableFromInline let plans: UnsafeMutablePointer<calldir_entry_plan>

  /// The plans of `shape`'s two indexes over `storage`, the bytes the shape was parsed from, with
  /// the block bits of `checks`.
  /// - Complexity: O(1).
  init(storage: FileStorage, shape: DirectoryLayout.Shape, checks: ReadChecks) {
    unsafe plans = .allocate(capacity: 2)
    let bytes = unsafe storage.bytes
    unsafe plans.initialize(
      to: Self.plan(
        shape.blockingIndex, data: shape.dataOffsets.blocking, bytes: bytes, passed: checks.blockingBlocks,
        labelled: false))
    unsafe (plans + 1).initialize(
      to: Self.plan(
        shape.identificationIndex, data: shape.dataOffsets.identification, bytes: bytes,
        passed: checks.identificationBlocks, labelled: true))
  }

  deinit {
    unsafe plans.deallocate()
  }

  /// The plan of `kind`, for as long as the reader that holds it.
  @inlinable @inline(__always)
  package func plan(_ kind: EntryKind) -> UnsafePointer<calldir_entry_plan> {
    unsafe UnsafePointer(plans + (kind == .blocking ? 0 : 1))
  }

  /// One kind's plan: `index`'s ranges (checked against the file by its parser) as addresses in
  /// `bytes`, its data section at `data`, and the block bits `passed`. Without bytes (an empty
  /// file) every count is 0 and no address is read.
  private static func plan(
    _ index: EntryIndex.Shape, data: Int, bytes: UnsafeRawBufferPointer, passed: borrowing AtomicBits, labelled: Bool
  ) -> calldir_entry_plan {
    guard let base = unsafe bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
      var empty = unsafe calldir_entry_plan()
      unsafe empty.find = calldir_entry_best_finder(labelled ? 1 : 0)
      return unsafe empty
    }
    // A level the index does not have: a stride and count of 0, which the search tests first.
    let (top, summary, checkedTop) = (index.top, index.summary, index.checkedTop)
    // An `Atomic<UInt64>` is laid out as its value; the C search loads the words relaxed, as
    // `AtomicBits.contains` does.
    let words = unsafe UnsafeRawPointer(passed.words).assumingMemoryBound(to: UInt64.self)
    return unsafe calldir_entry_plan(
      records: base + index.records.offset, block_count: Int64(index.blockCount),
      // With a checked top, its groups are searched: the bytes checked a group at a time.
      top: base + (checkedTop?.bytes.offset ?? top?.samples.offset ?? 0), top_stride: Int64(top?.stride ?? 0),
      top_count: Int64(top?.count ?? 0), summary: base + (summary?.samples.offset ?? 0),
      summary_stride: Int64(summary?.stride ?? 0), summary_count: Int64(summary?.count ?? 0),
      top_gap: Int64(checkedTop?.gap ?? 0), data: base + data, data_length: UInt64(index.counts.dataLength),
      entries_per_block: Int64(index.counts.entriesPerBlock), entry_count: Int64(index.counts.entryCount),
      counted_blocks: index.counts.countedBlocks ? 1 : 0, labelled: labelled ? 1 : 0, passed: words,
      passed_count: Int64(passed.count), offset_mask: index.counts.countedBlocks ? EntryIndex.Counts.offsetMask : ~0,
      find: calldir_entry_best_finder(labelled ? 1 : 0))
  }
}
