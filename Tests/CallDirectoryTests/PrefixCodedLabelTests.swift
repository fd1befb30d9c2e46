import CallDirectory
import Testing

/// Prefix-coded label blocks (`LPFX`, `Spec/FORMAT.md` section 9.1): what the writer makes reads
/// back as written, and what a hostile block claims is refused, naming the block.
@Suite struct PrefixCodedLabelTests {
  /// Labels built from a few shared words, so neighbours in byte order share long prefixes, with
  /// multi-byte characters where a shared prefix can end inside a character.
  static func labels(_ count: Int, seed: UInt64) -> [String] {
    var random = SeededGenerator(seed: seed)
    let words = ["Garage", "Garages", " ", "Dupont", "Durand", "é", "e\u{301}", "州", "州安", "😀", "Z", "0", "1"]
    var labels = Set<String>()
    while labels.count < count {
      labels.insert((0..<Int.random(in: 1...6, using: &random)).map { _ in words.randomElement(using: &random)! }.joined())
    }
    return labels.sorted()
  }

  static func contents(_ labels: [String]) -> Contents {
    Contents(identification: labels.enumerated().map { (12_025_550_000 + Int64($0.offset) * 3, $0.element) })
  }

  static func options(labelBlockTarget: Int, prefixCoded: Bool = true) -> DirectoryBuilder.Options {
    var options = DirectoryBuilder.Options()
    options.labelBlockTarget = labelBlockTarget
    options.prefixCodedLabels = prefixCoded
    return options
  }

  /// The writer's file for `contents`, checked: it verifies, says version 2.3 exactly when it has
  /// `LPFX`, and holds its labels in one of the two sections.
  static func file(_ contents: Contents, _ options: DirectoryBuilder.Options) throws -> CraftedFile {
    let bytes = try contents.encoded(options: options)
    #expect(Verifier.verify(bytes).problems == [])
    let file = try CraftedFile(bytes)
    let types = Set(file.sections.map(\.type))
    #expect(types.contains(SectionType.labelData.code) != types.contains(SectionType.labelPrefixData.code))
    #expect((file.version.minor == 3) == (file.labelSection == .labelPrefixData))
    return file
  }

  /// Seeded label sets round-trip through every block size, deflated blocks and raw: lookups,
  /// labels by id and streams give back what went in, and the file holds the same labels as the
  /// one the option leaves in `LDAT`, in a smaller section.
  @Test(arguments: [(40, 64), (600, 256), (3_000, 4096)] as [(Int, Int)])
  func seededLabelsRoundTrip(count: Int, target: Int) throws {
    let seed = 0x1F_F1C5 &+ UInt64(count)
    let labels = Self.labels(count, seed: seed)
    let contents = Self.contents(labels)
    let prefixed = try Self.file(contents, Self.options(labelBlockTarget: target))
    let offsets = try Self.file(contents, Self.options(labelBlockTarget: target, prefixCoded: false))
    #expect(prefixed.labelSection == .labelPrefixData, "seed \(seed)")
    #expect(offsets.labelSection == .labelData && offsets.version.minor < 3, "seed \(seed)")
    #expect(prefixed[.labelPrefixData].count < offsets[.labelData].count, "seed \(seed)")
    // The blocks hold the same labels: the label count, block count and first ids agree.
    func firstIds(_ file: CraftedFile) -> [UInt32] {
      let index = file[.labelIndex]
      return stride(from: 8, to: index.count, by: 16).map { index.uint32LE(at: $0) } + [
        index.uint32LE(at: 0), index.uint32LE(at: 4),
      ]
    }
    #expect(firstIds(prefixed) == firstIds(offsets), "seed \(seed)")
    let codecs = Set(prefixed.labelBlockRanges().map { prefixed[.labelPrefixData][$0.lowerBound] })
    #expect(codecs.contains(count < 100 ? BlockCodec.raw.rawValue : BlockCodec.deflate.rawValue), "seed \(seed)")
    let reader = try CallDirectoryReader(bytes: prefixed.bytes)
    #expect(try Contents.read(reader) == contents.canonical, "seed \(seed)")
    // The table is in byte order, and String's `<` is not (nor its `==`, which is why the ids are
    // compared as bytes).
    let table = try (0..<reader.labelCount).map { try reader.label(id: $0).map { Array($0.utf8) } ?? [] }
    #expect(table == labels.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }, "seed \(seed)")
    var random = SeededGenerator(seed: seed)
    for (number, label) in contents.identification.shuffled(using: &random) {
      #expect(try reader.label(for: number) == label, "seed \(seed)")
    }
  }

