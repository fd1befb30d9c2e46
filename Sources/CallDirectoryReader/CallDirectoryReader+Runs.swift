import CallDirectoryFormat

extension CallDirectoryReader {
  /// Calls `body` with every blocking entry and range in ascending order, a single number as a
  /// range of one: the whole blocking set, as a listing shows it.
  ///
  /// Singles never lie inside ranges (the format forbids it), so the runs are disjoint. Every
  /// block and the range section are checked before use. Memory: one block.
  /// - Throws: `FormatError` for a damaged block or range section, or what `body` throws.
  /// - Complexity: O(n + r).
  public func forEachBlockingRun<E: Error>(_ body: (ClosedRange<Int64>) throws(E) -> Void) throws(StreamError<E>) {
    try forEachRun(.blocking) { (numbers, _) throws(E) in
      try body(numbers)
    } failure: {
      .consumer($0)
    }
  }

  /// Calls `body` with every identification entry and range, with its label, in ascending order,
  /// a single number as a range of one. Memory: as `forEachIdentification`.
  /// - Throws: `FormatError` for a damaged block, label or range section, or what `body` throws.
  /// - Complexity: O(n + r).
  public func forEachIdentificationRun<E: Error>(_ body: (ClosedRange<Int64>, String) throws(E) -> Void) throws(StreamError<E>) {
    var recent: RecentLabels
    do throws(FormatError) { recent = try RecentLabels(labelCount: labelCount, cache: labelCache) } catch { throw .format(error) }
    try forEachRun(.identification) { (numbers, labelId) throws(StreamError<E>) in
      let slot: Int
      do throws(FormatError) { slot = try recent.slot(for: labelId, from: labelCache) } catch { throw .format(error) }
      do throws(E) { try body(numbers, recent[slot]) } catch { throw .consumer(error) }
    } failure: {
      $0
    }
  }

  /// Calls `body` with every identification entry and range, with its label id, in ascending
  /// order, a single number as a range of one: for consumers that count or keep labels by id
  /// (`label(id:)` gives an id's text). No label block is read: every id is below `labelCount`,
  /// and `Verifier` checks the labels. Memory: one block.
  /// - Throws: `FormatError` for a damaged block or range section, or what `body` throws.
  /// - Complexity: O(n + r).
  public func forEachIdentificationRunLabelId<E: Error>(
    _ body: (ClosedRange<Int64>, UInt32) throws(E) -> Void
  ) throws(StreamError<E>) {
    try forEachRun(.identification, body) { .consumer($0) }
  }

  /// Merges `kind`'s single entries (from the block cursor) and its ranges by first number,
  /// calling `body` with each run and its label id; `failure` turns what `body` throws into the
  /// stream's error.
  private func forEachRun<E: Error, F: Error>(
    _ kind: EntryKind, _ body: (ClosedRange<Int64>, UInt32) throws(E) -> Void, failure flatten: (E) -> StreamError<F>
  ) throws(StreamError<F>) {
    do throws(FormatError) { try checkRanges(kind) } catch { throw .format(error) }
    let ranges = layout.ranges(kind)
    var nextRange = 0
    var singles = cursor(kind)
    func emitRanges(below limit: Int64?) throws(StreamError<F>) {
      while nextRange < ranges.count, limit.map({ ranges.first(nextRange) < UInt64($0) }) ?? true {
        // Checked by checkRanges: both ends in range.
        let numbers = Int64(ranges.first(nextRange))...Int64(ranges.last(nextRange))
        do throws(E) { try body(numbers, ranges.labelId(nextRange)) } catch { throw flatten(error) }
        nextRange += 1
      }
    }
    // A stream in file order: the kernel reads ahead of it (`streaming`).
    try streaming { () throws(StreamError<F>) in
      while true {
        let entry: EntryCursor.Entry?
        do throws(FormatError) { entry = try singles.next() } catch { throw .format(error) }
        guard let entry else { break }
        try emitRanges(below: entry.number)
        do throws(E) { try body(entry.number...entry.number, entry.labelId) } catch { throw flatten(error) }
      }
      try emitRanges(below: nil)
    }
  }
}
