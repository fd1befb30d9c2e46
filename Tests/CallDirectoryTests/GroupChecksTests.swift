import CallDirectory
import Testing

/// The group checks (`Spec/FORMAT.md`, section 5.4): the canonical writer gives every index
/// with a top one CRC-32 a group of records, the reader checks the groups a lookup lands in
/// instead of the whole index, and the verifier and the parser refuse checks that do not fit.
@Suite struct GroupChecksTests {
  /// The section types of the group checks, as stored in the table.
  static let types = [SectionType.blockingGroupChecks.code, SectionType.identificationGroupChecks.code]

  /// 3,000 numbers in blocks of 4 (750 records, 12 groups of 64, the last of 46) and 400
  /// identification entries in blocks of 4 (100 records, 2 groups).
  private static let numbers = SeededGenerator.distinctNumbers(
    3_400, from: 12_000_000_000, span: 80_000_000, seed: 0x6C_0C4E)
  private static let blocking = Array(numbers.prefix(3_000))
  private static let identification = numbers.suffix(400).map { ($0 + 1_000_000_000, "Caller \($0 % 9)") }

  private static let file: [UInt8] = {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 4
    return try! Contents(blocking: blocking, identification: identification).encoded(options: options)
  }()

  /// The first numbers of `kind`'s blocks, from the intact file.
  private static func firsts(_ kind: EntryKind) throws -> [Int64] {
    let reader = try CallDirectoryReader(bytes: file)
    var firsts: [Int64] = []
    let blockCount = reader.shape.index(kind).blockCount
    for block in 0..<blockCount { firsts.append(Int64(reader.layout.index(kind).firstNumber(ofBlock: block))) }
    return firsts
  }

  /// The first number of block `block` of `kind`, from the intact file.
  private static func first(_ kind: EntryKind, ofBlock block: Int) throws -> Int64 {
    try firsts(kind)[block]
  }

  /// Record `record`'s file offset in `kind`'s index.
  private static func recordOffset(_ crafted: CraftedFile, _ kind: EntryKind, _ record: Int) -> Int {
    crafted.offset(of: kind.sections.index) + FormatConstants.entryIndexHeaderSize + record * 16
  }

  @Test func eachCheckIsTheCRCOfItsGroupAndTheNextGroupsFirstRecord() throws {
    let crafted = try CraftedFile(Self.file)
    for kind in EntryKind.allCases {
      let records = Array(crafted[kind.sections.index].dropFirst(FormatConstants.entryIndexHeaderSize))
      let checks = crafted[kind.levelSections.groupChecks]
      let count = records.count / 16
      #expect(checks.count == (count + 63) / 64 * 4, "\(kind)")
      for group in 0..<(count + 63) / 64 {
        // Written out here from the spec's words, not from GroupChecks.records(ofGroup:...).
        let end = group == (count + 63) / 64 - 1 ? count : group * 64 + 65
        let expected = CRC32.checksum(Array(records[(group * 64 * 16)..<(end * 16)]))
        let stored =
          UInt32(checks[group * 4]) | UInt32(checks[group * 4 + 1]) << 8 | UInt32(checks[group * 4 + 2]) << 16
          | UInt32(checks[group * 4 + 3]) << 24
        #expect(stored == expected, "\(kind) group \(group)")
      }
    }
    #expect(try CallDirectoryReader(bytes: Self.file).version == (2, 5))
    #expect(Verifier.verify(Self.file).problems == [])
  }

