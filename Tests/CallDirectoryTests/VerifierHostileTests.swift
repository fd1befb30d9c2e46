import CallDirectory
import Testing

/// Files with hostile values behind valid checksums: each must give a typed, placed problem, and
/// the reader must throw or answer, never trap.
@Suite struct VerifierHostileTests {
  /// Verifies a crafted file, replays it through the reader, and returns its problems.
  private func problems(_ file: CraftedFile, _ comment: Comment? = nil) -> [VerificationProblem] {
    let bytes = file.bytes
    exerciseReader(bytes, probes: VerifierSamples.probes)
    let report = Verifier.verify(bytes)
    #expect(!report.isValid, comment)
    // The checksums were resealed: the problems found are the hostile values themselves.
    #expect(!report.problems.contains { $0.error.kind.isSectionChecksumMismatch }, comment)
    return report.problems
  }

  private func sample() throws -> CraftedFile { try CraftedFile(try VerifierSamples.smallFile()) }

  // MARK: Indexes

  @Test(arguments: [(1 << 60, 32), (UInt64.max, 1), (UInt64.max, 4096), (UInt64(Int64.max), 7)] as [(UInt64, UInt32)])
  func hugeEntryCountWithATinyIndex(count: UInt64, perBlock: UInt32) throws {
    var file = try sample()
    file.patch(.blockingIndex, at: 0, uint64: count)
    file.patch(.blockingIndex, at: 8, uint32: perBlock)
    let found = problems(file)
    #expect(found.count == 1)
    #expect(found.first?.error.kind.isMalformedIndex == true)
    #expect(found.first?.error.section == "BIDX")
    #expect(found.first?.error.offset == file.offset(of: .blockingIndex))
    #expect(formatError { try CallDirectoryReader(bytes: file.bytes) } == found.first?.error)
  }

  @Test(arguments: [1 << 40, UInt64(Int64.max), UInt64.max, 100_000])
  func hugeLabelCount(count: UInt64) throws {
    var file = try sample()
    file.patch(.labelIndex, at: 0, uint32: UInt32(truncatingIfNeeded: count))
    file.patch(.labelIndex, at: 4, uint32: UInt32(truncatingIfNeeded: count >> 32))
    #expect(!problems(file).isEmpty)
  }

  /// A label count far above the labels present, with the blocks unchanged: the last block claims
  /// billions of labels, which must not be trusted as an allocation size.
  @Test func labelCountClaimsBillionsOfLabels() throws {
    var file = try sample()
    file.patch(.labelIndex, at: 0, uint32: UInt32.max)
    let found = problems(file)
    #expect(found.contains { $0.error.section == "LDAT" && $0.error.kind.isMalformedBlock })
    let reader = try CallDirectoryReader(bytes: file.bytes)
    // Streaming meets the same fault the verifier reports, and says so instead of allocating.
    let streamed = formatError { try reader.forEachIdentification { _, _ in } }
    #expect(streamed?.section == "LDAT" && streamed?.kind.isMalformedBlock == true, "\(String(describing: streamed))")
  }

