import CallDirectoryFormat

extension CallDirectoryReader {
  /// Checks, once in the reader's life, every part a lookup of `kind` reads besides its entry
  /// block and its label: the kind's index and top index (their CRCs: the records say which block
  /// holds a number), its range table (its CRC and every record) and, for identification, the
  /// label index (its CRC).
  ///
  /// Package-only: with `lookupIndex(_:)`, `lookupRanges(_:)` and
  /// `checkedEntryBlock(_:_:prefetching:)`, the one way in for the lookups, which call it first.
  /// - Throws: `FormatError` for the first part that fails, with its place; the same error again
  ///   on later calls, without checking again.
  /// - Complexity: O(index + ranges) the first time; one atomic load after.
  @inlinable
  package func checkLookupParts(_ kind: EntryKind) throws(FormatError) {
    if checks.havePassed(ReadChecks.Part.lookup(kind)) { return }
    try checkLookupPartsOnce(kind)
  }

  /// The index (with its top level) of `kind`, for a lookup after `checkLookupParts(_:)`.
  @inlinable
  package func lookupIndex(_ kind: EntryKind) -> EntryIndex { layout.index(kind) }

  /// The range table of `kind`, for a lookup after `checkLookupParts(_:)`.
  @inlinable
  package func lookupRanges(_ kind: EntryKind) -> RangeTable { layout.ranges(kind) }

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
  /// Package-only: for the lookups, after `checkLookupParts(_:)`.
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