  /// A record damaged in transit (its index's CRC now fails) costs the lookups that land in its
  /// group an error, and no other lookup anything: they never read the damaged group. Without the
  /// group checks, the same file answers no lookup at all.
  @Test(arguments: EntryKind.allCases)
  func aDamagedRecordFailsTheLookupsOfItsGroupAlone(kind: EntryKind) throws {
    let crafted = try CraftedFile(Self.file)
    // Record 70 of blocking (group 1), record 70 of identification (group 1): its first number.
    var damaged = Self.file
    damaged[Self.recordOffset(crafted, kind, 70) + 2] ^= 0x10
    let reader = try CallDirectoryReader(bytes: damaged)
    let intact = try CallDirectoryReader(bytes: Self.file)
    let numbers = kind == .blocking ? Self.blocking : Self.identification.map(\.0)
    var (answered, refused) = (0, 0)
    let firsts = try Self.firsts(kind)
    for number in numbers {
      let block = firsts.lastIndex { $0 <= number } ?? 0
      if block / 64 == 1 {
        #expect(throws: FormatError.self, "\(number)") { _ = try reader.lookup(number) }
        let error = formatError { _ = try reader.lookup(number) }
        #expect(error?.section == kind.sections.index.rawValue)
        #expect(error?.offset == Self.recordOffset(crafted, kind, 64), "placed at the group's first record")
        // Group 1 and the next group's first record, or to the last record (identification's 100).
        let last = min(128, firsts.count - 1)
        #expect(error?.description.contains("records 64 to \(last) fail their group check") == true)
        refused += 1
      } else {
        #expect(try reader.lookup(number) == intact.lookup(number), "\(number)")
        answered += 1
      }
    }
    #expect(refused > 0 && answered > refused)
    var unchecked = try CraftedFile(Self.file)
    unchecked.sections.removeAll { $0.type == kind.levelSections.groupChecks.code }
    var stripped = unchecked.bytes
    stripped[Self.recordOffset(unchecked, kind, 70) + 2] ^= 0x10
    let whole = try CallDirectoryReader(bytes: stripped)
    let (start, length) = (unchecked.offset(of: kind.sections.index), unchecked[kind.sections.index].count)
    let expected = FormatError(
      .sectionChecksumMismatch(
        stored: CRC32.checksum(unchecked[kind.sections.index]),
        computed: CRC32.checksum(Array(stripped[start..<(start + length)]))),
      at: start, section: kind.sections.index.rawValue)
    #expect(throws: expected) { _ = try whole.lookup(numbers[0]) }
    // Statistics read every record, so they check the index whole, group checks or not.
    #expect(throws: FormatError.self) { _ = try reader.statistics() }
  }

  /// The last block of a group is placed by the next group's first record, which both groups'
  /// checks cover: damage to it fails the lookups of both groups, and of no other.
  @Test func theNextGroupsFirstRecordIsCheckedWithTheGroupBefore() throws {
    let crafted = try CraftedFile(Self.file)
    var damaged = Self.file
    damaged[Self.recordOffset(crafted, .blocking, 128) + 8] ^= 0x01  // block 128's offset
    let reader = try CallDirectoryReader(bytes: damaged)
    // Block 127, the last of group 1, ends where block 128 starts.
    #expect(throws: FormatError.self) { _ = try reader.isBlocked(Self.first(.blocking, ofBlock: 127)) }
    #expect(throws: FormatError.self) { _ = try reader.isBlocked(Self.first(.blocking, ofBlock: 128)) }
    #expect(throws: FormatError.self) { _ = try reader.isBlocked(Self.first(.blocking, ofBlock: 126)) }  // group 1
    #expect(try reader.isBlocked(Self.first(.blocking, ofBlock: 63)))  // group 0
    #expect(try reader.isBlocked(Self.first(.blocking, ofBlock: 192)))  // group 3
  }

