import CallDirectoryFormat

extension CallDirectoryReader {
  /// The parts a lookup of `kind` searches besides its entry block: the kind's index (with its
  /// top level) and its range table, checked once in the reader's life with everything else
  /// such a lookup reads but its label: the index's and top index's CRCs (the records say which
  /// block holds a number), the range table's CRC and every record, and for identification the
  /// label index's CRC.
  ///
  /// Package-only: the one way in for the lookups, with `checkedEntryBlock(_:_:prefetching:)`.
  /// - Throws: `FormatError` for the first part that fails, with its place; the same error again
  ///   on later calls, without checking again.
  /// - Complexity: O(index + ranges) the first time; one atomic load after.
  @inlinable
  package func lookupParts(_ kind: EntryKind) throws(FormatError) -> (index: EntryIndex, ranges: RangeTable) {
    if !checks.havePassed(ReadChecks.Part.lookup(kind)) { try checkLookupPartsOnce(kind) }
    return (layout.index(kind), layout.ranges(kind))
  }

  @usableFromInline
  func checkLookupPartsOnce(_ kind: EntryKind) throws(FormatError) {
    let blocking = kind == .blocking
    let layout = layout
    try checks.ensure(blocking ? .blockingIndex : .identificationIndex) { () throws(FormatError) in
      try layout.checkChecksum(of: kind.sections.index)
    }
    try checks.ensure(blocking ? .blockingTop : .identificationTop) { () throws(FormatError) in
      try layout.checkChecksum(of: blocking ? .blockingTop : .identificationTop)
    }
    if !blocking {
      // The label count bounds every label id the ranges and blocks give.
      try checks.ensure(.labelIndex) { () throws(FormatError) in try layout.checkChecksum(of: .labelIndex) }
    }
    try checks.ensure(blocking ? .blockingRanges : .identificationRanges) { () throws(FormatError) in
      try checkRanges(kind)
    }
  }

  /// Entry block `block` of `kind`, its frame checked, and its CRC checked the first time it is
  /// read (a lookup answers from no byte of it before).
  ///
  /// Package-only: for the lookups, after `lookupParts(_:)`.
  /// - Throws: `FormatError` with file offsets.
  /// - Complexity: O(1) once the block has passed; O(block) the first time.
  @inlinable
  package func checkedEntryBlock(_ kind: EntryKind, _ block: Int, prefetching: Bool) throws(FormatError) -> EntryBlock {
    let entryBlock = try layout.entryBlock(kind, block, prefetching: prefetching)
    if !checks.hasPassed(kind, block: block) { try checkOnce(entryBlock, kind, block) }
    return entryBlock
  }

  /// Checks a block's CRC and remembers that it passed.
  @usableFromInline
  func checkOnce(_ entryBlock: EntryBlock, _ kind: EntryKind, _ block: Int) throws(FormatError) {
    try entryBlock.block.checkChecksum()
    checks.pass(kind, block: block)
  }

  /// Records that the verifier passed the whole file this reader reads: lookups then check
  /// nothing more. Package-only: for `Verifier.verify(_:)`.
  package func passedVerification() {
    checks.passWholeFile()
  }
}