  @Test(arguments: [0, 1, 2])
  func blockOffsetPastTheEnd(block: Int) throws {
    var file = try sample()
    let field = FormatConstants.entryIndexHeaderSize + block * FormatConstants.entryIndexRecordSize + 8
    for offset in [UInt64(file[.blockingData].count + 1), 1 << 40, UInt64.max] {
      file.patch(.blockingIndex, at: field, uint64: offset)
      let found = problems(file, "block \(block) offset \(offset)")
      #expect(
        found.contains {
          $0.error.kind.isMalformedIndex && $0.error.section == "BIDX"
            && $0.error.offset == file.offset(of: .blockingIndex) + field
        },
        "block \(block) offset \(offset): \(found)")
    }
  }

  @Test func blockOffsetIntoItself() throws {
    var file = try sample()
    let ranges = file.blockRanges(.blocking)
    // Block 1 starts where block 0 does: block 0 is empty, block 1 holds both.
    file.patch(.blockingIndex, at: FormatConstants.entryIndexHeaderSize + FormatConstants.entryIndexRecordSize + 8, uint64: 0)
    let found = problems(file)
    #expect(found.contains { $0.error.kind.isMalformedIndex && $0.error.section == "BIDX" })
    // Block 2 is untouched and still checked: no problem names it.
    let block2 = file.offset(of: .blockingData) + ranges[2].lowerBound
    #expect(!found.contains { $0.error.section == "BDAT" && $0.error.offset >= block2 })
  }

  @Test func blockOffsetsOutOfOrder() throws {
    var file = try sample()
    let ranges = file.blockRanges(.blocking)
    let field = FormatConstants.entryIndexHeaderSize + 2 * FormatConstants.entryIndexRecordSize + 8
    file.patch(.blockingIndex, at: field, uint64: UInt64(ranges[1].lowerBound - 1))
    #expect(problems(file).contains { $0.error.kind.isMalformedIndex })
  }

  @Test func firstBlockNotAtZero() throws {
    var file = try sample()
    file.patch(.identificationIndex, at: FormatConstants.entryIndexHeaderSize + 8, uint64: 1)
    let found = problems(file)
    #expect(found.contains { $0.error.kind.isMalformedIndex && $0.error.section == "IIDX" })
  }

  @Test(arguments: [0, UInt64(Int64.max), UInt64.max])
  func firstNumberOutOfRange(first: UInt64) throws {
    var file = try sample()
    let field = FormatConstants.entryIndexHeaderSize + FormatConstants.entryIndexRecordSize  // block 1
    file.patch(.blockingIndex, at: field, uint64: first)
    let found = problems(file)
    let expected = FormatError(.numberOutOfRange(first), at: file.offset(of: .blockingIndex) + field, section: "BIDX")
    #expect(found.map(\.error) == [expected])
    // The reader places the same error at the index record too, not at the block.
    let reader = try CallDirectoryReader(bytes: file.bytes)
    let streamed: StreamError<Never>? = {
      do throws(StreamError<Never>) { try reader.forEachBlocking { _ in } } catch { return error }
      return nil
    }()
    guard case .format(let error) = streamed else {
      Issue.record("expected a format error, got \(String(describing: streamed))")
      return
    }
    #expect(error == found.first?.error)
  }

  @Test func firstNumbersNotAscending() throws {
    var file = try sample()
    let first = FormatConstants.entryIndexHeaderSize
    let second = first + FormatConstants.entryIndexRecordSize
    file.patch(.blockingIndex, at: second, uint64: file[.blockingIndex].uint64LE(at: first))
    let found = problems(file)
    let previous = Int64(file[.blockingIndex].uint64LE(at: first))
    // Reported once, at the record: the block's own decode does not repeat it.
    let expected = FormatError(
      .notAscending(previous: previous, next: previous), at: file.offset(of: .blockingIndex) + second, section: "BIDX")
    #expect(found.map(\.error) == [expected])
  }

  /// A next block starting at or below the last number of the one before: entriesOutOfOrder and
  /// duplicateEntries in CallKit's terms, found by decoding, not by the index alone.
  @Test(arguments: [0, 1, 5])
  func blocksOverlap(below: Int64) throws {
    var file = try sample()
    let numbers = VerifierSamples.contents.blocking
    let lastOfBlock0 = numbers[255]  // block 0: the 256 consecutive numbers
    let field = FormatConstants.entryIndexHeaderSize + FormatConstants.entryIndexRecordSize
    file.patch(.blockingIndex, at: field, uint64: UInt64(lastOfBlock0 - below))
    let found = problems(file)
    #expect(found.map(\.error.kind) == [.notAscending(previous: lastOfBlock0, next: lastOfBlock0 - below)])
    #expect(found.first?.error.section == "BDAT")
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(
      formatError { try reader.forEachBlocking { _ in } }?.kind
        == .notAscending(previous: lastOfBlock0, next: lastOfBlock0 - below))
  }

  @Test func reservedIndexFields() throws {
    var entries = try sample()
    entries.patch(.blockingIndex, at: 12, uint32: 1)
    #expect(problems(entries).first?.error.kind == .nonzeroReserved(field: "index header"))
    var labels = try sample()
    labels.patch(.labelIndex, at: FormatConstants.labelIndexHeaderSize + FormatConstants.labelIndexRecordSize + 4, uint32: 7)
    let found = problems(labels)
    let expected = FormatError(
      .nonzeroReserved(field: "label index record"), at: labels.offset(of: .labelIndex) + 28, section: "LIDX")
    #expect(found.map(\.error) == [expected])
    // Readers refuse it too, whichever way they reach the block's labels: a stream of labels (as
    // unpack and lookup's label cache decode them) did not look at the field.
    let reader = try CallDirectoryReader(bytes: labels.bytes)
    #expect(formatError { try reader.forEachIdentification { _, _ in } } == expected)
  }

  @Test func dataWithoutAnIndex() throws {
    var file = try CraftedFile(try Contents().encoded())
    file[.blockingData] = [0, 0, 0, 0, 0, 0, 0, 0]
    let found = problems(file)
    #expect(found.map(\.error.offset) == [file.offset(of: .blockingData)])
    #expect(found.first?.error.kind.isMalformedIndex == true)
  }

  // MARK: Entry blocks

  @Test(arguments: [65_537, 1 << 31, UInt32.max] as [UInt32])
  func deflatedEntryPayloadOverTheCap(declared: UInt32) throws {
    var file = try sample()
    let block = file.blockRanges(.blocking)[0]
    try #require(file[.blockingData][block.lowerBound] == BlockCodec.deflate.rawValue)
    file.patch(.blockingData, at: block.lowerBound + 4, uint32: declared)
    file.resealBlock(in: .blockingData, block)
    let found = problems(file)
    #expect(found.count == 1)
    #expect(found.first?.error.kind.isMalformedBlock == true)
    #expect(found.first?.error.offset == file.offset(of: .blockingData) + block.lowerBound + 4)
  }

  @Test func deflatedEntryPayloadOfTheWrongSize() throws {
    let sample = try sample()
    let block = sample.blockRanges(.blocking)[0]
    let actual = sample[.blockingData].uint32LE(at: block.lowerBound + 4)
    for declared in [0, 1, actual - 1, actual + 1, UInt32(FormatConstants.maximumEntryPayload)] {
      var file = sample
      file.patch(.blockingData, at: block.lowerBound + 4, uint32: declared)
      file.resealBlock(in: .blockingData, block)
      let found = problems(file, "declared \(declared) of \(actual)")
      #expect(found.count == 1, "declared \(declared) of \(actual): \(found)")
      #expect(found.first.map { if case .inflateFailed = $0.error.kind { true } else { false } } == true, "\(found)")
    }
  }

  @Test func deflateStreamWithTrailingBytes() throws {
    var file = try sample()
    let block = file.blockRanges(.blocking)[0]
    var data = file[.blockingData]
    data.insert(0, at: block.upperBound - 4)
    file[.blockingData] = data
    // Move the later blocks' offsets along with their bytes.
    for record in 1..<file.blockRanges(.blocking).count {
      let field = FormatConstants.entryIndexHeaderSize + record * FormatConstants.entryIndexRecordSize + 8
      file.patch(.blockingIndex, at: field, uint64: file[.blockingIndex].uint64LE(at: field) + 1)
    }
    file.resealBlock(in: .blockingData, block.lowerBound..<(block.upperBound + 1))
    let found = problems(file)
    #expect(found.count == 1)
    guard case .inflateFailed(_, let reason) = found.first?.error.kind else {
      Issue.record("expected an inflate failure, got \(found)")
      return
    }
    #expect(reason.contains("after the end"))
  }

  @Test func unknownCodecAndReservedHeader() throws {
    for (at, value) in [(0, 2), (0, 0xFF), (1, 63), (2, 1), (3, 1)] as [(Int, UInt8)] {
      var file = try sample()
      let block = file.blockRanges(.blocking)[1]
      file.patch(.blockingData, at: block.lowerBound + at, [value])
      file.resealBlock(in: .blockingData, block)
      let found = problems(file, "byte \(at) = \(value)")
      #expect(
        found.first?.error.offset == file.offset(of: .blockingData) + block.lowerBound + at, "byte \(at) = \(value): \(found)")
    }
  }

  @Test func labelIdOutOfRange() throws {
    for base: UInt32 in [5, 0xFFFF_FFFF] {
      var file = try sample()
      let block = file.blockRanges(.identification)[0]
      let data = file[.identificationData]
      try #require(data[block.lowerBound] == BlockCodec.raw.rawValue)
      // The block's base label id (the payload's first four bytes) moves every id past the
      // table's 5 labels; near UInt32.max the sum must not wrap back into range.
      file.patch(.identificationData, at: block.lowerBound + 4, (0..<4).map { UInt8(truncatingIfNeeded: base >> ($0 * 8)) })
      file.resealBlock(in: .identificationData, block)
      let found = problems(file, "base \(base)")
      guard case .labelIdOutOfRange(_, let count) = found.first?.error.kind else {
        Issue.record("base \(base): \(found)")
        continue
      }
      #expect(count == 5)
      #expect(found.first?.error.offset == file.offset(of: .identificationData))
      #expect(found.first?.error.section == "IDAT")
    }
  }

  @Test func eliasFanoNotCanonical() throws {
    var file = try sample()
    let block = try #require(file.blockRanges(.blocking).last)
    // An extra high byte: one more than the writer's canonical length.
    var data = file[.blockingData]
    data.insert(0, at: block.upperBound - 4)
    file[.blockingData] = data
    file.resealBlock(in: .blockingData, block.lowerBound..<(block.upperBound + 1))
    let found = problems(file)
    #expect(found.count == 1)
    #expect(found.first?.error.kind.isMalformedBlock == true)
  }

  // MARK: Label blocks

  /// The small file's label block holding "Z", "Пекарня" and "🍕 Pizza" (raw, three labels).
  private func threeLabelBlock(_ file: CraftedFile) throws -> Range<Int> {
    let block = try #require(file.labelBlockRanges().last)
    try #require(file[.labelData][block.lowerBound] == BlockCodec.raw.rawValue)
    let labelBytes = 1 + "Пекарня".utf8.count + "🍕 Pizza".utf8.count
    try #require(file[.labelData].uint32LE(at: block.lowerBound + 4 + 12) == UInt32(labelBytes))
    return block
  }

  @Test func labelOffsetsOverlap() throws {
    var file = try sample()
    let block = try threeLabelBlock(file)
    // o[2] below o[1]: label 1 would run backwards.
    file.patch(.labelData, at: block.lowerBound + 4 + 8, uint32: 0)
    file.resealBlock(in: .labelData, block)
    let found = problems(file)
    #expect(found.count == 1)
    #expect(found.first?.error.kind.isMalformedBlock == true)
    #expect(found.first?.error.section == "LDAT")
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(formatError { try reader.forEachIdentification { _, _ in } }?.kind.isMalformedBlock == true)
  }

  /// Offsets that leave bytes outside every label, or point past the labels.
  @Test(arguments: [(12, 40), (12, 1 + 14 + 9), (12, 0xFFFF_FFFF), (8, 0xFFFF_FFFF)] as [(Int, UInt32)])
  func labelOffsetTableEnds(field: Int, value: UInt32) throws {
    var file = try sample()
    let block = try threeLabelBlock(file)
    file.patch(.labelData, at: block.lowerBound + 4 + field, uint32: value)
    file.resealBlock(in: .labelData, block)
    let found = problems(file, "o[\(field / 4)] = \(value)")
    #expect(found.count == 1, "o[\(field / 4)] = \(value): \(found)")
    #expect(found.first?.error.kind.isMalformedBlock == true)
    #expect(found.first?.error.offset == file.offset(of: .labelData) + block.lowerBound + 4)
  }

  /// A first offset above 0 that still leaves a valid, ordered label: only the offset table's own
  /// rule catches it, and readers keep it too: the label they handed out was cut from the wrong
  /// bytes.
  @Test func labelOffsetTableNotStartingAtZero() throws {
    var file = try sample()
    let block = try #require(file.labelBlockRanges().first)
    try #require(file[.labelData][block.lowerBound] == BlockCodec.raw.rawValue)
    file.patch(.labelData, at: block.lowerBound + 4, uint32: 4)  // label 0 becomes " Support"
    file.resealBlock(in: .labelData, block)
    let found = problems(file)
    #expect(found.count == 1, "\(found)")
    guard case .malformedBlock(0, let reason) = found.first?.error.kind else {
      Issue.record("expected a malformed block, got \(found)")
      return
    }
    #expect(reason.contains("not 0"))
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(formatError { try reader.label(id: 0) }?.kind.isMalformedBlock == true)
  }

  @Test func emptyLabel() throws {
    var file = try sample()
    let block = try threeLabelBlock(file)
    file.patch(.labelData, at: block.lowerBound + 4 + 4, uint32: 0)  // o[1] = o[0]: label 0 is empty
    file.resealBlock(in: .labelData, block)
    let found = problems(file)
    #expect(found.contains { if case .badLabelLength(2, 0) = $0.error.kind { true } else { false } }, "\(found)")
  }

  @Test func labelNotUTF8() throws {
    var file = try sample()
    let block = try threeLabelBlock(file)
    file.patch(.labelData, at: block.lowerBound + 4 + 16, [0xC0])  // "Z" becomes an overlong lead byte
    file.resealBlock(in: .labelData, block)
    #expect(problems(file).map(\.error.kind) == [.invalidUTF8(id: 2)])
    // The reader names the same label, by a lookup and by a stream, which loads the table first.
    let reader = try CallDirectoryReader(bytes: file.bytes)
    #expect(Self.kind { _ = try reader.label(id: 3) } == .invalidUTF8(id: 2))
    #expect(Self.kind { try CallDirectoryReader(bytes: file.bytes).forEachIdentification { _, _ in } } == .invalidUTF8(id: 2))
  }

  /// The format error `body` throws, directly or as a stream's.
  private static func kind(_ body: () throws -> Void) -> FormatError.Kind? {
    do { try body() } catch let error as FormatError { return error.kind } catch let error as StreamError<Never> {
      if case .format(let format) = error { return format.kind }
    } catch {}
    return nil
  }

  /// Two labels whose bytes together are valid UTF-8, split inside a character: the first ends
  /// with a lead byte, the second starts with its continuation. The first is named.
  @Test func labelSplitInsideACharacter() throws {
    let bytes = try Contents(identification: [(12_025_550_100, "aé"), (12_025_550_101, "zz")]).encoded()
    var file = try CraftedFile(bytes)
    let block = 0..<file[.labelData].count
    #expect(Array(file[.labelData][4..<16]) == [0, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0])  // raw: o = 0, 3, 5
    file.patch(.labelData, at: 8, uint32: 2)  // "a\xC3" and "\xA9zz"
    file.resealBlock(in: .labelData, block)
    #expect(problems(file).map(\.error.kind) == [.invalidUTF8(id: 0)])
    #expect(Self.kind { _ = try CallDirectoryReader(bytes: file.bytes).label(id: 1) } == .invalidUTF8(id: 0))
  }

  @Test(arguments: [("A", 2), ("S", 2), (VerifierSamples.labels[1], 2), ("я", 3)] as [(String, Int)])
  func labelsOutOfOrder(replacement: String, id: Int) throws {
    var file = try sample()
    var block = try threeLabelBlock(file)
    // Replace "Z" (the first label of the block) with a label that sorts at or before the last
    // label of the block before, or after the next label.
    var data = file[.labelData]
    let labelStart = block.lowerBound + 4 + 16
    data.replaceSubrange(labelStart..<(labelStart + 1), with: Array(replacement.utf8))
    let growth = replacement.utf8.count - 1
    for position in 1...3 {
      let field = block.lowerBound + 4 + position * 4
      data.setUInt32LE(data.uint32LE(at: field) + UInt32(growth), at: field)
    }
    file[.labelData] = data
    block = block.lowerBound..<(block.upperBound + growth)
    file.resealBlock(in: .labelData, block)
    let found = problems(file, "\(replacement)")
    #expect(found.map(\.error.kind) == [.labelsNotAscending(id: id)], "\(replacement): \(found)")
  }

  @Test func labelRecordsNotCoveringTheTable() throws {
    for (record, value) in [(0, 1), (1, 0), (2, 1), (2, 5), (2, 99)] as [(Int, UInt32)] {
      var file = try sample()
      file.patch(
        .labelIndex, at: FormatConstants.labelIndexHeaderSize + record * FormatConstants.labelIndexRecordSize, uint32: value)
      let found = problems(file, "record \(record) = \(value)")
      #expect(
        found.contains { $0.error.kind.isMalformedIndex && $0.error.section == "LIDX" }, "record \(record) = \(value): \(found)")
    }
  }

  @Test(arguments: [131_073, UInt32.max] as [UInt32])
  func deflatedLabelPayloadOverTheCap(declared: UInt32) throws {
    var file = try sample()
    let block = try #require(file.labelBlockRanges().first { file[.labelData][$0.lowerBound] == BlockCodec.deflate.rawValue })
    file.patch(.labelData, at: block.lowerBound + 4, uint32: declared)
    file.resealBlock(in: .labelData, block)
    let found = problems(file)
    #expect(found.count == 1)
    #expect(found.first?.error.kind.isMalformedBlock == true)
    #expect(found.first?.error.offset == file.offset(of: .labelData) + block.lowerBound + 4)
  }
}

extension FormatError.Kind {
  var isMalformedIndex: Bool {
    if case .malformedIndex = self { return true } else { return false }
  }

  var isMalformedBlock: Bool {
    if case .malformedBlock = self { return true } else { return false }
  }
}
