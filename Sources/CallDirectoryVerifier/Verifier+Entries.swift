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
  /// first number of record `g * stride`, so a lookup through it finds the block the index gives.
  /// - Complexity: O(samples).
  mutating func checkTop(_ kind: EntryKind) {
    let index = layout.index(kind)
    guard let top = index.top else { return }
    let type: SectionType = kind == .blocking ? .blockingTop : .identificationTop
    let base = Int(layout.section(type).offset) &+ TopIndex.headerSize
    for group in 0..<top.count where !problems.isOverflowing {
      // group < count = ceil(blockCount / stride): the record exists.
      let record = group &* top.stride
      let (sample, first) = (top.sample(group), index.firstNumber(ofBlock: record))
      if sample != first {
        problems.record(
          FormatError(
            .malformedIndex("top index sample \(group) is \(sample), record \(record)'s first number is \(first)"),
            at: base &+ group &* 8, section: type.rawValue))
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
