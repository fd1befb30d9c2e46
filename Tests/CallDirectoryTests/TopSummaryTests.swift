import CallDirectory
import Testing

/// The top indexes' summaries (`Spec/FORMAT.md`, section 5.3): present where a top has more than
/// 384 samples together, in the first page with the headers' copies, used by lookups, checked by the
/// verifier and by a reader before its first lookup, refused at open when malformed.
@Suite struct TopSummaryTests {
  /// 40,000 numbers in blocks of one: 40,000 records, a top of 625 samples, a summary of 20.
  private static let numbers = SeededGenerator.distinctNumbers(
    40_000, from: 12_000_000_000, span: 900_000_000, seed: 0x5_0111)

  private static let file: [UInt8] = {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 1
    // A few identification entries: their index stays without a top.
    return try! Contents(blocking: numbers, identification: [(13_000_000_000, "Acme")]).encoded(options: options)
  }()

  /// The summary and what checks or copies the top in its groups, which a file without the
  /// summary cannot have.
  private static let summaryTypes = [
    SectionType.blockingTopSummary.code, SectionType.blockingSummaryChecks.code, SectionType.blockingCheckedTop.code,
  ]

  /// Numbers to look up: every entry, misses between and around them, and the extremes.
  private static let probes: [Int64] = {
    var random = SeededGenerator(seed: 0x5_0112)
    let misses = (0..<4_000).map { _ in 11_999_999_000 + Int64.random(in: 0..<900_002_000, using: &random) }
    return numbers + misses + [1, numbers[0] - 1, numbers[numbers.count - 1] + 1, Limits.maximumNumber]
  }()

  @Test func aLongTopIsSummarisedInTheFirstPageAndComesAfterTheCopies() throws {
    let reader = try CallDirectoryReader(bytes: Self.file)
    let sections = reader.shape.header.sections
    #expect(
      sections.map(\.typeName) == [
        "BSUM", "BSCK", "HDRS", "BTOP", "BGCK", "BTCK", "LIDX", "IIDX", "BIDX", "BPAD", "BDAT", "IDAT", "LDAT",
      ])
    #expect(reader.version == (2, 6))
    for position in [0, 1, 2, 3, 4, 5, 9] { #expect(sections[position].flags == 0) }  // optional: derived
    let index = reader.shape.blockingIndex
    let (top, summary) = (try #require(index.top), try #require(index.summary))
    #expect(top.stride == 64 && top.count == 625)
    #expect(summary.stride == 32 && summary.count == 20)
    // What a cold open and the summary's search read lies in the first page.
    #expect(sections[2].offset + sections[2].length <= UInt64(PageAlignment.pageSize))
    #expect(reader.shape.identificationIndex.summary == nil && reader.shape.identificationIndex.top == nil)
    #expect(Verifier.verify(Self.file).problems == [])
  }

  /// The bit-flip suite's file with a summary (`LookupDamageTests.summarised()`) is valid and
  /// is searched through its three levels.
  @Test func theDamageSuitesSummarisedFileIsValid() throws {
    let shape = try LookupDamageTests.summarised()
    #expect(Verifier.verify(shape.bytes).problems == [])
    let reader = try CallDirectoryReader(bytes: shape.bytes)
    #expect(reader.shape.blockingIndex.summary?.count == 5 && reader.shape.blockingIndex.top?.count == 19)
    #expect(reader.shape.blockingIndex.checkedTop?.count == 19 && reader.version == (2, 6))
    #expect(Verifier.verify(try LookupDamageTests.summarisedWithoutCheckedTop().bytes).problems == [])
  }

  /// Tops of 384 samples together stay in the first page without summaries; one sample more,
  /// and each top has one, the short top too.
  @Test func topsOfMoreThan384SamplesTogetherAreSummarised() throws {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 1
    func file(blocking: Int, identification: Int) throws -> [UInt8] {
      let numbers = Array(Self.numbers.prefix(blocking + identification))
      let contents = Contents(
        blocking: Array(numbers.prefix(blocking)),
        identification: numbers.suffix(identification).map { ($0 + 1_000_000_000, "Caller \($0 % 7)") })
      return try contents.encoded(options: options)
    }
    // 24,576 records: a top of exactly 384 samples.
    let one = try CallDirectoryReader(bytes: try file(blocking: 24_576, identification: 0))
    #expect(one.shape.blockingIndex.top?.count == 384 && one.shape.blockingIndex.summary == nil)
    #expect(one.shape.header.sections.map(\.typeName).prefix(3) == ["BTOP", "HDRS", "BGCK"])
    #expect(one.version == (2, 5))
    // The first page holds the header, the table, the top and the copies: all a cold open reads.
    let copies = one.shape.header.sections[1]
    #expect(copies.offset + copies.length <= UInt64(PageAlignment.pageSize))
    // 19,200 and 5,440 records: tops of 300 and 85 samples, 385 together.
    let twoKinds = try file(blocking: 19_200, identification: 5_440)
    let two = try CallDirectoryReader(bytes: twoKinds)
    #expect(two.shape.blockingIndex.summary?.count == 10 && two.shape.identificationIndex.summary?.count == 3)
    let sections = two.shape.header.sections
    #expect(
      sections.map(\.typeName).prefix(11) == [
        "BSUM", "ISUM", "BSCK", "ISCK", "HDRS", "BTOP", "ITOP", "BGCK", "IGCK", "BTCK", "ITCK",
      ])
    #expect(sections[4].offset + sections[4].length <= UInt64(PageAlignment.pageSize))
    #expect(two.version == (2, 6))
    #expect(Verifier.verify(twoKinds).problems == [])
  }

