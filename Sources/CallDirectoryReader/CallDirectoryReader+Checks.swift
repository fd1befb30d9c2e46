import CallDirectoryFormat

extension CallDirectoryReader {
  /// Checks, once in the reader's life, every part a lookup of `kind` reads besides its entry
  /// block and its label: the kind's index, top index and the top's summary (their CRCs: the
  /// records say which block holds a number), its range table (its CRC and every record) and,
  /// for identification, the label index (its CRC). An index with group checks is not read
  /// here: its group checks are (their CRC), and each group of records is checked against its
  /// check before a lookup answers from it (`checkedEntryBlock(_:_:prefetching:)`).
  ///
  /// Package-only: with the reader's lookup plans (`LookupPlans`), the shape's range fields and
  /// `checkedEntryBlock(_:_:prefetching:)`, the one way in for the lookups, which call it first.
  /// - Throws: `FormatError` for the first part that fails, with its place; the same error again
  ///   on later calls, without checking again.
  /// - Complexity: O(index + ranges) the first time; one atomic load after.
  @inlinable @inline(__always)
  package func checkLookupParts(_ kind: EntryKind) throws(FormatError) {
    if checks.havePassed(ReadChecks.Part.lookup(kind)) { return }
    try checkLookupPartsOnce(kind)
  }

