/// A range block (`Spec/FORMAT.md` section 10.1): the ranges' boundaries `f[0] < l[0] < f[1] <
/// ...` coded as an entry block codes numbers (Elias-Fano offsets from `f[0]`, which the index
/// holds), with one label id a range in identification blocks.
///
/// Parsing checks the frame and the parts' sizes in O(1); `check(after:labelCount:)` checks every
/// rule in O(ranges). Reads of an unchecked block are safe and may give wrong values, never a trap.
@usableFromInline package struct RangeBlock: ~Escapable, Sendable {
  /// The block frame.
  @usableFromInline package let block: Block
  /// The block's first number, from its index record: `f[0]`.
  @usableFromInline package let first: UInt64
  /// The ranges in the block (from the index).
  @usableFromInline package let rangeCount: Int
  /// The offsets `b[j] - b[0]` of boundaries `1 ..< 2m`.
  @usableFromInline package let boundaries: EliasFanoView
  /// The packed label ids relative to `baseLabelId` (empty in blocking blocks).
  @usableFromInline package let labelIds: ByteView
  /// The label-id width.
  @usableFromInline package let labelBits: Int
  /// The value added to every stored label id (0 in blocking blocks).
  @usableFromInline package let baseLabelId: UInt64
  /// Whether the block holds identification ranges.
  @usableFromInline package let labelled: Bool

  /// Checks a range block's frame, header and parts.
  /// - Parameters:
  ///   - bytes: the block's bytes; `place`: where they lie; `number`: the block's number.
  ///   - first: the first number from the index record; `rangeCount`: the ranges it says (1 ... 4096).
  /// - Throws: `FormatError`, placed in the file: a bad frame, a deflated block, a header field
  ///   out of range, or a payload too short for its fixed-size parts.
  @usableFromInline @_lifetime(copy bytes)
  package init(
    parsing bytes: ByteView, at place: FilePlace, number: Int, first: UInt64, rangeCount: Int, labelled: Bool
  ) throws(FormatError) {
    block = try Block(parsing: bytes, at: place, number: number, maximumPayload: FormatConstants.maximumEntryPayload)
    guard block.codec == .raw else {
      throw place.error(.malformedBlock(block: number, reason: "a range block must be stored raw (codec 0)"))
    }
    let lowBits = Int(block.header.1)
    labelBits = Int(block.header.2)
    guard lowBits <= FormatConstants.maximumLowBits else {
      throw place.error(.invalidField(field: "low bits", value: UInt64(lowBits)), at: 1)
    }
    guard labelled ? labelBits <= FormatConstants.maximumLabelBits : labelBits == 0 else {
      throw place.error(.invalidField(field: "label bits", value: UInt64(labelBits)), at: 2)
    }
    guard block.header.3 == 0 else { throw place.error(.nonzeroReserved(field: "range block header"), at: 3) }
    guard rangeCount >= 1, rangeCount <= FormatConstants.maximumEntriesPerBlock else {
      throw place.error(.malformedBlock(block: number, reason: "\(rangeCount) ranges"))
    }
    // An entry block's payload over the 2m boundaries, with m label ids.
    let parts = try EntryPayload(
      block.body, entryCount: 2 &* rangeCount, lowBits: lowBits, labelBits: labelBits, identification: labelled,
      block: number, place: place, labelFields: rangeCount)
    baseLabelId = parts.baseLabelId
    labelIds = parts.labelIds
    boundaries = parts.numbers
    self.first = first
    self.rangeCount = rangeCount
    self.labelled = labelled
  }

  /// Range `index` of the block as stored: its first and last numbers. Precondition:
  /// `0 <= index < rangeCount`.
  @inlinable
  package func range(_ index: Int) -> (first: UInt64, last: UInt64) {
    let start = index == 0 ? 0 : boundaries.offset(at: 2 &* index &- 1)
    return (first &+ start, first &+ boundaries.offset(at: 2 &* index))
  }

  /// The label id of range `index` (0 in blocking blocks): the base plus the stored field.
  @inlinable
  package func labelId(_ index: Int) -> UInt64 {
    labelled ? baseLabelId &+ BitPacking.field(labelIds, bitOffset: index &* labelBits, width: labelBits) : 0
  }

  /// Checks every rule of the block: the Elias-Fano code, zero padding, ascending disjoint ranges
  /// in `1 ... Int64.max - 1` above the range before the block (`previous`: its last number and
  /// label id), the adjacency rule of `Spec/FORMAT.md` section 10, and label ids below
  /// `labelCount`.
  /// - Returns: the block's last range (its last number and label id), or the first problem,
  ///   placed at the block.
  /// - Complexity: O(ranges).
  package func check(after previous: (last: Int64, labelId: UInt32)?, labelCount: Int) -> Result<
    (last: Int64, labelId: UInt32), FormatError
  > {
    let place = block.place
    guard first >= UInt64(Limits.minimumNumber), first <= UInt64(Limits.maximumNumber) else {
      return .failure(place.error(.numberOutOfRange(first)))
    }
    var numbers = [Int64](repeating: 0, count: 2 &* rangeCount)
    numbers[0] = Int64(first)  // checked just above
    if let reason = boundaries.decode(first: Int64(first), into: &numbers) {
      return .failure(place.error(.malformedBlock(block: block.number, reason: reason), at: FormatConstants.blockHeaderSize))
    }
    guard paddingIsZero else {
      return .failure(
        place.error(.malformedBlock(block: block.number, reason: "unused bits are not zero"), at: FormatConstants.blockHeaderSize)
      )
    }
    var last = previous
    for index in 0..<rangeCount {
      let (start, end) = (numbers[2 &* index], numbers[2 &* index &+ 1])
      guard end <= Limits.maximumNumber else { return .failure(place.error(.numberOutOfRange(UInt64(end)))) }
      let id = labelId(index)
      guard !labelled || id < UInt64(labelCount) else {
        return .failure(
          place.error(
            .labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: labelCount), at: FormatConstants.blockHeaderSize))
      }
      let label = UInt32(truncatingIfNeeded: id)
      if let last {
        // last.last <= Int64.max - 1, so + 1 cannot overflow.
        let touches = start == last.last + 1 && (!labelled || label == last.labelId)
        guard start > last.last, !touches else { return .failure(place.error(.notAscending(previous: last.last, next: start))) }
      }
      last = (end, label)
    }
    return .success(last!)  // rangeCount >= 1
  }

  private var paddingIsZero: Bool {
    func tailIsZero(_ part: ByteView, bits: Int) -> Bool {
      let used = bits & 7
      guard used != 0, part.count > 0 else { return true }
      return unsafe part.uncheckedByte(at: part.count &- 1) >> UInt8(used) == 0
    }
    return tailIsZero(labelIds, bits: rangeCount &* labelBits)
      && tailIsZero(boundaries.low, bits: boundaries.count &* boundaries.lowBits)
  }

  /// Encodes a block of ascending, disjoint ranges (each of two numbers or more) and, for
  /// identification, their label ids (empty for blocking), raw, as the canonical writer does.
  package static func encode(_ ranges: ArraySlice<(first: Int64, last: Int64)>, labelIds: ArraySlice<UInt32>) -> [UInt8] {
    var bounds: [Int64] = []
    bounds.reserveCapacity(2 &* ranges.count)
    for range in ranges { bounds += [range.first, range.last] }
    // An entry block's code over the boundaries, with one label id a range: raw, always.
    return EntryBlock.encode(bounds[...], labelIds: labelIds, allowDeflate: false)
  }
}