  @Test func lookupsThroughTheSummaryAgreeWithTheTopAndTheIndexAlone() throws {
    var withoutSummary = try CraftedFile(Self.file)
    withoutSummary.sections.removeAll { Self.summaryTypes.contains($0.type) }
    var indexAlone = withoutSummary
    // Group checks check the groups of a top: without it they check nothing.
    indexAlone.sections.removeAll { [SectionType.blockingTop.code, SectionType.blockingGroupChecks.code].contains($0.type) }
    let readers = try [Self.file, withoutSummary.bytes, indexAlone.bytes].map { try CallDirectoryReader(bytes: $0) }
    #expect(readers[1].shape.blockingIndex.summary == nil && readers[2].shape.blockingIndex.top == nil)
    for number in Self.probes {
      let blocks = readers.map { $0.layout.blockingIndex.block(containing: UInt64(number)) }
      #expect(blocks[0] == blocks[1] && blocks[0] == blocks[2], "\(number)")
      let answers = try readers.map { try $0.isBlocked(number) }
      #expect(answers[0] == answers[1] && answers[0] == answers[2], "\(number)")
    }
    for number in Self.numbers { #expect(try readers[0].isBlocked(number)) }
  }

  /// Any stride a summary may have (1 ... 65,536) finds the blocks the top finds: a summary of
  /// one group, of every sample, and of groups that end inside the top's last.
  @Test(arguments: [1, 2, 7, 32, 624, 625, 65_536])
  func everyStrideFindsTheSameBlocks(stride: Int) throws {
    var file = try CraftedFile(Self.file)
    let top = file[.blockingTop]
    file[.blockingTopSummary] = TopIndex.encode(records: top[TopIndex.headerSize...], recordSize: 8, stride: stride)
    file[.blockingSummaryChecks] = GroupChecks.encode(
      samples: top[TopIndex.headerSize...], checks: file[.blockingGroupChecks], stride: stride)
    file[.blockingCheckedTop] = CheckedTop.encode(
      samples: top[TopIndex.headerSize...], checks: file[.blockingGroupChecks], stride: stride)
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(reader.shape.blockingIndex.summary?.count == (625 + stride - 1) / stride)
    #expect(Verifier.verify(file.bytes).problems == [])
    var withoutSummary = file
    withoutSummary.sections.removeAll { Self.summaryTypes.contains($0.type) }
    let plain = try CallDirectoryReader(bytes: withoutSummary.bytes)
    for number in Swift.stride(from: 0, to: Self.probes.count, by: 5).map({ Self.probes[$0] }) {
      #expect(
        reader.layout.blockingIndex.block(containing: UInt64(number))
          == plain.layout.blockingIndex.block(containing: UInt64(number)),
        "\(number)")
      #expect(try reader.isBlocked(number) == plain.isBlocked(number))
    }
  }

  @Test func aSampleThatDisagreesWithTheTopIsReported() throws {
    var file = try CraftedFile(Self.file)
    let reader = try CallDirectoryReader(bytes: Self.file)
    let known = reader.layout.blockingIndex.top?.sample(3 * 32)
    let sample = try #require(known)
    file.patch(.blockingTopSummary, at: 8 + 3 * 8, uint64: sample + 1)  // summary sample 3
    let problems = Verifier.verify(file.bytes).problems
    #expect(problems.count == 1, "\(problems)")
    let expected = FormatError(
      .malformedIndex("top summary sample 3 is \(sample + 1), top sample 96 is \(sample)"),
      at: file.offset(of: .blockingTopSummary) + 8 + 3 * 8, section: "BSUM")
    #expect(problems.first?.error == expected)
  }

  @Test func aSummaryInAFileBefore2Point4IsReported() throws {
    var file = try CraftedFile(Self.file)
    file.sections.removeAll {  // 2.5 and 2.6
      [SectionType.blockingGroupChecks.code, SectionType.blockingSummaryChecks.code, SectionType.blockingCheckedTop.code]
        .contains($0.type)
    }
    file.version.minor = 3
    let problems = Verifier.verify(file.bytes).problems
    let expected = FormatError(.invalidField(field: "minor version of a file with BSUM (2.4 or later)", value: 3), at: 10)
    #expect(problems.map(\.error) == [expected])
    // A reader reads it as it is: the version only tells an older reader's user what it skips.
    #expect(try CallDirectoryReader(bytes: file.bytes).isBlocked(Self.numbers[7]))
  }

