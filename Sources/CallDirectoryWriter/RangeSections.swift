import CallDirectoryFormat

/// One kind's range sections in canonical form (`Spec/FORMAT.md` sections 10 and 10.1): fixed
/// records, or range blocks under a range index when those are shorter.
enum RangeSections {
  /// The ranges per block of the canonical writer.
  static let rangesPerBlock = 128

  /// The sections for `ranges` (ascending, disjoint, each of two numbers or more) and their label
  /// ids (`nil` for blocking ranges): none when there are no ranges.
  static func encode(_ ranges: [(ClosedRange<Int64>, UInt32?)], kind: EntryKind) -> [(SectionType, [UInt8])] {
    guard !ranges.isEmpty else { return [] }
    let fixed = fixedSection(ranges)
    let (index, data) = blocks(ranges)
    let sections = kind.rangeSections
    // Ties keep the fixed records, which every version 2 reader reads.
    guard index.count + data.count < fixed.count else { return [(sections.fixed, fixed)] }
    return [(sections.blockIndex, index), (sections.blockData, data)]
  }

  /// A fixed range section: the count, then each range's ends and, when labelled, its label id.
  static func fixedSection(_ ranges: [(ClosedRange<Int64>, UInt32?)]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt64LE(UInt64(ranges.count))
    for (range, label) in ranges {
      bytes.appendUInt64LE(UInt64(range.lowerBound))
      bytes.appendUInt64LE(UInt64(range.upperBound))
      if let label {
        bytes.appendUInt32LE(label)
        bytes.appendUInt32LE(0)
      }
    }
    return bytes
  }

  /// The range index and range data sections: blocks of `rangesPerBlock` ranges, the last the
  /// rest, each indexed by its first number, offset and count, as entry blocks are.
  static func blocks(_ ranges: [(ClosedRange<Int64>, UInt32?)]) -> (index: [UInt8], data: [UInt8]) {
    var index: [UInt8] = []
    index.appendUInt64LE(UInt64(ranges.count))
    index.appendUInt32LE(UInt32(rangesPerBlock))
    index.appendUInt32LE(0)
    var data: [UInt8] = []
    for start in stride(from: 0, to: ranges.count, by: rangesPerBlock) {
      let block = ranges[start..<min(start + rangesPerBlock, ranges.count)]
      index.appendUInt64LE(UInt64(block[start].0.lowerBound))
      // The offset in 48 bits, the range count minus one (below 4096) in the top 16.
      index.appendUInt64LE(UInt64(data.count) | UInt64(block.count - 1) << 48)
      data += RangeBlock.encode(
        block.map { (first: $0.0.lowerBound, last: $0.0.upperBound) }[...], labelIds: block.compactMap(\.1)[...])
    }
    return (index, data)
  }
}
