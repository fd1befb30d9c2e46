import CallDirectory
import Foundation
import Testing

/// The page layout of version 2.1 (`Spec/FORMAT.md`, sections 5.2, 6.2 and 12): copies of the
/// index headers in the first page, long entry data sections on page boundaries, and entry blocks
/// that do not reach into a page they could have left alone.
@Suite struct PageLayoutTests {
  /// A list of both kinds, each several pages long: `count` numbers, every third identified with
  /// one of `labels` labels.
  static func contents(count: Int, labels: Int, seed: UInt64) -> Contents {
    var random = SeededGenerator(seed: seed)
    var numbers = Set<Int64>()
    // Clusters of dense and of sparse numbers, so that blocks of very different lengths meet
    // page boundaries.
    while numbers.count < count {
      let base = Int64.random(in: 12_000_000_000...19_999_999_999, using: &random)
      let spread = [100, 10_000, 1_000_000].randomElement(using: &random)!
      for _ in 0..<Int.random(in: 1...200, using: &random) {
        numbers.insert(base + Int64.random(in: 0..<Int64(spread), using: &random))
      }
    }
    var contents = Contents()
    for (position, number) in numbers.sorted().enumerated() {
      if position % 3 == 0 {
        contents.identification.append((number, "Caller \(number % Int64(labels))"))
      } else {
        contents.blocking.append(number)
      }
    }
    return contents
  }

  /// The byte ranges of `kind`'s blocks in the file.
  static func blocks(_ reader: CallDirectoryReader, _ kind: EntryKind) throws -> [Range<Int>] {
    let index = reader.layout.index(kind)
    let base = Int(reader.layout.section(kind.sections.data).offset)
    return try (0..<index.blockCount).map { block in
      let range = try index.blockRange(block)
      return (base + range.lowerBound)..<(base + range.upperBound)
    }
  }

  @Test(arguments: [(20_000, 40, 1 as UInt64), (60_000, 5_000, 2), (9_000, 1, 3)])
  func pagedFilesKeepBlocksInsidePages(count: Int, labels: Int, seed: UInt64) throws {
    let contents = Self.contents(count: count, labels: labels, seed: seed)
    for perBlock in [512, 4096] {
      var options = DirectoryBuilder.Options()
      options.entriesPerBlock = perBlock
      let file = try contents.encoded(options: options)
      let reader = try CallDirectoryReader(bytes: file)
      // Version 2.1, or 2.3 where the labels take more than one block (Spec/FORMAT.md 9.1), or
      // 2.5 where an index has group checks (5.4).
      let groupChecks = reader.shape.blockingIndex.groupChecks != nil || reader.shape.identificationIndex.groupChecks != nil
      #expect(reader.version == (2, groupChecks ? 5 : reader.shape.labelIndex.blockCount > 1 ? 3 : 1))
      #expect(try Contents.read(reader) == contents.canonical)
      #expect(Verifier.verify(file).isValid)
      let page = PageAlignment.pageSize
      #expect(reader.shape.header.section(.indexHeaders).map { Int($0.offset) + 40 <= page } == true)
      for kind in EntryKind.allCases {
        let data = reader.layout.section(kind.sections.data)
        #expect(data.offset % UInt64(page) == 0, "\(kind) data starts on a page")
        let index = reader.layout.index(kind)
        for (block, range) in try Self.blocks(reader, kind).enumerated() {
          let (first, last) = (range.lowerBound / page, (range.upperBound - 1) / page)
          guard first != last else { continue }
          // Only a block whose first entry already crosses a boundary lies across one, and it
          // holds only that entry.
          #expect(last == first + 1)
          #expect(try index.entryCount(ofBlock: block) == 1, "block \(block) at \(range) lies across a page")
        }
      }
    }
  }

