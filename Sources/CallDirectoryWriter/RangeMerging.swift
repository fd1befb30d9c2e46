import CallDirectoryFormat

/// The canonical form of ranges (`Spec/FORMAT.md`, "Range sections"): ascending and disjoint,
/// blocking ranges merged when they overlap or touch, identification ranges merged when they do
/// with the same label, and single entries dropped when a range of their kind covers them.
enum RangeMerging {
  /// Blocking ranges sorted and merged.
  static func blocking(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
    var merged: [ClosedRange<Int64>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      // upperBound <= Int64.max - 1, so + 1 cannot overflow.
      if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
        merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }

  /// Identification ranges sorted, renumbered to the sorted label ids, and merged.
  /// - Throws: `WriterError.overlappingRanges` for two ranges that overlap with different labels.
  static func identification(
    _ ranges: [IdentificationRange], labelOrder newId: [UInt32], sortedLabels labels: [[UInt8]]
  ) throws(WriterError) -> [IdentificationRange] {
    let sorted = ranges.map { IdentificationRange(range: $0.range, label: newId[Int($0.label)]) }
      .sorted { $0.range.lowerBound < $1.range.lowerBound || ($0.range.lowerBound == $1.range.lowerBound && $0.label < $1.label) }
    var merged: [IdentificationRange] = []
    for range in sorted {
      guard let last = merged.last else {
        merged.append(range)
        continue
      }
      if range.range.lowerBound <= last.range.upperBound {
        guard range.label == last.label else {
          throw .overlappingRanges(
            first: last.range, firstLabel: String(decoding: labels[Int(last.label)], as: UTF8.self), second: range.range,
            secondLabel: String(decoding: labels[Int(range.label)], as: UTF8.self))
        }
        merged[merged.count - 1].range = last.range.lowerBound...max(last.range.upperBound, range.range.upperBound)
      } else if range.range.lowerBound == last.range.upperBound + 1 && range.label == last.label {
        merged[merged.count - 1].range = last.range.lowerBound...range.range.upperBound
      } else {
        merged.append(range)
      }
    }
    return merged
  }

  /// `numbers` (ascending) without those inside `ranges` (ascending, disjoint).
  static func dropCovered(_ numbers: [Int64], by ranges: [ClosedRange<Int64>]) -> [Int64] {
    guard !ranges.isEmpty else { return numbers }
    var kept: [Int64] = []
    kept.reserveCapacity(numbers.count)
    var next = 0
    for number in numbers {
      while next < ranges.count && ranges[next].upperBound < number { next += 1 }
      if next < ranges.count && ranges[next].contains(number) { continue }
      kept.append(number)
    }
    return kept
  }

  /// Identification entries (ascending, sorted label ids) without those inside a same-label range.
  /// - Throws: `WriterError.numberInsideRange` for an entry inside a range with a different label.
  static func dropCovered(
    _ entries: (numbers: [Int64], labels: [UInt32]), by ranges: [IdentificationRange], labels: [[UInt8]]
  ) throws(WriterError) -> (numbers: [Int64], labels: [UInt32]) {
    guard !ranges.isEmpty else { return entries }
    var kept: (numbers: [Int64], labels: [UInt32]) = ([], [])
    var next = 0
    for (number, label) in zip(entries.numbers, entries.labels) {
      while next < ranges.count && ranges[next].range.upperBound < number { next += 1 }
      if next < ranges.count && ranges[next].range.contains(number) {
        guard ranges[next].label == label else {
          throw .numberInsideRange(
            number: number, label: String(decoding: labels[Int(label)], as: UTF8.self), range: ranges[next].range,
            rangeLabel: String(decoding: labels[Int(ranges[next].label)], as: UTF8.self))
        }
        continue
      }
      kept.numbers.append(number)
      kept.labels.append(label)
    }
    return kept
  }
}
