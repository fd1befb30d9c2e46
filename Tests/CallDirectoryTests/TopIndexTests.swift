import CallDirectory
import Testing

/// The top indexes (`Spec/FORMAT.md`, section 5.1): present where an index has more than one
/// group, used by lookups, checked by the verifier, refused at open when malformed.
@Suite struct TopIndexTests {
  /// 2,000 numbers in blocks of 4: 500 records, 8 groups of 64.
  private static let numbers = SeededGenerator.distinctNumbers(
    2_000, from: 12_000_000_000, span: 50_000_000, seed: 0x70_1DE7)

  private static func file() throws -> [UInt8] {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 4
    return try Contents(blocking: numbers, identification: [(13_000_000_000, "Acme")]).encoded(options: options)
  }

  @Test func canonicalOrderPutsTheTopAndTheIndexesFirst() throws {
    let reader = try CallDirectoryReader(bytes: try Self.file())
    // BDAT is longer than a page: the file is paged (version 2.1), with the headers' copies and padding.
    #expect(
      reader.shape.header.sections.map(\.typeName) == [
        "BTOP", "HDRS", "BGCK", "LIDX", "IIDX", "BIDX", "BPAD", "BDAT", "IDAT", "LDAT",
      ])
    #expect(reader.version == (2, 5))  // the group checks' version (Spec/FORMAT.md 5.4)
    for position in [0, 1, 2, 6] { #expect(reader.shape.header.sections[position].flags == 0) }  // optional: derived
    #expect(reader.layout.section(.blockingData).offset % UInt64(PageAlignment.pageSize) == 0)
    let top = try #require(reader.shape.blockingIndex.top)
    #expect(top.stride == 64 && top.count == 8)
    #expect(reader.shape.identificationIndex.top == nil)  // one record: no top
  }

  @Test func lookupsThroughTheTopAgreeWithTheIndexAlone() throws {
    let bytes = try Self.file()
    var stripped = try CraftedFile(bytes)
    stripped.sections.removeAll { [SectionType.blockingTop.code, SectionType.blockingGroupChecks.code].contains($0.type) }
    let withTop = try CallDirectoryReader(bytes: bytes)
    let withoutTop = try CallDirectoryReader(bytes: stripped.bytes)
    #expect(withoutTop.shape.blockingIndex.top == nil)
    var random = SeededGenerator(seed: 7)
    let probes =
      Self.numbers + (0..<2_000).map { _ in 11_999_999_000 + Int64.random(in: 0..<50_002_000, using: &random) }
      + [1, Self.numbers[0] - 1, Self.numbers[Self.numbers.count - 1] + 1, Limits.maximumNumber]
    for number in probes {
      let index = withTop.layout.blockingIndex
      #expect(index.block(containing: UInt64(number)) == withoutTop.layout.blockingIndex.block(containing: UInt64(number)))
      #expect(try withTop.isBlocked(number) == withoutTop.isBlocked(number))
    }
    for number in Self.numbers { #expect(try withTop.isBlocked(number)) }
  }

  @Test func aSampleThatDisagreesWithTheIndexIsReported() throws {
    var file = try CraftedFile(try Self.file())
    file.patch(.blockingTop, at: 8 + 3 * 8, uint64: 12_000_000_001)  // sample 3
    let report = Verifier.verify(file.bytes)
    #expect(report.problems.count == 1, "\(report.problems)")
    #expect(report.problems.first?.error.offset == file.offset(of: .blockingTop) + 8 + 3 * 8)
    #expect(report.problems.first?.error.section == "BTOP")
  }

  @Test(arguments: [0, 65_537] as [UInt32])
  func aStrideOutOfRangeIsRefusedAtOpen(stride: UInt32) throws {
    var file = try CraftedFile(try Self.file())
    file.patch(.blockingTop, at: 0, uint32: stride)
    #expect {
      try CallDirectoryReader(bytes: file.bytes)
    } throws: { error in
      guard let error = error as? FormatError, case .invalidField("top index stride", UInt64(stride)) = error.kind else {
        return false
      }
      return error.section == "BTOP" && error.offset == file.offset(of: .blockingTop)
    }
  }

  @Test func aTopOfTheWrongLengthIsRefusedAtOpen() throws {
    var file = try CraftedFile(try Self.file())
    /// The top index's sample count does not match its records, at the section's start.
    func refusedForItsLength() -> Bool {
      do {
        _ = try CallDirectoryReader(bytes: file.bytes)
        return false
      } catch {
        guard case .malformedIndex(let reason) = error.kind else { return false }
        return reason.hasPrefix("a top index over") && error.section == "BTOP" && error.offset == file.offset(of: .blockingTop)
      }
    }
    file[.blockingTop] = Array(file[.blockingTop].dropLast(8))
    #expect(refusedForItsLength())
    file[.blockingTop] = file[.blockingTop] + [UInt8](repeating: 0, count: 16)
    #expect(refusedForItsLength())
    // A length of no whole number of samples: the message names what is needed and what is there.
    file[.blockingTop] = Array(file[.blockingTop].prefix(8 + 8 * 8)) + [0, 0, 0, 0]
    #expect(refusedForItsLength())
    let reason = "a top index over 501 records in groups of 64 needs 8 samples (64 bytes), the section has 68 bytes of samples"
    #expect(formatError { try CallDirectoryReader(bytes: file.bytes) }?.kind == .malformedIndex(reason))
  }
}
