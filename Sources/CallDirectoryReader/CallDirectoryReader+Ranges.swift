import CallDirectoryFormat

extension CallDirectoryReader {
  /// The number of blocking ranges.
  public var blockingRangeCount: Int { layout.blockingRanges.count }

  /// The number of identification ranges.
  public var identificationRangeCount: Int { layout.identificationRanges.count }

  /// Calls `body` with every blocking range in ascending order.
  ///
  /// The range section's checksum and every record are checked before the first range is handed
  /// out, so a damaged section feeds nothing. Memory: O(1).
  /// - Throws: `FormatError` for a damaged section, or what `body` throws.
  /// - Complexity: O(r).
  public func forEachBlockingRange<E: Error>(_ body: (ClosedRange<Int64>) throws(E) -> Void) throws(StreamError<E>) {
    try forEachRange(.blocking) { (range, _) throws(StreamError<E>) in
      do throws(E) { try body(range) } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with every identification range and its label in ascending order.
  ///
  /// Checked as `forEachBlockingRange`; labels come through the reader's label cache.
  /// - Throws: `FormatError` for a damaged section or label, or what `body` throws.
  public func forEachIdentificationRange<E: Error>(_ body: (ClosedRange<Int64>, String) throws(E) -> Void) throws(StreamError<E>)
  {
    try forEachRange(.identification) { (range, id) throws(StreamError<E>) in
      let label: String
      do throws(FormatError) { label = try labelCache.label(Int(id)) } catch { throw .format(error) }
      do throws(E) { try body(range, label) } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with every identification range and its label id in ascending order, reading
  /// no label block (every id is below `labelCount`): for consumers that need no label text,
  /// such as a count of the numbers the ranges cover.
  ///
  /// Checked as `forEachBlockingRange`.
  /// - Throws: `FormatError` for a damaged section, or what `body` throws.
  /// - Complexity: O(r).
  public func forEachIdentificationRangeLabelId<E: Error>(
    _ body: (ClosedRange<Int64>, UInt32) throws(E) -> Void
  ) throws(StreamError<E>) {
    try forEachRange(.identification) { (range, id) throws(StreamError<E>) in
      do throws(E) { try body(range, id) } catch { throw .consumer(error) }
    }
  }

  /// Checks `kind`'s range section, then calls `body` with each range and its label id.
  private func forEachRange<E: Error>(
    _ kind: EntryKind, _ body: (ClosedRange<Int64>, UInt32) throws(StreamError<E>) -> Void
  ) throws(StreamError<E>) {
    do throws(FormatError) { try checkRanges(kind) } catch { throw .format(error) }
    let table = layout.ranges(kind)
    for index in 0..<table.count {
      let range = Int64(table.first(index))...Int64(table.last(index))  // checked above
      try body(range, table.labelId(index))
    }
  }

  /// Checks `kind`'s range section whole: its checksum and every record.
  /// - Throws: `FormatError` with the file offset of the first problem.
  func checkRanges(_ kind: EntryKind) throws(FormatError) {
    let table = layout.ranges(kind)
    if let blocks = table.blocks {
      try layout.checkChecksum(of: kind.rangeSections.blockIndex)
      try layout.checkChecksum(of: kind.rangeSections.blockData)
      if let problem = blocks.check(labelCount: labelCount) { throw problem }
      return
    }
    guard table.count > 0 else { return }
    try layout.checkChecksum(of: kind.rangeSection)
    var previous: (last: Int64, labelId: UInt32)?
    for index in 0..<table.count {
      switch table.checkedRange(index, after: previous) {
      case .failure(let error): throw error
      case .success(let checked):
        if kind == .identification && Int(checked.labelId) >= labelCount {
          throw table.labelIdError(index, labelCount: labelCount)
        }
        previous = (checked.range.upperBound, checked.labelId)
      }
    }
  }
}
