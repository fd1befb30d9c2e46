import CallDirectoryFormat
import CallDirectoryReader

extension VerificationPass {
  /// Checks every index record and entry block of `kind`, and the label ids of identification
  /// entries (`BlockDecoder` refuses a block with an id past the label table).
  ///
  /// Numbers must be strictly ascending across the whole kind (CallKit refuses a load with
  /// entries out of order or duplicated). A bad block is reported and the walk goes on with the
  /// next: its index record still gives a lower bound for the numbers after it.
  /// - Complexity: O(entries); memory O(one block).
  mutating func checkEntries(_ kind: EntryKind) {
    let index = layout.index(kind)
    let indexSection = layout.section(kind.sections.index)
    checkUnindexedData(kind.sections.data, blockCount: index.blockCount)
    // Every number of the next block must be above this: the last number decoded, or, after a
    // block that could not be decoded, that block's first number.
    var lowerBound: Int64 = 0
    var previousFirst: Int64?
    var decodedEntries = 0
    var decodedAll = true
    var ranges = RangeCoverage(table: layout.ranges(kind))
    for block in 0..<index.blockCount {
      guard !problems.isOverflowing else { return }
      // block < blockCount, whose records lie inside the index section: no overflow.
      let record =
        Int(indexSection.offset) &+ FormatConstants.entryIndexHeaderSize &+ block &* FormatConstants.entryIndexRecordSize
      let stored = index.firstNumber(ofBlock: block)
      guard stored >= UInt64(Limits.minimumNumber) && stored <= UInt64(Limits.maximumNumber) else {
        problems.record(FormatError(.numberOutOfRange(stored), at: record, section: kind.sections.index.rawValue))
        // The numbers cannot be placed, but the block's frame and checksum can still be checked.
        checkFrame(kind, block)
        decodedAll = false
        continue
      }
      let first = Int64(stored)
      var after = lowerBound
      if let previousFirst, first <= previousFirst {
        problems.record(
          FormatError(.notAscending(previous: previousFirst, next: first), at: record, section: kind.sections.index.rawValue))
        // Reported once, here: the block is still decoded, without the order check against the one before.
        after = 0
      }
      previousFirst = first
      do {
        let decoded = try BlockDecoder.decode(layout: layout, kind: kind, block: block, after: after)
        decodedEntries &+= decoded.numbers.count  // bounded by the index's entry count
        progress?(decoded.numbers.count)
        lowerBound = decoded.numbers.last ?? first
        for number in decoded.numbers where ranges.covers(number) && !problems.isOverflowing {
          problems.record(
            FormatError(
              .malformedBlock(block: block, reason: "+\(number) lies inside a range of the same kind"),
              at: layout.blockOffset(kind, block), section: kind.sections.data.rawValue))
        }
      } catch {
        problems.record(error)
        lowerBound = first
        decodedAll = false
      }
    }
    if decodedAll { checksummedBlocks.insert(kind.sections.data) }
    if decodedAll && decodedEntries != index.entryCount {
      problems.record(
        FormatError(
          .malformedIndex("the index declares \(index.entryCount) entries, the blocks hold \(decodedEntries)"),
          at: Int(indexSection.offset), section: kind.sections.index.rawValue))
    }
  }

  /// Checks that `kind`'s top index, if the file has one, samples the index: sample `g` is the
  /// first number of record `g * stride`, so a lookup through it finds the block the index gives;
  /// that the top's summary, if the file has one, samples the top in the same way (in a file of
  /// version 2.4 or later); and that the group checks, if the file has them, check the index.
  /// - Complexity: O(samples).
  mutating func checkTop(_ kind: EntryKind) {
    let index = layout.index(kind)
    guard let top = index.top else { return }
    let (type, summaryType): (SectionType, SectionType) =
      kind == .blocking ? (.blockingTop, .blockingTopSummary) : (.identificationTop, .identificationTopSummary)
    checkSamples(of: top, in: type, named: "top index", record: { "record \($0)'s first number" }) {
      index.firstNumber(ofBlock: $0)
    }
    checkGroupChecks(kind)
    guard let summary = index.summary else { return }
    checkVersion(atLeast: 4, for: summaryType.rawValue)
    checkSamples(of: summary, in: summaryType, named: "top summary", record: { "top sample \($0)" }) { top.sample($0) }
    checkSummaryChecks(kind)
    checkCheckedTop(kind)
  }

  /// Checks that `kind`'s checked top, if the file has one, copies the top's samples and their
  /// group checks (in a file of version 2.6 or later): a reader that searches it and reads its
  /// checks then accepts exactly the index the verifier read.
  /// - Complexity: O(top).
  private mutating func checkCheckedTop(_ kind: EntryKind) {
    let shape = layout.shape.index(kind)
    guard let checkedTop = shape.checkedTop, let groupChecks = shape.groupChecks, let top = shape.top else { return }
    let type = kind.levelSections.checkedTop
    checkVersion(atLeast: 6, for: type.rawValue)
    let file = layout.file
    for sample in 0..<checkedTop.count where !problems.isOverflowing {
      // sample < count, the top's samples and group checks: every offset below is inside its section.
      let (at, checkAt) = checkedTop.offsets(ofSample: sample)
      let (copy, original) = (
        unsafe file.uncheckedUInt64LE(at: at), unsafe file.uncheckedUInt64LE(at: top.samples.offset &+ sample &* 8)
      )
      let (checkCopy, check) = (unsafe file.uncheckedUInt32LE(at: checkAt), groupChecks.check(ofGroup: sample, in: file))
      let sections = kind.levelSections
      for (what, source, stored, expected, offset) in [
        ("sample", sections.top, String(copy), String(original), at),
        ("group check", sections.groupChecks, String(checkCopy, radix: 16), String(check, radix: 16), checkAt),
      ] where stored != expected {
        problems.record(
          FormatError(
            .malformedIndex("checked top's \(what) \(sample) is \(stored), \(source.rawValue)'s is \(expected)"),
            at: offset, section: type.rawValue))
      }
    }
  }

