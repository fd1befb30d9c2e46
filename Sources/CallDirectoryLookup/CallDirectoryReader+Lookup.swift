import CallDirectoryFormat
import CallDirectoryReader

/// What a directory says about one number.
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
  /// Whether `number` is in the blocking set.
  ///
  /// Binary search over the index to the one block that can hold `number`, then an Elias-Fano
  /// search inside it: no other block is read, nothing is allocated unless the block is deflated.
  /// - Throws: `FormatError` when the block the search lands on is malformed.
  /// - Complexity: O(log n).
  public func isBlocked(_ number: Int64) throws(FormatError) -> Bool {
    try position(of: number, in: .blocking) { _, _ in true } ?? false
  }

  /// The label id of `number`'s identification entry, or `nil` when it has none.
  /// - Throws: `FormatError` when the block the search lands on is malformed.
  /// - Complexity: O(log n).
  public func labelId(for number: Int64) throws(FormatError) -> UInt32? {
    try position(of: number, in: .identification) { payload, entry in payload.labelId(at: entry) }
  }

  /// The label of `number`'s identification entry, or `nil` when it has none.
  /// - Throws: `FormatError` when the entry's block or its label's block is malformed, or the
  ///   entry names a label the table does not have.
  /// - Complexity: O(log n) plus reading one label block.
  public func label(for number: Int64) throws(FormatError) -> String? {
    guard let id = try labelId(for: number) else { return nil }
    guard let label = try label(id: Int(id)) else {
      throw FormatError(.labelIdOutOfRange(id: id, labelCount: labelCount), at: 0, section: SectionType.identificationData.rawValue)
    }
    return label
  }

  /// Whether `number` is blocked and its label.
  /// - Throws: `FormatError` as `isBlocked(_:)` and `label(for:)` do.
  /// - Complexity: O(log n).
  public func lookup(_ number: Int64) throws(FormatError) -> LookupResult {
    LookupResult(blocked: try isBlocked(number), label: try label(for: number))
  }

  /// Finds `number` among `kind`'s entries and returns `found(payload, entry)` for it, or `nil`.
  @inline(__always)
  private func position<R>(
    of number: Int64, in kind: EntryKind, _ found: (EntryPayload, Int) -> R
  ) throws(FormatError) -> R? {
    let index = layout.index(kind)
    guard number > 0, let block = index.block(containing: UInt64(number)) else { return nil }
    let target = UInt64(number) &- index.firstNumber(ofBlock: block)  // first <= number: no wrap
    let entryBlock = try layout.entryBlock(kind, block)
    do {
      return try entryBlock.withPayload { (payload) throws(FormatError) -> R? in
        if target == 0 { return found(payload, 0) }
        guard let entry = payload.numbers.find(target) else { return nil }
        return found(payload, entry)
      }
    } catch {
      throw error.placed(in: kind.sections.data.rawValue, base: layout.blockOffset(kind, block))
    }
  }
}