  /// The writer's length formula for the page rule is the length of the block it writes, and
  /// within the bound that lets it skip the formula far from a page's end.
  @Test func rawLengthIsTheEncodedLength() throws {
    var random = SeededGenerator(seed: 0x1E57)
    let extremes: [[Int64]] = [[1], [Limits.maximumNumber], [1, Limits.maximumNumber], [1, 2, 3], [5, 1 << 40, 1 << 62]]
    var cases = extremes.map { ($0, [UInt32](repeating: 0, count: $0.count)) }
    for _ in 0..<2_000 {
      let count = Int.random(in: 1...600, using: &random)
      // At least twice as many possible numbers as wanted, so that drawing them ends soon.
      let spread = max(Int64(count) * 2, Int64(1) << Int64.random(in: 1...62, using: &random))
      let start = Int64.random(in: 1...(Limits.maximumNumber - spread), using: &random)
      var numbers = Set<Int64>([start])
      while numbers.count < count { numbers.insert(start + Int64.random(in: 0..<spread, using: &random)) }
      let width = UInt32.random(in: 0...31, using: &random)
      cases.append((numbers.sorted(), (0..<count).map { _ in UInt32.random(in: 0...(UInt32(1) << width), using: &random) }))
    }
    for (numbers, ids) in cases {
      let span = UInt64(numbers[numbers.count - 1] - numbers[0])
      let width = Int(UInt64(ids.max()! - ids.min()!).significantBitCount)
      for identification in [false, true] {
        let encoded = EntryBlock.encode(numbers[...], labelIds: identification ? ids[...] : [], allowDeflate: false)
        #expect(
          EntryBlock.rawLength(
            count: numbers.count, span: span, labelBits: identification ? width : 0, identification: identification)
            == encoded.count)
        // The bound under which the writer skips the exact length.
        #expect(encoded.count <= 16 + (identification ? 13 : 9) * numbers.count)
      }
    }
  }

  /// Signing lays the file out again with the padding that keeps the data on pages; stripping the
  /// signature gives the unsigned file back; the stream writer signs to the same bytes.
  @Test func signingKeepsTheDataOnPages() throws {
    let key = try #require(SigningKey(seed: [UInt8](repeating: 0x5A, count: 32)))
    let contents = Self.contents(count: 12_000, labels: 30, seed: 4)
    let unsigned = try contents.encoded()
    let signed = try DirectorySigner.sign(unsigned, key: key)
    let reader = try CallDirectoryReader(bytes: signed)
    for kind in EntryKind.allCases {
      #expect(reader.layout.section(kind.sections.data).offset % UInt64(PageAlignment.pageSize) == 0)
    }
    var options = VerificationOptions()
    options.trust = TrustPolicy(trustedKeys: [key.publicKey])
    #expect(Verifier.verify(signed, options: options).isValid)
    #expect(try DirectorySigner.stripSignature(signed) == unsigned)
    #expect(try DirectorySigner.sign(signed, key: key) == signed)
  }

  /// A reader takes the index headers from their copies; a verifier reports copies that differ,
  /// and padding that is not zeros, where they are.
  @Test func copiesAndPaddingAreChecked() throws {
    let file = try Self.contents(count: 9_000, labels: 20, seed: 5).encoded()
    let original = try CraftedFile(file)
    // The reserved word of BIDX's own header: a reader that uses the copy never reads it.
    var header = original
    header.patch(.blockingIndex, at: 12, uint32: 1)
    let damaged = header.bytes
    #expect(throws: Never.self) { try CallDirectoryReader(bytes: damaged) }
    let report = Verifier.verify(damaged)
    let problem = try #require(report.problems.first).error
    #expect(problem.section == "HDRS" && problem.offset == header.offset(of: .indexHeaders))
    #expect(problem.description.contains("BIDX"))
    // A damaged copy is refused at open, placed in the copy.
    var copy = original
    copy.patch(.indexHeaders, at: IndexHeadersSection.offset(of: .identificationIndex) + 8, uint32: 0)
    let error = formatError { try CallDirectoryReader(bytes: copy.bytes) }
    #expect(error?.section == "HDRS" && error?.offset == copy.offset(of: .indexHeaders) + 16 + 8, "\(String(describing: error))")
    // Only a version 2.1 file has them.
    var older = original
    older.sections.removeAll { GroupChecksTests.types.contains($0.type) }  // 2.5
    older.version = (2, 0)
    let olderProblems = Verifier.verify(older.bytes).problems
    #expect(olderProblems.map(\.error.offset) == [10])
    #expect(olderProblems.first?.error.kind == .invalidField(field: "minor version of a file with HDRS (2.1 or later)", value: 0))
    // A version 1 file never has them (section 17): its major version is the field at fault.
    let version1 = try Data(
      contentsOf: SpecVectorTests.root.appendingPathComponent("Spec/conformance/cases/v1-index-headers.calldir"))
    let version1Problems = Verifier.verify([UInt8](version1)).problems
    #expect(version1Problems.map(\.error.offset) == [8])
    #expect(
      version1Problems.first?.error.kind == .invalidField(field: "major version of a file with HDRS (2.1 or later)", value: 1))
    // Padding holds zeros only.
    var padding = original
    let length = padding[.blockingPadding].count
    try #require(length > 1)
    padding.patch(.blockingPadding, at: length - 1, [0x80])
    let padded = Verifier.verify(padding.bytes)
    #expect(padded.problems.map(\.error.section) == ["BPAD"])
    #expect(padded.problems.first?.error.offset == padding.offset(of: .blockingPadding) + length - 1)
  }

  /// What a reader that knows neither the copies nor padding sees: the file without them (it
  /// skips optional sections it does not know) reads the same and verifies.
  @Test func theFileWithoutTheLayoutSectionsReadsTheSame() throws {
    let contents = Self.contents(count: 9_000, labels: 20, seed: 6)
    var crafted = try CraftedFile(try contents.encoded())
    let layoutSections: [SectionType] = [.indexHeaders, .blockingPadding, .identificationPadding]
    #expect(layoutSections.allSatisfy { type in crafted.sections.contains { $0.type == type.code } })
    crafted.sections.removeAll { section in layoutSections.contains { $0.code == section.type } }
    crafted.sections.removeAll { GroupChecksTests.types.contains($0.type) }  // 2.5, and checked by their own tests
    crafted.version = (2, 0)
    let stripped = crafted.bytes
    #expect(try Contents.read(CallDirectoryReader(bytes: stripped)) == contents.canonical)
    #expect(Verifier.verify(stripped).isValid)
  }
}