  /// A table of one block stays in `LDAT`, byte for byte what a reader before 2.3 reads; so does
  /// an empty one.
  @Test(arguments: [0, 1, 2, 30])
  func oneBlockStaysInLDAT(count: Int) throws {
    let file = try Self.file(Self.contents(Self.labels(count, seed: 7)), DirectoryBuilder.Options())
    #expect(file.labelSection == .labelData)
    #expect(file.version.minor < 3)
    #expect(file.labelBlockRanges().count == min(count, 1))
  }

  /// The longest labels, sharing all but their last byte, each in a block of its own (a label
  /// past the block target): the shared prefix may not cross a block, so each block stores its
  /// label whole.
  @Test func longestLabelsSharingAlmostEverything() throws {
    let stem = String(repeating: "州", count: (65_534 - 1) / 3)  // 65,532 bytes
    let labels = [stem + "A", stem + "B", stem + "C"] + (0..<3).map { String(repeating: "z", count: 65_534 - $0) }
    let file = try Self.file(Self.contents(labels.sorted()), DirectoryBuilder.Options())
    #expect(file.labelSection == .labelPrefixData)
    #expect(file.labelBlockRanges().count == labels.count)
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(try (0..<reader.labelCount).map { try reader.label(id: $0) } == labels.sorted())
  }

  // MARK: Hostile blocks

  /// A prefix-coded record: `shared` bytes of the label before, then `own`.
  static func record(_ shared: UInt64, _ own: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    Varint.append(shared, to: &bytes)
    Varint.append(UInt64(own.count), to: &bytes)
    return bytes + own
  }

  /// A file with no entries whose label table is `blocks`, each a payload stored raw and the
  /// number of labels the index says it holds, in `LPFX`, with version 2.`minor`. A table with
  /// labels no entry uses is valid (section 12), so only the blocks decide the verdict.
  static func file(blocks: [(payload: [UInt8], labels: Int)], minor: UInt16 = 3) throws -> [UInt8] {
    var file = try CraftedFile(Contents().encoded())
    var index: [UInt8] = []
    index.appendUInt32LE(UInt32(blocks.reduce(0) { $0 + $1.labels }))
    index.appendUInt32LE(UInt32(blocks.count))
    var data: [UInt8] = []
    var first = 0
    for block in blocks {
      index.appendUInt32LE(UInt32(first))
      index.appendUInt32LE(0)
      index.appendUInt64LE(UInt64(data.count))
      data += Block.encode(header: (0, 0, 0), payload: block.payload, deflateWhenSaving: nil)
      first += block.labels
    }
    file[.labelIndex] = index
    let position = try #require(file.sections.firstIndex { $0.type == SectionType.labelData.code })
    file.sections[position] = .init(type: SectionType.labelPrefixData.code, flags: 1, bytes: data)
    file.version = (2, minor)
    return file.bytes
  }

  /// Crafted blocks that follow every rule read as the labels they code, whatever the prefix
  /// lengths chosen (not only the longest), across blocks.
  @Test func craftedBlocksRead() throws {
    let bytes = try Self.file(blocks: [
      (Self.record(0, Array("Garage".utf8)) + Self.record(3, Array("ye".utf8)) + Self.record(0, Array("Gas".utf8)), 3),
      (Self.record(0, Array("Ü".utf8)) + Self.record(1, [0x9D]), 2),  // a prefix ending inside "Ü"
    ])
    #expect(Verifier.verify(bytes).problems == [])
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(try (0..<5).map { try reader.label(id: $0) } == ["Garage", "Garye", "Gas", "Ü", "Ý"])
  }

