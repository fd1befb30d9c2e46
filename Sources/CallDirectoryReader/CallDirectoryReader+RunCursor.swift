import CallDirectoryFormat

extension CallDirectoryReader {
  /// A pull cursor over `kind`'s runs (single entries and ranges merged by first number), for
  /// callers that walk two directories side by side.
  package func runCursor(_ kind: EntryKind) -> RunCursor { RunCursor(reader: self, kind: kind) }
}

/// The runs of one kind in ascending order, pulled one at a time: the same sequence
/// `forEachBlockingRun` and `forEachIdentificationRun` push. Memory: one block.
package struct RunCursor {
  /// One run: its numbers and, for identification, its label.
  package struct Run: Equatable {
    /// The numbers, a single number as a range of one.
    package var numbers: ClosedRange<Int64>
    /// The label (`nil` for blocking).
    package var label: String?
  }

  private let reader: CallDirectoryReader
  private let kind: EntryKind
  private let ranges: RangeTable.Shape
  private var singles: EntryCursor
  private var nextRange = 0
  private var pendingSingle: EntryCursor.Entry?
  private var rangesChecked = false
  private var singlesDone = false
  /// The label cache's whole table, loaded at the first label (empty for a table over the
  /// cache's budget, whose labels then come from the cache one by one).
  private var whole: [String]?

  init(reader: CallDirectoryReader, kind: EntryKind) {
    self.reader = reader
    self.kind = kind
    ranges = reader.shape.ranges(kind)
    singles = reader.cursor(kind)
  }

  /// The next run, or `nil` after the last.
  /// - Throws: `FormatError` for a damaged block, label or range section.
  package mutating func next() throws(FormatError) -> Run? {
    if !rangesChecked {
      try reader.checkRanges(kind)
      rangesChecked = true
    }
    if pendingSingle == nil && !singlesDone {
      pendingSingle = try singles.next()
      singlesDone = pendingSingle == nil
    }
    let reader = self.reader
    let ranges = RangeTable(self.ranges, in: reader.file)
    let rangeFirst = nextRange < ranges.count ? ranges.first(nextRange) : nil
    if let rangeFirst, pendingSingle.map({ rangeFirst < UInt64($0.number) }) ?? true {
      // Checked by checkRanges: both ends in range.
      let numbers = Int64(rangeFirst)...Int64(ranges.last(nextRange))
      let label = try label(ranges.labelId(nextRange))
      nextRange += 1
      return Run(numbers: numbers, label: label)
    }
    guard let single = pendingSingle else { return nil }
    pendingSingle = nil
    return Run(numbers: single.number...single.number, label: try label(single.labelId))
  }

  /// Label `id`: a walk over every run meets every label, so the first one loads the table
  /// whole, in order, as the label streams do.
  private mutating func label(_ id: UInt32) throws(FormatError) -> String? {
    guard kind == .identification else { return nil }
    let whole: [String]
    if let loaded = self.whole {
      whole = loaded
    } else {
      whole = try reader.labelCache.loadWhole()
      self.whole = whole
    }
    return Int(id) < whole.count ? whole[Int(id)] : try reader.labelCache.label(Int(id))
  }
}