  @usableFromInline
  func checkLookupPartsOnce(_ kind: EntryKind) throws(FormatError) {
    let blocking = kind == .blocking
    let layout = layout
    // What a lookup reads whole; the groups of the index, and of the top under summary checks,
    // are checked one at a time before a lookup answers from them (`checkGroup`).
    let index = shape.index(kind)
    let sections = kind.levelSections
    try checks.ensure(blocking ? .blockingIndex : .identificationIndex) { () throws(FormatError) in
      guard let groupChecks = index.groupChecks else { return try layout.checkChecksum(of: kind.sections.index) }
      // Under summary checks, the group checks are checked a group of the top at a time.
      guard index.summaryChecks == nil else { return }
      try layout.checkChecksum(of: sections.groupChecks)
      // Kept (4 bytes a group): a cold lookup in a group not checked yet then reads no page of them.
      checks.keep(kind, groupChecks: (0..<groupChecks.count).map { groupChecks.check(ofGroup: $0, in: file) })
    }
    try checks.ensure(blocking ? .blockingTop : .identificationTop) { () throws(FormatError) in
      try layout.checkChecksum(of: sections.summary)
      try layout.checkChecksum(of: index.summaryChecks == nil ? sections.top : sections.summaryChecks)
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
  /// read (a lookup answers from no byte of it before), after the group of index records that
  /// places it, when the index has group checks.
  ///
  /// Package-only: for the lookups, after `checkLookupParts(_:)`.
  /// - Throws: `FormatError` with file offsets.
  /// - Complexity: O(1) once the block has passed; O(block) the first time.
  @inlinable @_lifetime(borrow self)
  package func checkedEntryBlock(_ kind: EntryKind, _ block: Int, prefetching: Bool) throws(FormatError) -> EntryBlock {
    let entryBlock = try layout.entryBlock(kind, block, prefetching: prefetching)
    if !checks.hasPassed(kind, block: block) { try checkOnce(entryBlock, kind, block) }
    return entryBlock
  }

  /// Checks a block's CRC, and the group of index records a lookup searched to find it and
  /// read its extent from, and remembers that it passed: a later lookup that lands on the block
  /// searched the same group (block `b` is in group `b / stride` alone).
  @usableFromInline
  func checkOnce(_ entryBlock: EntryBlock, _ kind: EntryKind, _ block: Int) throws(FormatError) {
    try checkGroup(of: block, kind)
    try entryBlock.block.checkChecksum()
    checks.pass(kind, block: block)
  }

  /// Checks, once in the reader's life, the group of `kind`'s index records that holds `block`
  /// against its group check, when the index has group checks (`Spec/FORMAT.md` 5.4).
  /// - Throws: `FormatError.malformedIndex` at the group's first record when they differ.
  /// - Complexity: O(stride) the first time; O(1) after.
  private func checkGroup(of block: Int, _ kind: EntryKind) throws(FormatError) {
    let index = shape.index(kind)
    guard let groupChecks = index.groupChecks else { return }
    let group = block / groupChecks.stride  // block < blockCount: group < count
    guard !checks.hasPassed(kind, group: group) else { return }
    // Under summary checks, the group's check is itself checked with its group of the top.
    if let summaryChecks = index.summaryChecks { try checkTopGroup(group / summaryChecks.stride, kind) }
    let records = unsafe file.view(of: index.records)
    let computed = GroupChecks.checksum(ofGroup: group, stride: groupChecks.stride, records: records)
    // A checked top holds the check in the group of the top just checked, in the page searched.
    let stored =
      if let checkedTop = index.checkedTop {
        unsafe file.uncheckedUInt32LE(at: checkedTop.offsets(ofSample: group).check)  // group < count: inside
      } else { checks.groupCheck(kind, group) ?? groupChecks.check(ofGroup: group, in: file) }
    guard computed == stored else {
      let covered = GroupChecks.records(ofGroup: group, stride: groupChecks.stride, blockCount: index.blockCount)
      throw index.place.error(
        .malformedIndex(
          "records \(covered.lowerBound) to \(covered.upperBound - 1) fail their group check "
            + "(stored \(String(stored, radix: 16)), computed \(String(computed, radix: 16)))"),
        at: FormatConstants.entryIndexHeaderSize &+ covered.lowerBound &* FormatConstants.entryIndexRecordSize)
    }
    checks.pass(kind, group: group)
  }

  /// Checks, once in the reader's life, group `group` of `kind`'s top samples and their group
  /// checks against its summary check (`Spec/FORMAT.md` 5.4): in the checked top when the file
  /// has one (5.5), where they lie together, else in the top and the group checks.
  /// - Throws: `FormatError.malformedIndex` at the group's first sample when they differ.
  /// - Complexity: O(summary stride) the first time; O(1) after.
  private func checkTopGroup(_ group: Int, _ kind: EntryKind) throws(FormatError) {
    let index = shape.index(kind)
    guard let summaryChecks = index.summaryChecks, let groupChecks = index.groupChecks, let top = index.top,
      !checks.hasPassed(kind, group: group, top: true)
    else { return }
    let stored = summaryChecks.check(ofGroup: group, in: file)
    let computed: UInt32
    let place: (section: SectionType, offset: Int, at: Int)
    if let checkedTop = index.checkedTop {
      let span = checkedTop.span(ofGroup: group)  // group < the summary's samples: inside
      computed = CRC32.checksum(unsafe file.view(of: span))
      place = (kind.levelSections.checkedTop, checkedTop.bytes.offset, span.offset &- checkedTop.bytes.offset)
    } else {
      computed = GroupChecks.checksum(
        ofTopGroup: group, stride: summaryChecks.stride, samples: unsafe file.view(of: top.samples),
        checks: unsafe file.view(of: groupChecks.checks))
      place = (kind.levelSections.top, top.samples.offset, group &* summaryChecks.stride &* 8)
    }
    guard computed == stored else {
      let first = group &* summaryChecks.stride  // group < count: first < the top's samples
      let last = min(first &+ summaryChecks.stride, top.count) &- 1
      throw FilePlace(place.section, at: place.offset).error(
        .malformedIndex(
          "top samples \(first) to \(last) and their group checks fail their summary check "
            + "(stored \(String(stored, radix: 16)), computed \(String(computed, radix: 16)))"),
        at: place.at)
    }
    checks.pass(kind, group: group, top: true)
  }

  /// Records that the verifier passed the whole file this reader reads: lookups then check
  /// nothing more. Package-only: for `Verifier.verify(_:)`.
  package func passedVerification() {
    checks.passWholeFile()
  }
}
