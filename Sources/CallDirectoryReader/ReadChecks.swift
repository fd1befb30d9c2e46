import CallDirectoryFormat
import Synchronization

/// What a reader has checked of its file, so that no answer comes from a byte whose check has not
/// run (`Spec/FORMAT.md` section 14), while a warm lookup pays an atomic load a part for it.
///
/// A lookup of one kind depends on the kind's index, top index (with its summary: one part) and
/// range table, which are checked whole on the first lookup of the kind, and on one entry block,
/// checked whole (its CRC) the first time a lookup lands on it. An index with group checks
/// (version 2.5) is checked a group at a time instead: the first lookup of the kind checks the
/// group checks whole, and the first lookup that lands on a block checks the block's group of
/// records before its CRC, so that a new reader's first lookup reads a few pages, not the index.
/// A top with summary checks is checked a group at a time in the same way, with the group
/// checks of its samples, where the first lookup checks the summary and its checks whole. An identification lookup also
/// depends on the label index (its header holds the label count that label ids are checked
/// against, its records say which block holds which label), checked with the kind's other parts
/// and before the first label is located; label blocks are checked by the label cache as it
/// decodes them.
/// A part that fails its check is remembered with its error, so a damaged part costs its check
/// once, not on every query. A reader whose file the verifier passed whole checks nothing more.
@usableFromInline package final class ReadChecks: Sendable {
  /// A part of the file checked whole before its first use.
  @usableFromInline @frozen package enum Part: Int, Sendable, CaseIterable {
    /// What a lookup needs of the kind's index checked whole: the index itself, or its group
    /// checks when it has them.
    case blockingIndex, identificationIndex
    case blockingTop, identificationTop
    case blockingRanges, identificationRanges, labelIndex

    @inlinable var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The parts a lookup of `kind` reads besides its entry block and its labels.
    @inlinable static func lookup(_ kind: EntryKind) -> UInt32 {
      kind == .blocking
        ? blockingIndex.bit | blockingTop.bit | blockingRanges.bit
        : identificationIndex.bit | identificationTop.bit | identificationRanges.bit | labelIndex.bit
    }
  }

  @usableFromInline let passed = Atomic<UInt32>(0)
  private let failures = Mutex<[Part: FormatError]>([:])
  @usableFromInline let blockingBlocks: AtomicBits
  @usableFromInline let identificationBlocks: AtomicBits
  // The groups of index records that passed their group checks (none without group checks), and
  // the groups of the top that passed their summary checks (none without summary checks).
  private let blockingGroups: AtomicBits
  private let identificationGroups: AtomicBits
  private let blockingTopGroups: AtomicBits
  private let identificationTopGroups: AtomicBits
  // The group checks of each kind, once checked whole (an index without summary checks), kept so
  // that checking a group later reads no page of them: 4 bytes a group of 64 blocks.
  private let groupCheckCopies = Mutex<(blocking: [UInt32], identification: [UInt32])>(([], []))

  /// Nothing checked yet, for a file of `layout`.
  /// - Complexity: O(entry blocks / 64).
  init(shape: DirectoryLayout.Shape) {
    blockingBlocks = AtomicBits(count: shape.blockingIndex.blockCount)
    identificationBlocks = AtomicBits(count: shape.identificationIndex.blockCount)
    blockingGroups = AtomicBits(count: shape.blockingIndex.groupChecks?.count ?? 0)
    identificationGroups = AtomicBits(count: shape.identificationIndex.groupChecks?.count ?? 0)
    blockingTopGroups = AtomicBits(count: shape.blockingIndex.summaryChecks?.count ?? 0)
    identificationTopGroups = AtomicBits(count: shape.identificationIndex.summaryChecks?.count ?? 0)
  }

  /// Whether every part in `parts` (bits of `Part`) has passed (the whole file's pass sets them
  /// all).
  @inlinable @inline(__always)
  package func havePassed(_ parts: UInt32) -> Bool {
    passed.load(ordering: .relaxed) & parts == parts
  }

  /// Runs `check` for `part` unless it has passed; remembers a pass, or the error it threw.
  /// - Throws: the error `check` threw, now or the first time.
  func ensure(_ part: Part, _ check: () throws(FormatError) -> Void) throws(FormatError) {
    if havePassed(part.bit) { return }
    if let failure = failures.withLock({ $0[part] }) { throw failure }
    do { try check() } catch {
      failures.withLock { $0[part] = error }
      throw error
    }
    passed.bitwiseOr(part.bit, ordering: .relaxed)
  }

  /// Whether entry block `block` of `kind` has passed its check (its own, or the whole file's,
  /// which sets every block's bit).
  @inlinable @inline(__always)
  package func hasPassed(_ kind: EntryKind, block: Int) -> Bool {
    // Each set is a noncopyable value read in place: no reference is copied, so no count is taken.
    kind == .blocking ? blockingBlocks.contains(block) : identificationBlocks.contains(block)
  }

  /// Records that entry block `block` of `kind` passed its check.
  func pass(_ kind: EntryKind, block: Int) {
    if kind == .blocking { blockingBlocks.insert(block) } else { identificationBlocks.insert(block) }
  }

  /// Whether group `group` of `kind`'s index records (or of its top's samples, `top`) has
  /// passed its check.
  func hasPassed(_ kind: EntryKind, group: Int, top: Bool = false) -> Bool {
    switch (kind, top) {
    case (.blocking, false): blockingGroups.contains(group)
    case (.identification, false): identificationGroups.contains(group)
    case (.blocking, true): blockingTopGroups.contains(group)
    case (.identification, true): identificationTopGroups.contains(group)
    }
  }

  /// Records that group `group` of `kind`'s index records (or of its top's samples, `top`)
  /// passed its check.
  func pass(_ kind: EntryKind, group: Int, top: Bool = false) {
    switch (kind, top) {
    case (.blocking, false): blockingGroups.insert(group)
    case (.identification, false): identificationGroups.insert(group)
    case (.blocking, true): blockingTopGroups.insert(group)
    case (.identification, true): identificationTopGroups.insert(group)
    }
  }

  /// Keeps `kind`'s group checks, which have passed their section's check.
  func keep(_ kind: EntryKind, groupChecks: [UInt32]) {
    groupCheckCopies.withLock { if kind == .blocking { $0.blocking = groupChecks } else { $0.identification = groupChecks } }
  }

  /// Group check `group` of `kind`, when `keep(_:groupChecks:)` kept them.
  func groupCheck(_ kind: EntryKind, _ group: Int) -> UInt32? {
    groupCheckCopies.withLock { copies in
      let checks = kind == .blocking ? copies.blocking : copies.identification
      return group < checks.count ? checks[group] : nil
    }
  }

  /// Records that the whole file passed verification: every part's bit and every block's, which
  /// a lookup reads alone.
  func passWholeFile() {
    blockingBlocks.insertAll()
    identificationBlocks.insertAll()
    passed.bitwiseOr(Part.allCases.reduce(0) { $0 | $1.bit }, ordering: .relaxed)
  }
}
