import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem

/// Writes a changeset by walking OLD and NEW side by side, once per list (`Spec/CHANGESET.md`,
/// section 8): the header, the four lists' blocks in order, then the footer with their counts.
enum ChangesetDiff {
  /// Refuses, before anything is written, sections the changeset's carried part cannot hold: a
  /// changeset its own reader refuses would be no use to anyone. Checked on the section table's
  /// lengths, before a byte is copied: a table may claim gigabytes of a sparse file.
  static func checkCarriable(_ sections: [(type: UInt32, length: UInt64)]) throws(ChangesetError) {
    guard sections.count <= ChangesetLayout.maximumCarriedSections else {
      throw ChangesetError(
        .sectionsNotCarried(reason: "\(sections.count) of them, at most \(ChangesetLayout.maximumCarriedSections)"))
    }
    for section in sections {
      // Flags need no check: a section's flags other than "required" are reserved, zero in any
      // directory the reader opens, and required sections are not carried.
      guard section.length <= UInt64(ChangesetLayout.maximumCarriedSectionBytes) else {
        let name = SectionType.name(of: section.type)
        throw ChangesetError(
          .sectionsNotCarried(
            reason: "\(name) has \(section.length) bytes, at most \(ChangesetLayout.maximumCarriedSectionBytes)"))
      }
    }
  }

  /// Refuses a NEW that patch would not rebuild byte for byte, before anything is written: NEW's
  /// own runs through patch's writer must give NEW's hash and length. A file written with other
  /// options (`pack --no-prefix-labels`, another label block size) would otherwise make a
  /// changeset every consumer's patch refuses.
  /// - Complexity: one pass over NEW's runs, encoded and hashed; memory as patch's, its spools
  ///   (the encoded sections, unlinked files) in the scratch directory (`$TMPDIR`, else `/tmp`).
  static func checkRebuilt(
    _ new: CallDirectoryReader, entriesPerBlock: Int, carried: [RawSection]
  ) throws(ChangesetError) {
    var writer = try ChangesetPatch.writer(entriesPerBlock: entriesPerBlock, temporaryDirectory: AtomicFile.scratchDirectory)
    for kind in [EntryKind.blocking, .identification] {
      var runs = new.runCursor(kind)
      while true {
        let run: RunCursor.Run?
        do throws(FormatError) { run = try runs.next() } catch { throw .format(error) }
        guard let run else { break }
        try ChangesetPatch.add(run.numbers, label: run.label, to: &writer)
      }
    }
    let (hash, length) = try ChangesetPatch.finish(writer, appending: carried) { _ in }
    guard hash == new.contentHash, length == UInt64(new.fileSize) else { throw ChangesetError(.resultNotCanonical) }
  }

  static func write(
    old: CallDirectoryReader, new: CallDirectoryReader, progress: ((Int) -> Void)? = nil,
    sink: ([UInt8]) throws(ChangesetError) -> Void
  ) throws(ChangesetError) {
    // Patch rebuilds NEW with this package's writer, which writes one version.
    guard new.version.major == FormatVersion.major else { throw ChangesetError(.resultNotRebuildable(major: new.version.major)) }
    // Both indexes of a file share one block size; the writer takes it from its options.
    var header = ChangesetHeader(
      entriesPerBlock: UInt16(clamping: new.layout.index(.blocking).entriesPerBlock),
      baseLength: UInt64(old.fileSize), resultLength: UInt64(new.fileSize), base: old.contentHash, result: new.contentHash)
    // NEW's optional sections (list version, signature) go along, so that patch rebuilds NEW whole;
    // not the top indexes, which the writer derives from the entries again.
    let carriedEntries = new.shape.header.sections.filter {
      $0.flags & SectionFlags.required == 0 && SectionType(rawValue: $0.typeName)?.isDerived != true
    }
    try checkCarriable(carriedEntries.map { ($0.type, $0.length) })
    let carried = carriedEntries.map { entry in
      let bytes = new.file.sliceOrEmpty(offset: Int(entry.offset), length: Int(entry.length))
      return RawSection(type: entry.type, flags: entry.flags, bytes: bytes.bytes)
    }
    if !carried.isEmpty { header.flags |= ChangesetLayout.carriesSectionsFlag }
    try checkRebuilt(new, entriesPerBlock: Int(header.entriesPerBlock), carried: carried)
    try sink(header.encoded)
    if !carried.isEmpty { try sink(CarriedSections.encode(carried)) }
    var footer = ChangesetFooter()
    for list in ChangeList.allCases {
      var writer = RunBlockWriter(list: list)
      let kind: EntryKind = list == .blockingRemovals || list == .blockingAdditions ? .blocking : .identification
      let additions = list == .blockingAdditions || list == .identificationAdditions
      var oldRuns = old.runCursor(kind)
      var newRuns = new.runCursor(kind)
      func pull(_ cursor: inout RunCursor) throws(ChangesetError) -> RunCursor.Run? {
        let run: RunCursor.Run?
        do throws(FormatError) { run = try cursor.next() } catch { throw .format(error) }
        // Each list is one pass over both files: a pass counts its entries of the list's kind.
        if let run, additions { progress?(run.numbers.count) }
        return run
      }
      var a = try pull(&oldRuns)
      var b = try pull(&newRuns)
      while a != nil || b != nil {
        if let x = a, let y = b, x.numbers == y.numbers, sameBytes(x.label, y.label) {
          a = try pull(&oldRuns)
          b = try pull(&newRuns)
        } else if let x = a, b.map({ x.numbers.lowerBound <= $0.numbers.lowerBound }) ?? true {
          // In OLD and not (as stored) in NEW: a removal. When both start at the same number the
          // NEW run is taken on the next turn, as an addition.
          if !additions { try writer.append(x.numbers, label: x.label, sink: sink) }
          a = try pull(&oldRuns)
        } else if let y = b {
          if additions { try writer.append(y.numbers, label: y.label, sink: sink) }
          b = try pull(&newRuns)
        }
      }
      try writer.finish(sink: sink)
      footer.lists[Int(list.rawValue)] = (writer.runs, writer.blocks)
    }
    try sink(footer.encoded)
  }

  /// Labels are compared as bytes (`Spec/FORMAT.md`, section 1): `String`'s `==` would call two
  /// canonically equivalent labels equal, and patch would then restore OLD's bytes, not NEW's.
  private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): a.utf8.elementsEqual(b.utf8)
    default: false
    }
  }
}
