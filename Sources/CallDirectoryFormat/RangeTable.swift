/// A range section: ascending, disjoint intervals of numbers, each inclusive, with a label id in
/// identification ranges (`Spec/FORMAT.md`, "Range sections").
///
/// Records have a fixed size, so a lookup binary-searches them in place. Parsing checks only the
/// section's size (O(1)); record values are checked by the verifier, and by a reader with the
/// section's CRC before its first lookup (`Spec/FORMAT.md` section 14). Unchecked, a damaged
/// table could give wrong answers, never a trap.
@usableFromInline package struct RangeTable: Sendable {
  /// The number of ranges.
  @usableFromInline package let count: Int
  /// Whether records carry a label id (identification ranges).
  @usableFromInline package let labelled: Bool
  /// The records.
  @usableFromInline package let records: ByteView

  /// An empty table, for a kind without ranges.
  @usableFromInline package init(labelled: Bool) {
    count = 0
    self.labelled = labelled
    records = ByteView()
  }

  /// Checks and wraps a range section.
  /// - Throws: `FormatError` (section-relative offsets) when its length does not match its count.
  /// - Complexity: O(1).
  @usableFromInline package init(parsing section: ByteView, labelled: Bool) throws(FormatError) {
    guard let rawCount = section.uint64LE(at: 0) else {
      throw FormatError(.truncated(needed: FormatConstants.rangeHeaderSize, available: section.count), at: 0)
    }
    let size = UInt64(labelled ? FormatConstants.identificationRangeSize : FormatConstants.blockingRangeSize)
    let recordBytes = UInt64(section.count - FormatConstants.rangeHeaderSize)
    guard recordBytes % size == 0, rawCount == recordBytes / size else {
      throw FormatError(.malformedIndex("\(rawCount) ranges need \(rawCount > recordBytes ? "more than \(recordBytes)" : String(rawCount * size)) bytes of records, the section has \(recordBytes)"), at: 0)
    }
    count = Int(rawCount)  // bounded by the section's length
    self.labelled = labelled
    records = try section.dropFirst(FormatConstants.rangeHeaderSize)
  }

  /// The record size in bytes.
  @inlinable
  package var recordSize: Int { labelled ? FormatConstants.identificationRangeSize : FormatConstants.blockingRangeSize }

  /// The first number of range `index`, as stored. Precondition: `0 <= index < count`.
  @inlinable
  package func first(_ index: Int) -> UInt64 { unsafe records.uncheckedUInt64LE(at: index &* recordSize) }

  /// The last number of range `index`, as stored. Precondition: `0 <= index < count`.
  @inlinable
  package func last(_ index: Int) -> UInt64 { unsafe records.uncheckedUInt64LE(at: index &* recordSize &+ 8) }

  /// The label id of range `index` (0 for blocking ranges). Precondition: `0 <= index < count`.
  @inlinable
  package func labelId(_ index: Int) -> UInt32 {
    labelled ? unsafe records.uncheckedUInt32LE(at: index &* recordSize &+ 16) : 0
  }

  /// The reserved field of range `index` (0 for blocking ranges, which have none).
  @inlinable
  package func reserved(_ index: Int) -> UInt32 {
    labelled ? unsafe records.uncheckedUInt32LE(at: index &* recordSize &+ 20) : 0
  }

  /// The range that contains `number`, if any.
  /// - Complexity: O(log count).
  @inlinable
  package func range(containing number: UInt64) -> Int? {
    var low = 0
    var high = count  // ranges < low start at or below `number`, ranges >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if first(middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0, number <= last(low &- 1) else { return nil }
    return low &- 1
  }
}

extension RangeTable {
  /// Range `index` as numbers, checked against the rules of `Spec/FORMAT.md` "Range sections":
  /// ends in `1 ... Int64.max - 1`, `first < last`, above the range before it (`previous`: its
  /// last number and label id), not adjacent to it unless labelled differently, reserved zero.
  ///
  /// - Returns: the range and its label id, or what is wrong with it.
  @usableFromInline package func checkedRange(
    _ index: Int, after previous: (last: Int64, labelId: UInt32)?
  ) -> Result<(range: ClosedRange<Int64>, labelId: UInt32), FormatError> {
    let at = FormatConstants.rangeHeaderSize &+ index &* recordSize
    let first = first(index)
    let last = last(index)
    for value in [first, last] where value < UInt64(Limits.minimumNumber) || value > UInt64(Limits.maximumNumber) {
      return .failure(FormatError(.numberOutOfRange(value), at: at))
    }
    guard first < last else {
      return .failure(FormatError(.invalidField(field: "range end (a range's last number must exceed its first)", value: last), at: at &+ 8))
    }
    guard reserved(index) == 0 else { return .failure(FormatError(.nonzeroReserved(field: "range record"), at: at &+ 20)) }
    let range = Int64(first)...Int64(last)  // both in range, just checked
    let label = labelId(index)
    if let previous {
      // previous.last <= Int64.max - 1, so + 1 cannot overflow.
      let touches = range.lowerBound == previous.last + 1 && (!labelled || label == previous.labelId)
      guard range.lowerBound > previous.last, !touches else {
        return .failure(FormatError(.notAscending(previous: previous.last, next: range.lowerBound), at: at))
      }
    }
    return .success((range, label))
  }
}
