import CProcessor
import CallDirectoryFormat
import CallDirectoryReader

/// What a directory says about one number.
///
///     let result = try reader.lookup(33_612_345_678)
///     if result.blocked {
///       print("blocked")
///     } else if let label = result.label {
///       print("caller: \(label)")
///     }
public struct LookupResult: Sendable, Equatable {
  /// Whether the number is in the blocking set.
  public var blocked: Bool
  /// The number's identification label, if it has one.
  public var label: String?

  /// A result with the given fields.
  public init(blocked: Bool, label: String?) {
    self.blocked = blocked
    self.label = label
  }
}

extension CallDirectoryReader {
  /// Whether `number` is blocked: a blocking entry, or inside a blocking range.
  ///
  /// Binary search over the index to the one block that can hold `number`, then an Elias-Fano
  /// search inside it: no other block is read, nothing is allocated unless the block is deflated;
  /// then a binary search over the ranges. No answer comes from unchecked bytes: the first
  /// blocking lookup checks the blocking index, top index and ranges whole, and the first lookup
  /// that lands on a block checks that block's CRC; each is remembered by the reader.
  /// - Throws: `FormatError` when a part the answer depends on is damaged.
  /// - Complexity: O(log n + log r) for n entries and r ranges; the first lookup of the kind adds
  ///   O(index + r), and the first that lands on a block O(block).
  // Inlinable, as `labelId(for:)` and `label(for:)` are, with the few lines it runs on every
  // call, so that a caller in another module calls the C search directly: no frame of its own,
  // which cost 15 of some 430 instructions.
  @inlinable
  public func isBlocked(_ number: Int64) throws(FormatError) -> Bool {
    try checkLookupParts(.blocking)
    // Ranges first: a valid file has no entry inside a range of its kind (Spec/FORMAT.md 10), so
    // the order changes no answer, and a number a range holds then costs one search, not two.
    if number > 0 && range(.blocking, containing: UInt64(number)) != nil { return true }
    return try find(number, in: .blocking) != nil
  }

  /// The label id of `number`'s identification entry or range, or `nil` when it has none.
  ///
  /// Checked as `isBlocked(_:)` is, over the identification index, top index, ranges and block.
  /// - Throws: `FormatError` when a part the answer depends on is damaged, or the id is not in
  ///   the label table.
  /// - Complexity: O(log n + log r), plus the first-use checks of `isBlocked(_:)`.
  @inlinable
  public func labelId(for number: Int64) throws(FormatError) -> UInt32? {
    try checkLookupParts(.identification)
    var found = number > 0 ? range(.identification, containing: UInt64(number)).map { UInt64($0.labelId) } : nil
    if found == nil { found = try find(number, in: .identification) }
    guard let id = found else { return nil }
    guard id < UInt64(labelCount) else {
      throw FormatError(
        .labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: labelCount), at: 0,
        section: SectionType.identificationData.rawValue)
    }
    return UInt32(id)  // below the label count, a UInt32
  }

  /// The label of `number`'s identification entry, or `nil` when it has none.
  /// - Throws: `FormatError` when the entry's block or its label's block is malformed, or the
  ///   entry names a label the table does not have.
  /// - Complexity: O(log n) plus reading one label block.
  @inlinable
  public func label(for number: Int64) throws(FormatError) -> String? {
    guard let id = try labelId(for: number) else { return nil }
    guard let label = try label(id: Int(id)) else {
      throw FormatError(
        .labelIdOutOfRange(id: id, labelCount: labelCount), at: 0, section: SectionType.identificationData.rawValue)
    }
    return label
  }

  /// Whether `number` is blocked and its label.
  /// - Throws: `FormatError` as `isBlocked(_:)` and `label(for:)` do.
  /// - Complexity: O(log n).
  public func lookup(_ number: Int64) throws(FormatError) -> LookupResult {
    LookupResult(blocked: try isBlocked(number), label: try label(for: number))
  }

  /// Finds `number` among `kind`'s entries: its label id (0 for blocking entries), or `nil`.
  /// The caller has run `checkLookupParts(kind)`; the block is checked here.
  ///
  /// A raw block that has passed its checks is searched in place with nothing built but the
  /// payload's parts (`quickFind`); the first lookup of a block, a deflated one, and one whose
  /// bytes no longer parse take the checked path (`checkedFind`), which throws what it finds. The
  /// checked path is out of line: its views and errors would otherwise widen every lookup's frame.
  // Inlined into each caller, whose kind is a constant: the choices between the two kinds fold
  // away. `@_transparent`, since Swift 6.3 left an `@inline(__always)` function here a call (12
  // instructions a lookup for its frame and saves).
  @usableFromInline @_transparent
  func find(_ number: Int64, in kind: EntryKind) throws(FormatError) -> UInt64? {
    guard number > 0 else { return nil }
    switch quickFind(UInt64(number), in: kind) {
    case .found(let id): return id
    case .absent: return nil
    case .check(let block, let target): return try checkedFind(target, inBlock: block, of: kind)
    }
  }

  /// What the quick path found.
  @usableFromInline enum QuickFind {
    /// The entry's label id (0 for a blocking entry).
    case found(UInt64)
    /// No entry has the number.
    case absent
    /// The number is `target` above the first number of `block`, which the checked path reads.
    case check(block: Int, target: UInt64)
  }

  /// The warm path, one C call (`calldir_entry_find`, CProcessor's entry_find.h, over the plan the
  /// reader made at open): the index levels to the one block that can hold `number`, then, when
  /// that block has passed its checks and is raw, its frame read again and the Elias-Fano rank of
  /// `number`'s offset inside it. Any other block goes to the checked path.
  @inlinable @inline(__always)
  func quickFind(_ number: UInt64, in kind: EntryKind) -> QuickFind {
    let found = unsafe calldir_entry_find(lookupPlans.plan(kind), number)  // the plan lives as long as `self`
    if found.block >= 0 { return .check(block: Int(truncatingIfNeeded: found.block), target: found.value) }
    return found.block == Int64(CALLDIR_FOUND) ? .found(found.value) : .absent
  }

  /// The checked path of `find`: the block's frame and payload parsed into checked views, its CRC
  /// checked the first time, then the same search.
  @usableFromInline @inline(never)
  func checkedFind(_ target: UInt64, inBlock block: Int, of kind: EntryKind) throws(FormatError) -> UInt64? {
    let entryBlock = try checkedEntryBlock(kind, block, prefetching: true)
    if entryBlock.block.codec == .raw {
      return try entryBlock.payload(entryBlock.block.body).labelId(ofEntryAt: target)
    }
    return try entryBlock.withPayload { (payload) throws(FormatError) -> UInt64? in payload.labelId(ofEntryAt: target) }
  }
}