  @Test func aCheckThatDiffersIsReportedAndFailsItsGroup() throws {
    var crafted = try CraftedFile(Self.file)
    crafted.patch(.blockingGroupChecks, at: 3 * 4, [crafted[.blockingGroupChecks][3 * 4] ^ 1])
    let bytes = crafted.bytes
    let problems = Verifier.verify(bytes).problems
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.error.section == "BGCK")
    #expect(problems.first?.error.offset == crafted.offset(of: .blockingGroupChecks) + 12)
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(throws: FormatError.self) { _ = try reader.isBlocked(Self.first(.blocking, ofBlock: 3 * 64)) }
    #expect(try reader.isBlocked(Self.first(.blocking, ofBlock: 2 * 64)))
  }

  @Test func checksOfTheWrongLengthOrWithoutTheirTopAreRefusedAtOpen() throws {
    var short = try CraftedFile(Self.file)
    short[.blockingGroupChecks] = Array(short[.blockingGroupChecks].dropLast(4))
    short.expectRefusedAtOpen(
      .malformedIndex("group checks over a top of 12 samples need 48 bytes, the section has 44"), at: .blockingGroupChecks)
    var topless = try CraftedFile(Self.file)
    topless.sections.removeAll { $0.type == SectionType.identificationTop.code }
    topless.expectRefusedAtOpen(.sectionLayout("IGCK checks groups of no ITOP"), at: .identificationGroupChecks)
  }

  @Test func checksInAFileBefore2Point5AreReported() throws {
    var crafted = try CraftedFile(Self.file)
    crafted.version.minor = 4
    let expected = [
      FormatError(.invalidField(field: "minor version of a file with BGCK (2.5 or later)", value: 4), at: 10),
      FormatError(.invalidField(field: "minor version of a file with IGCK (2.5 or later)", value: 4), at: 10),
    ]
    #expect(Verifier.verify(crafted.bytes).problems.map(\.error) == expected)
    // A reader reads it as it is: the version only tells an older reader's user what it skips.
    #expect(try CallDirectoryReader(bytes: crafted.bytes).isBlocked(Self.blocking[9]))
  }

  /// What a reader before version 2.5 sees: the file without the checks, which reads the same.
  @Test func theFileWithoutTheChecksReadsTheSame() throws {
    var crafted = try CraftedFile(Self.file)
    crafted.sections.removeAll { Self.types.contains($0.type) }
    crafted.version.minor = 1
    let stripped = try CallDirectoryReader(bytes: crafted.bytes)
    let reader = try CallDirectoryReader(bytes: Self.file)
    for number in Self.numbers.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
      #expect(try reader.lookup(number) == stripped.lookup(number))
      #expect(try reader.lookup(number + 1_000_000_000) == stripped.lookup(number + 1_000_000_000))
    }
    #expect(Verifier.verify(crafted.bytes).problems == [])
  }
}

/// The summary checks (`Spec/FORMAT.md`, section 5.4): over a top long enough for a summary, a
/// new reader checks the group of the top a lookup reads, with its group checks, not the top.
@Suite struct SummaryChecksTests {
  /// 40,000 numbers in blocks of one: 40,000 records, a top of 625 samples, a summary of 20, 625
  /// group checks and 20 summary checks.
  private static let numbers = SeededGenerator.distinctNumbers(
    40_000, from: 12_000_000_000, span: 900_000_000, seed: 0x5C_0C4E)

  private static let file: [UInt8] = {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 1
    return try! Contents(blocking: numbers).encoded(options: options)
  }()

  @Test func eachCheckIsTheCRCOfItsTopSamplesAndTheirGroupChecks() throws {
    let crafted = try CraftedFile(Self.file)
    let (samples, checks, summary) = (
      Array(crafted[.blockingTop].dropFirst(8)), crafted[.blockingGroupChecks], crafted[.blockingSummaryChecks]
    )
    #expect(samples.count == 625 * 8 && checks.count == 625 * 4 && summary.count == 20 * 4)
    for group in 0..<20 {
      // Written out from the spec's words: 32 samples a group, the last group 17.
      let end = min(group * 32 + 32, 625)
      var crc = CRC32()
      crc.update(Array(samples[(group * 32 * 8)..<(end * 8)]))
      crc.update(Array(checks[(group * 32 * 4)..<(end * 4)]))
      #expect(summary.uint32LE(at: group * 4) == crc.value, "group \(group)")
    }
    #expect(Verifier.verify(Self.file).problems == [])
  }