  /// Payloads that break a rule of section 9.1, with the words their error must say.
  static let hostile: [(name: String, payload: [UInt8], labels: Int, says: String)] = {
    let stem = [UInt8](repeating: 0x61, count: 60_000)
    return [
      ("a first label with a prefix", record(1, [0x61]), 1, "first label shares 1 bytes with no label before it"),
      (
        "a prefix longer than the label before", record(0, [0x61]) + record(2, [0x62]), 2,
        "label 1 of the block shares 2 bytes with a label of 1"
      ),
      (
        "a label with no bytes of its own", record(0, Array("abc".utf8)) + record(1, []), 2,
        "label 1 of the block is 1 shared and 0 own bytes"
      ),
      ("a padded varint", [0x80, 0x00, 0x01, 0x61], 1, "no canonical prefix and suffix lengths"),
      ("a length over 65,534", [0x00, 0xFF, 0xFF, 0x03] + stem, 1, "no canonical prefix and suffix lengths"),
      (
        "a label of 65,535 bytes", record(0, stem) + record(60_000, [UInt8](repeating: 0x62, count: 5_535)), 2,
        "60000 shared and 5535 own"
      ),
      ("a suffix past the payload", [0x00, 0x05, 0x61, 0x62], 1, "runs past the payload"),
      ("bytes after the last label", record(0, [0x61]) + [0x00], 1, "1 bytes follow the last label"),
      (
        "more labels than records", record(0, Array("abc".utf8)) + record(1, Array("bcd".utf8)), 3,
        "no canonical prefix and suffix lengths"
      ),
      ("more labels than the payload can hold", record(0, [0x61, 0x62, 0x63]), 2, "do not fit in 5 bytes"),
      // Each record repeats 60,000 bytes for 3 of its own: the third passes the 131,072-byte cap.
      (
        "labels past the cap", record(0, stem) + record(60_000, [0x62]) + record(60_001, [0x63]), 3,
        "labels 0 to 2 of the block decode past the 131072-byte cap"
      ),
    ]
  }()

  @Test(arguments: hostile.indices)
  func hostileBlockIsRefused(case number: Int) throws {
    let (name, payload, labels, says) = Self.hostile[number]
    let bytes = try Self.file(blocks: [(Self.record(0, Array("A".utf8)), 1), (payload, labels)])
    let problems = Verifier.verify(bytes).problems
    #expect(problems.count == 1, "\(name): \(problems)")
    let problem = try #require(problems.first?.error, "\(name)")
    guard case .malformedBlock(block: 1, let reason) = problem.kind else {
      Issue.record("\(name): \(problem)")
      return
    }
    #expect(reason.contains(says), "\(name): \(reason)")
    #expect(problem.section == "LPFX", "\(name)")
    // The reader answers from the sound block and refuses the damaged one with the same error.
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(try reader.label(id: 0) == "A", "\(name)")
    #expect(formatError { try reader.label(id: 1) } == problem, "\(name)")
    exerciseReader(bytes, probes: [1])
  }

  /// Labels a block decodes whole still obey section 9: UTF-8 and order across the prefix.
  @Test func decodedLabelsAreChecked() throws {
    let split = try Self.file(blocks: [(Self.record(0, Array("Ü".utf8)) + Self.record(1, [0x41]), 2)])
    #expect(Verifier.verify(split).problems.map(\.error.kind) == [.invalidUTF8(id: 1)])
    let unordered = try Self.file(blocks: [(Self.record(0, Array("Garage".utf8)) + Self.record(3, Array("a".utf8)), 2)])
    #expect(Verifier.verify(unordered).problems.map(\.error.kind) == [.labelsNotAscending(id: 1)])
  }

  /// `LPFX` in a file that says an earlier version, or beside `LDAT`, is invalid.
  @Test func prefixCodedLabelsNeedVersion2Point3AndNoLDAT() throws {
    let blocks = [(Self.record(0, Array("A".utf8)), 1)]
    let older = try Self.file(blocks: blocks, minor: 2)
    #expect(
      Verifier.verify(older).problems.map(\.error.kind) == [
        .invalidField(field: "minor version of a file with LPFX (2.3 or later)", value: 2)
      ])
    var both = try CraftedFile(try Self.file(blocks: blocks))
    both.sections.append(.init(type: SectionType.labelData.code, flags: 1, bytes: []))
    #expect(
      formatError { try CallDirectoryReader(bytes: both.bytes) }?.kind == .sectionLayout("both LDAT and LPFX hold label blocks"))
    #expect(Verifier.verify(both.bytes).problems.map(\.error.kind) == [.sectionLayout("both LDAT and LPFX hold label blocks")])
  }
}