  /// Checks that `kind`'s summary checks, if the file has them, are the CRC-32s of the groups of
  /// the top's samples and group checks they check (in a file of version 2.5 or later).
  /// - Complexity: O(top).
  private mutating func checkSummaryChecks(_ kind: EntryKind) {
    let shape = layout.shape.index(kind)
    guard let summaryChecks = shape.summaryChecks, let groupChecks = shape.groupChecks, let top = shape.top else { return }
    let type = kind.levelSections.summaryChecks
    checkVersion(atLeast: 5, for: type.rawValue)
    let (samples, checks) = (
      layout.file.sliceOrEmpty(offset: top.samples.offset, length: top.samples.count),
      layout.file.sliceOrEmpty(offset: groupChecks.checks.offset, length: groupChecks.checks.count)
    )
    for group in 0..<summaryChecks.count where !problems.isOverflowing {
      let (stored, computed) = (
        summaryChecks.check(ofGroup: group, in: layout.file),
        GroupChecks.checksum(ofTopGroup: group, stride: summaryChecks.stride, samples: samples, checks: checks)
      )
      if stored != computed {
        problems.record(
          FormatError(
            .malformedIndex(
              "summary check \(group) is \(String(stored, radix: 16)), its top samples and group checks sum to "
                + "\(String(computed, radix: 16))"),
            at: summaryChecks.checks.offset &+ group &* GroupChecks.checkSize, section: type.rawValue))
      }
    }
  }

  /// Checks that `kind`'s group checks, if the file has them, are the CRC-32s of the groups of
  /// records they check (in a file of version 2.5 or later), so that a reader checking a group
  /// against them accepts exactly the index the verifier read.
  /// - Complexity: O(index).
  private mutating func checkGroupChecks(_ kind: EntryKind) {
    let shape = layout.shape.index(kind)
    guard let groupChecks = shape.groupChecks else { return }
    let type = kind.levelSections.groupChecks
    checkVersion(atLeast: 5, for: type.rawValue)
    let records = layout.index(kind).records
    for group in 0..<groupChecks.count where !problems.isOverflowing {
      let (stored, computed) = (
        groupChecks.check(ofGroup: group, in: layout.file),
        GroupChecks.checksum(ofGroup: group, stride: groupChecks.stride, records: records)
      )
      if stored != computed {
        let covered = GroupChecks.records(ofGroup: group, stride: groupChecks.stride, blockCount: shape.blockCount)
        problems.record(
          FormatError(
            .malformedIndex(
              "group check \(group) is \(String(stored, radix: 16)), records \(covered.lowerBound) to "
                + "\(covered.upperBound - 1) sum to \(String(computed, radix: 16))"),
            at: groupChecks.checks.offset &+ group &* GroupChecks.checkSize, section: type.rawValue))
      }
    }
  }

  /// Checks that each sample `g` of `level` (section `type`) equals `first(g * stride)`, the
  /// first number of the record it stands for, which `record` names in a problem.
  /// Precondition: `level`'s count is `ceil(records / stride)` (the parser's length rule).
  private mutating func checkSamples(
    of level: TopIndex, in type: SectionType, named name: String, record describe: (Int) -> String,
    first: (Int) -> UInt64
  ) {
    let base = Int(layout.section(type).offset) &+ TopIndex.headerSize
    for group in 0..<level.count where !problems.isOverflowing {
      // group < count = ceil(records / stride): the record exists.
      let record = group &* level.stride
      let (sample, expected) = (level.sample(group), first(record))
      if sample != expected {
        problems.record(
          FormatError(
            .malformedIndex("\(name) sample \(group) is \(sample), \(describe(record)) is \(expected)"), at: base &+ group &* 8,
            section: type.rawValue))
      }
    }
  }

  /// Checks the frame and checksum of a block whose numbers cannot be decoded.
  private mutating func checkFrame(_ kind: EntryKind, _ block: Int) {
    let entryBlock: EntryBlock
    do { entryBlock = try layout.entryBlock(kind, block) } catch {
      problems.record(error)
      return
    }
    do { try entryBlock.block.checkChecksum() } catch { problems.record(error) }
  }
}

/// Walks a kind's ranges alongside its ascending numbers, to find numbers a range already covers.
struct RangeCoverage: ~Escapable {
  let table: RangeTable
  var next = 0

  /// A walk over `table` from its first range.
  @_lifetime(copy table)
  init(table: RangeTable) {
    self.table = table
  }

  /// Whether a range covers `number`; numbers must come in ascending order. O(1) amortised.
  mutating func covers(_ number: Int64) -> Bool {
    let value = UInt64(number)
    while next < table.count && table.last(next) < value { next += 1 }
    return next < table.count && table.first(next) <= value
  }
}
