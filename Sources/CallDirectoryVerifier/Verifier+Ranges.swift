import CallDirectoryFormat

extension VerificationPass {
  /// Checks every record of `kind`'s range section: ends in range and ordered, ascending and
  /// disjoint, merged where the rules require, reserved fields zero, label ids in the table; and
  /// that a version 1 file with a range section says version 1.1 or later.
  /// - Complexity: O(ranges); memory O(1).
  mutating func checkRanges(_ kind: EntryKind) {
    let table = layout.ranges(kind)
    if let blocks = table.blocks {
      // Range blocks (version 2.2): every block's CRC, code and ranges, in order; the first
      // problem, since a later block's ranges are read against the one before it.
      checkVersion(atLeast: 2, for: "range blocks")
      if let problem = blocks.check(labelCount: layout.labelIndex.labelCount) { problems.record(problem) }
      return
    }
    guard layout.header.section(kind.rangeSection) != nil else { return }
    if layout.header.major == 1 && layout.header.minor < 1 {
      problems.record(
        FormatError(.invalidField(field: "minor version of a file with ranges", value: UInt64(layout.header.minor)), at: 10))
    }
    var previous: (last: Int64, labelId: UInt32)?
    for index in 0..<table.count {
      guard !problems.isOverflowing else { return }
      switch table.checkedRange(index, after: previous) {
      case .failure(let error):
        problems.record(error)
        // Carry on from this record's end, so one bad record is not reported twice.
        previous = (Int64(truncatingIfNeeded: min(table.last(index), UInt64(Limits.maximumNumber))), table.labelId(index))
      case .success(let checked):
        let labelCount = layout.labelIndex.labelCount
        if kind == .identification && Int(checked.labelId) >= labelCount {
          problems.record(table.labelIdError(index, labelCount: labelCount))
        }
        previous = (checked.range.upperBound, checked.labelId)
      }
    }
  }
}