  @Test(arguments: [0, 65_537] as [UInt32])
  func aStrideOutOfRangeIsRefusedAtOpen(stride: UInt32) throws {
    var file = try CraftedFile(Self.file)
    file.patch(.blockingTopSummary, at: 0, uint32: stride)
    let expected = FormatError(
      .invalidField(field: "top summary stride", value: UInt64(stride)), at: file.offset(of: .blockingTopSummary),
      section: "BSUM")
    #expect(throws: expected) { try CallDirectoryReader(bytes: file.bytes) }
  }

  @Test func aReservedFieldSetIsRefusedAtOpen() throws {
    var file = try CraftedFile(Self.file)
    file.patch(.blockingTopSummary, at: 4, uint32: 1)
    let expected = FormatError(
      .nonzeroReserved(field: "top summary header"), at: file.offset(of: .blockingTopSummary) + 4, section: "BSUM")
    #expect(throws: expected) { try CallDirectoryReader(bytes: file.bytes) }
  }

  @Test func aSummaryOfTheWrongLengthIsRefusedAtOpen() throws {
    var file = try CraftedFile(Self.file)
    file[.blockingTopSummary] = Array(file[.blockingTopSummary].dropLast(8))
    file.expectRefusedAtOpen(
      .malformedIndex(
        "a top summary over 625 samples in groups of 32 needs 20 samples (160 bytes), the section has 152 bytes of samples"),
      at: .blockingTopSummary)
  }

  @Test func aSummaryWithoutItsTopIsRefusedAtOpen() throws {
    var file = try CraftedFile(Self.file)
    file.sections.removeAll { $0.type == SectionType.blockingTop.code }
    file.expectRefusedAtOpen(.sectionLayout("BSUM summarises no BTOP"), at: .blockingTopSummary)
  }

  @Test func aDamagedSummaryAnswersNothingBeforeItsCheck() throws {
    var damaged = Self.file
    let offset = try CraftedFile(Self.file).offset(of: .blockingTopSummary) + 8 + 5 * 8
    damaged[offset] ^= 0x40
    let reader = try CallDirectoryReader(bytes: damaged)  // open reads the summary's fields, not its samples
    let summary = reader.shape.header.section(.blockingTopSummary)!
    let mismatch = try #require(formatError { try reader.isBlocked(Self.numbers[0]) })
    guard case .sectionChecksumMismatch = mismatch.kind else {
      Issue.record("\(mismatch)")
      return
    }
    #expect(mismatch.section == "BSUM" && mismatch.offset == Int(summary.offset))
    // Remembered: the next lookup gives the same error without reading the section again.
    #expect(formatError { try reader.isBlocked(Self.numbers[1]) } == mismatch)
  }

  /// Summary samples made arbitrary behind a fresh CRC: lookups give some answer, never a trap or
  /// a read outside the file, and the verifier reports every sample that differs.
  @Test(arguments: 0..<8)
  func arbitrarySamplesNeverTrap(seed: UInt64) throws {
    var random = SeededGenerator(seed: 0x5_0113 &+ seed)
    var file = try CraftedFile(Self.file)
    var changed = 0
    for sample in 0..<20 where Bool.random(using: &random) {
      let choices: [UInt64] = [0, 1, .max, UInt64(Limits.maximumNumber), UInt64.random(in: 0..<UInt64.max, using: &random)]
      let value = choices.randomElement(using: &random)!
      if value != file[.blockingTopSummary].uint64LE(at: 8 + sample * 8) { changed += 1 }
      file.patch(.blockingTopSummary, at: 8 + sample * 8, uint64: value)
    }
    let reader = try CallDirectoryReader(bytes: file.bytes)
    for number in Self.probes.shuffled(using: &random).prefix(2_000) { _ = try reader.isBlocked(number) }
    #expect(Verifier.verify(file.bytes).problems.count == changed)
  }

  @Test func aChangesetDoesNotCarryTheSummaryAndPatchMakesItAgain() throws {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 1
    let newNumbers = Self.numbers.enumerated().filter { $0.offset % 97 != 0 }.map(\.element) + [19_999_999_999]
    let newBytes = try Contents(blocking: newNumbers).encoded(options: options)
    let old = try CallDirectoryReader(bytes: Self.file)
    let changes = try ChangesetReader(bytes: try Changeset.diff(old: old, new: try CallDirectoryReader(bytes: newBytes)))
    #expect(try Changeset.patched(old: old, changes: changes) == newBytes)
    #expect(try CallDirectoryReader(bytes: newBytes).shape.blockingIndex.summary != nil)
  }
}