  /// The checked top (5.5) holds each summary group's samples, then their group checks, copied
  /// from the top and the group checks: the bytes its summary check covers, contiguous.
  @Test func eachCheckedTopGroupIsItsSamplesThenTheirChecks() throws {
    let crafted = try CraftedFile(Self.file)
    let (samples, checks, summary, copy) = (
      Array(crafted[.blockingTop].dropFirst(8)), crafted[.blockingGroupChecks], crafted[.blockingSummaryChecks],
      crafted[.blockingCheckedTop]
    )
    #expect(copy.count == 625 * 12)
    var expected: [UInt8] = []
    for group in 0..<20 {
      // Written out from the spec's words: 32 samples a group, the last group 17.
      let end = min(group * 32 + 32, 625)
      let span = Array(samples[(group * 32 * 8)..<(end * 8)]) + Array(checks[(group * 32 * 4)..<(end * 4)])
      #expect(CRC32.checksum(span) == summary.uint32LE(at: group * 4), "group \(group)")
      expected += span
    }
    #expect(copy == expected)
    #expect(try CallDirectoryReader(bytes: Self.file).version == (2, 6))
  }

  /// A checked top without the summary checks that check it, or of the wrong length, is refused
  /// at open; one in a file of version 2.5 is reported by the verifier.
  @Test func aCheckedTopThatDoesNotFitIsRefused() throws {
    let file = try CraftedFile(Self.file)
    file.without(.blockingSummaryChecks).expectRefusedAtOpen(
      .sectionLayout("BTCK copies a top without BSCK"), at: .blockingCheckedTop)
    file.shortened(.blockingCheckedTop, by: 12).expectRefusedAtOpen(
      .malformedIndex("a checked top of 625 samples needs 7500 bytes, the section has 7488"), at: .blockingCheckedTop)
    var older = try CraftedFile(Self.file)
    older.version.minor = 5
    #expect(
      Verifier.verify(older.bytes).problems.map(\.error) == [
        FormatError(.invalidField(field: "minor version of a file with BTCK (2.6 or later)", value: 5), at: 10)
      ])
  }

  /// The file with its checked top (`checked`, as written), or without it: the layout of version
  /// 2.5, where a reader searches the top and reads the group checks.
  private static func file(checkedTop checked: Bool) throws -> CraftedFile {
    var crafted = try CraftedFile(Self.file)
    if !checked { crafted.sections.removeAll { $0.type == SectionType.blockingCheckedTop.code } }
    return crafted
  }

  /// A top sample damaged in transit costs the lookups under its group of the top an error and no
  /// other lookup anything, in the checked top (which a reader then searches, 5.5) or in the top
  /// of a file without one; without the summary checks, the same file answers no lookup at all
  /// (the top is checked whole).
  @Test(arguments: [true, false]) func aDamagedTopSampleFailsTheLookupsOfItsGroupAlone(checkedTop: Bool) throws {
    let crafted = try Self.file(checkedTop: checkedTop)
    var damaged = crafted.bytes
    // Top sample 70 (summary group 2, records 4,480 ... 4,543): its first number's third byte. In
    // the checked top, group 2 starts 2 x 32 x 12 bytes in, and sample 70 is its seventh.
    let (section, group) =
      checkedTop
      ? (SectionType.blockingCheckedTop, crafted.offset(of: .blockingCheckedTop) + 2 * 32 * 12)
      : (.blockingTop, crafted.offset(of: .blockingTop) + 8 + 64 * 8)
    damaged[group + 6 * 8 + 2] ^= 0x10
    let reader = try CallDirectoryReader(bytes: damaged)
    // One block an entry: entry `i` is in block `i`, record group i / 64, top group i / 2,048.
    for position in Swift.stride(from: 0, to: Self.numbers.count, by: 97) {
      if position / 2_048 == 2 {
        let error = formatError { try reader.isBlocked(Self.numbers[position]) }
        #expect(error?.section == section.rawValue && error?.offset == group, "\(position)")
      } else {
        #expect(try reader.isBlocked(Self.numbers[position]), "\(position)")
      }
    }
    guard !checkedTop else { return }
    var unchecked = crafted
    unchecked.sections.removeAll { $0.type == SectionType.blockingSummaryChecks.code }
    var stripped = unchecked.bytes
    stripped[unchecked.offset(of: .blockingTop) + 8 + 70 * 8 + 2] ^= 0x10
    let whole = try CallDirectoryReader(bytes: stripped)
    let error = formatError { try whole.isBlocked(Self.numbers[0]) }
    #expect(error?.section == "BTOP" && error?.offset == unchecked.offset(of: .blockingTop))
  }

  /// A group check damaged in transit fails its group of the top, through its summary check: in
  /// the checked top, or in the group checks of a file without one.
  @Test(arguments: [true, false]) func aDamagedGroupCheckFailsTheLookupsOfItsTopGroup(checkedTop: Bool) throws {
    let crafted = try Self.file(checkedTop: checkedTop)
    var damaged = crafted.bytes
    // Group 100, in top group 3: the fifth check of that group, after its 32 samples.
    damaged[
      checkedTop
        ? crafted.offset(of: .blockingCheckedTop) + 3 * 32 * 12 + 32 * 8 + 4 * 4
        : crafted.offset(of: .blockingGroupChecks) + 100 * 4] ^= 0x01
    let reader = try CallDirectoryReader(bytes: damaged)
    #expect(throws: FormatError.self) { try reader.isBlocked(Self.numbers[100 * 64]) }
    #expect(throws: FormatError.self) { try reader.isBlocked(Self.numbers[3 * 2_048]) }
    #expect(try reader.isBlocked(Self.numbers[4 * 2_048]))
  }

  /// A reader that searches the checked top reads neither the top's samples nor the group checks
  /// (5.5): damage there costs it nothing, and the verifier reports it.
  @Test func aReaderWithACheckedTopReadsNeitherTheTopNorTheGroupChecks() throws {
    let crafted = try CraftedFile(Self.file)
    var damaged = Self.file
    for sample in 0..<625 { damaged[crafted.offset(of: .blockingTop) + 8 + sample * 8] ^= 0x40 }
    for group in 0..<625 { damaged[crafted.offset(of: .blockingGroupChecks) + group * 4] ^= 0x01 }
    let reader = try CallDirectoryReader(bytes: damaged)
    for position in Swift.stride(from: 0, to: Self.numbers.count, by: 89) {
      #expect(try reader.isBlocked(Self.numbers[position]), "\(position)")
      #expect(try !reader.isBlocked(Self.numbers[position] + 1) || Self.numbers.contains(Self.numbers[position] + 1))
    }
    let sections = Set(Verifier.verify(damaged).problems.compactMap(\.error.section))
    #expect(sections.isSuperset(of: ["BTOP", "BGCK"]), "\(sections)")
  }

  @Test func aCheckThatDiffersIsReported() throws {
    var crafted = try CraftedFile(Self.file)
    crafted.patch(.blockingSummaryChecks, at: 7 * 4, [crafted[.blockingSummaryChecks][7 * 4] ^ 1])
    let problems = Verifier.verify(crafted.bytes).problems
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.error.section == "BSCK")
    #expect(problems.first?.error.offset == crafted.offset(of: .blockingSummaryChecks) + 28)
    #expect(throws: FormatError.self) { try CallDirectoryReader(bytes: crafted.bytes).isBlocked(Self.numbers[7 * 2_048]) }
  }

  @Test func checksWithoutTheirSummaryOrGroupChecksAreRefusedAtOpen() throws {
    let file = try CraftedFile(Self.file)
    file.without(.blockingGroupChecks).expectRefusedAtOpen(
      .sectionLayout("BSCK checks groups of no BGCK"), at: .blockingSummaryChecks)
    file.without(.blockingTopSummary).expectRefusedAtOpen(
      .sectionLayout("BSCK checks groups of no BSUM"), at: .blockingSummaryChecks)
    file.shortened(.blockingSummaryChecks, by: 4).expectRefusedAtOpen(
      .malformedIndex("summary checks over a summary of 20 samples need 80 bytes, the section has 76"),
      at: .blockingSummaryChecks)
  }
}
