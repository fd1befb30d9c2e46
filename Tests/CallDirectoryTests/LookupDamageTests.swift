import CallDirectory
import CallDirectoryCLI
import Foundation
import Synchronization
import Testing

/// No answer from damaged bytes (`Spec/FORMAT.md` section 14): every one-bit change of small
/// files of each shape gives, for every number looked up, the undamaged file's answer or an
/// error, through the library's lookups, a resolver over the reader, and the CLI.
@Suite struct LookupDamageTests {
  /// A small file and the numbers worth asking it about.
  struct Shape: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var probes: [Int64]
    var testDescription: String { name }
  }

  /// Blocking numbers in 75 blocks of 4, so that the file has a top index and group checks.
  static func blocking() throws -> Shape {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = 4
    let numbers = (0..<300).map { 12_025_550_000 + Int64($0) * 37 }
    for number in numbers { try builder.block(number) }
    return Shape(
      name: "blocking", bytes: try builder.encoded(),
      probes: [numbers[0], numbers[1], numbers[150], numbers[299], numbers[0] - 1, numbers[10] + 1, numbers[299] + 37, 1])
  }

  /// The blocking shape with a top of stride 4 (19 samples), its group checks, a summary of it of
  /// stride 4 (5 samples, format 2.4), the summary checks and the checked top (format 2.6): every
  /// lookup goes through the three levels, each checked a group at a time, and searches the
  /// checked top's groups.
  static func summarised() throws -> Shape {
    let older = try summarisedWithoutCheckedTop()
    var file = try CraftedFile(older.bytes)
    let top = file[.blockingTop]
    let copy = CheckedTop.encode(samples: top[TopIndex.headerSize...], checks: file[.blockingGroupChecks], stride: 4)
    file.sections.append(CraftedFile.Section(type: SectionType.blockingCheckedTop.code, flags: 0, bytes: copy))
    file.version.minor = 6
    return Shape(name: "summarised", bytes: file.bytes, probes: older.probes)
  }

  /// `summarised()` without its checked top (format 2.5): lookups search the top and read the
  /// group checks.
  static func summarisedWithoutCheckedTop() throws -> Shape {
    let plain = try blocking()
    var file = try CraftedFile(plain.bytes)
    let records = file[.blockingIndex][FormatConstants.entryIndexHeaderSize...]
    let top = TopIndex.encode(records: records, stride: 4)
    file[.blockingTop] = top
    file[.blockingGroupChecks] = GroupChecks.encode(records: records, stride: 4)
    let summary = TopIndex.encode(records: top[TopIndex.headerSize...], recordSize: 8, stride: 4)
    file.sections.insert(CraftedFile.Section(type: SectionType.blockingTopSummary.code, flags: 0, bytes: summary), at: 0)
    let checks = GroupChecks.encode(samples: top[TopIndex.headerSize...], checks: file[.blockingGroupChecks], stride: 4)
    file.sections.insert(CraftedFile.Section(type: SectionType.blockingSummaryChecks.code, flags: 0, bytes: checks), at: 1)
    return Shape(name: "summarised 2.5", bytes: file.bytes, probes: plain.probes)
  }

  /// Identification entries over 30 labels in label blocks of about 64 bytes, with a top index
  /// and group checks.
  static func labels() throws -> Shape {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = 4
    builder.options.labelBlockTarget = 64
    let numbers = (0..<280).map { 33_140_000_000 + Int64($0) * 1_001 }
    for (position, number) in numbers.enumerated() { try builder.identify(number, label: "Caller \(position % 30)") }
    return Shape(
      name: "labels", bytes: try builder.encoded(),
      probes: [numbers[0], numbers[7], numbers[100], numbers[279], numbers[3] + 1, numbers[279] + 1])
  }

  /// Ranges of both kinds beside single entries.
  static func ranges() throws -> Shape {
    var builder = DirectoryBuilder()
    try builder.block(33_899_000_000...33_899_999_999)
    try builder.block(44_870_000_000...44_870_009_999)
    try builder.block(12_025_550_100)
    try builder.identify(33_140_000_000...33_140_000_999, label: "Mairie")
    try builder.identify(33_150_000_000...33_150_000_099, label: "Banque")
    try builder.identify(12_025_550_123, label: "Acme")
    return Shape(
      name: "ranges", bytes: try builder.encoded(),
      probes: [
        33_899_000_000, 33_899_999_999, 33_900_000_000, 44_870_000_005, 33_140_000_500, 33_150_000_100, 12_025_550_123,
        12_025_550_100,
      ])
  }

  /// Range blocks of both kinds (Spec/FORMAT.md 10.1): three blocks of each, beside single entries.
  static func rangeBlocks() throws -> Shape {
    var builder = DirectoryBuilder()
    let firsts = (0..<300).map { 33_100_000_000 + Int64($0) * 10_000 }
    for (position, first) in firsts.enumerated() {
      try builder.block(first...(first + 999))
      try builder.identify((first + 5_000)...(first + 5_999), label: "Carrier \(position % 7)")
    }
    try builder.block(12_025_550_100)
    let bytes = try builder.encoded()
    return Shape(
      name: "range blocks", bytes: bytes,
      probes: [
        firsts[0], firsts[0] + 999, firsts[0] + 1_000, firsts[128] + 500, firsts[299] + 5_999, firsts[299] + 6_000,
        12_025_550_100,
      ])
  }

  /// Both kinds, a list version and a signature.
  static func signed() throws -> Shape {
    var builder = DirectoryBuilder()
    builder.options.listVersion = 7
    for number in [12_025_550_100, 12_025_550_142, 12_025_550_199] as [Int64] { try builder.block(number) }
    try builder.identify(12_025_550_142, label: "Acme")
    try builder.identify(12_025_550_150, label: "Bank")
    let bytes = try DirectorySigner.sign(try builder.encoded(), key: DamageFixtures.key)
    return Shape(name: "signed", bytes: bytes, probes: [12_025_550_100, 12_025_550_142, 12_025_550_150, 12_025_550_151])
  }

  static let shapes: [Shape] = [
    try! blocking(), try! summarised(), try! summarisedWithoutCheckedTop(), try! labels(), try! ranges(), try! rangeBlocks(),
    try! signed(),
  ]

  /// What a reader says about each probe: its answer, or `nil` for an error.
  static func answers(_ reader: CallDirectoryReader, _ probes: [Int64]) -> [LookupResult?] {
    probes.map { try? reader.lookup($0) }
  }

  @Test(arguments: shapes)
  func everyBitFlipGivesTheTrueAnswerOrAnError(shape: Shape) throws {
    let truth = Self.answers(try CallDirectoryReader(bytes: shape.bytes), shape.probes)
    #expect(!truth.contains(nil))
    var wrong: [String] = []
    var refused = 0
    for bit in 0..<(shape.bytes.count * 8) {
      var damaged = shape.bytes
      damaged[bit / 8] ^= 1 << UInt8(bit % 8)
      guard let reader = try? CallDirectoryReader(bytes: damaged) else {
        refused += 1
        continue
      }
      // Twice: the second round answers from what the first remembered as checked.
      for round in 0..<2 {
        for (probe, answer) in zip(shape.probes, Self.answers(reader, shape.probes)) {
          guard let answer, let expected = truth[shape.probes.firstIndex(of: probe)!], answer != expected else { continue }
          wrong.append("bit \(bit) round \(round): \(probe) answered \(answer), not \(expected)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(refused > 0, "open checks the header and the small sections")
  }

  /// A resolver over a damaged reader answers each call truly or throws.
  @Test func aResolverOverADamagedReaderAnswersTrulyOrThrows() throws {
    let shape = try Self.ranges()
    let truth = try Resolver(sources: [.init(name: "list", provider: try CallDirectoryReader(bytes: shape.bytes))])
    let expected = try shape.probes.map { try truth.resolve($0) }
    var wrong = 0
    for bit in 0..<(shape.bytes.count * 8) {
      var damaged = shape.bytes
      damaged[bit / 8] ^= 1 << UInt8(bit % 8)
      guard let reader = try? CallDirectoryReader(bytes: damaged) else { continue }
      let resolver = try Resolver(sources: [.init(name: "list", provider: reader)])
      for (probe, answer) in zip(shape.probes, expected) {
        if let got = try? resolver.resolve(probe), got != answer { wrong += 1 }
      }
    }
    #expect(wrong == 0)
  }

  /// The reproduction: the low byte of the blocking index's first number changed.
  @Test func theBlockingIndexFirstNumberChangedIsAnErrorNotNotListed() throws {
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try builder.block(12_025_550_142)
    var bytes = try builder.encoded()
    let file = try CraftedFile(bytes)
    bytes[file.offset(of: .blockingIndex) + 16] ^= 0x01
    let reader = try CallDirectoryReader(bytes: bytes)
    var first: FormatError?
    for number in [12_025_550_100, 12_025_550_142] as [Int64] {
      #expect {
        try reader.isBlocked(number)
      } throws: { error in
        guard let error = error as? FormatError, case .sectionChecksumMismatch = error.kind else { return false }
        // The failure is remembered: the second lookup gets the same error, placed the same way.
        defer { first = first ?? error }
        return error.section == "BIDX" && error.offset == file.offset(of: .blockingIndex) && (first == nil || first == error)
      }
    }
    #expect(first != nil)
  }

  /// A damaged entry block: the lookup that lands on it throws its checksum error, lookups that
  /// land on other blocks still answer.
  @Test func aDamagedBlockFailsOnlyTheLookupsThatLandOnIt() throws {
    let shape = try Self.blocking()
    let file = try CraftedFile(shape.bytes)
    let blocks = file.blockRanges(.blocking)
    var bytes = shape.bytes
    bytes[file.offset(of: .blockingData) + blocks[1].lowerBound + 5] ^= 0x10
    let reader = try CallDirectoryReader(bytes: bytes)
    let numbers = (0..<300).map { 12_025_550_000 + Int64($0) * 37 }
    #expect(try reader.isBlocked(numbers[0]))
    #expect {
      try reader.isBlocked(numbers[5])
    } throws: { error in
      guard let error = error as? FormatError, case .blockChecksumMismatch(let block, _, _) = error.kind else { return false }
      return block == 1 && error.section == "BDAT"
    }
    #expect(try reader.isBlocked(numbers[299]))
  }

  /// A reader the verifier passed whole answers as before, and says so by skipping nothing it
  /// needs: its answers equal a fresh reader's.
  @Test func aVerifiedReaderAnswersAsAnUncheckedOne() throws {
    for shape in Self.shapes {
      let verified = try CallDirectoryReader(bytes: shape.bytes)
      #expect(Verifier.verify(verified).isValid)
      let fresh = try CallDirectoryReader(bytes: shape.bytes)
      #expect(Self.answers(verified, shape.probes) == Self.answers(fresh, shape.probes), "\(shape.name)")
    }
  }

  /// `calldir lookup` and `calldir resolve` on every one-byte change of the signed file: exit 1
  /// with an error, or the undamaged output.
  @Test func theCLIAnswersTrulyOrFails() throws {
    let shape = try Self.signed()
    let scratch = try ScratchDirectory()
    let path = scratch.path("list.calldir")
    try Data(shape.bytes).write(to: URL(fileURLWithPath: path))
    let numbers = shape.probes.map { "+\($0)" }
    let lookupTruth = calldirArguments(["lookup", path] + numbers)
    let resolveTruth = calldirArguments(["resolve", path] + numbers)
    #expect(lookupTruth.status == 0 && resolveTruth.status == 0)
    var wrong: [String] = []
    for offset in shape.bytes.indices {
      var damaged = shape.bytes
      damaged[offset] ^= 0x01
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      let lookup = calldirArguments(["lookup", path] + numbers)
      if lookup.status == 0 && lookup.output != lookupTruth.output { wrong.append("lookup, byte \(offset)") }
      if lookup.status != 0 && lookup.error.isEmpty { wrong.append("lookup, byte \(offset): no message") }
      // resolve verifies the file whole before answering: every change is refused.
      let resolve = calldirArguments(["resolve", path] + numbers)
      if resolve.status == 0 { wrong.append("resolve, byte \(offset)") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }
}

/// Fixtures for damage tests.
enum DamageFixtures {
  /// A fixed key, so that failures reproduce.
  static let key = SigningKey(seed: Array(repeating: 0x5A, count: 32))!
}
