import CallDirectory
import Testing

@Suite struct VerifierDamageTests {
  @Test(arguments: [0x01, 0x80, 0xFF] as [UInt8], [false, true])
  func everySingleByteChangeIsReported(mask: UInt8, prefixCoded: Bool) throws {
    let bytes = try VerifierSamples.smallFile(prefixCoded: prefixCoded)
    var missed: [Int] = []
    for offset in bytes.indices {
      var damaged = bytes
      damaged[offset] ^= mask
      if Verifier.verify(damaged).isValid { missed.append(offset) }
      exerciseReader(damaged, probes: VerifierSamples.probes)
    }
    #expect(missed == [], "mask \(mask) of a \(bytes.count)-byte file")
  }

  /// The same for a file with both range sections.
  @Test func everySingleByteChangeOfARangedFileIsReported() throws {
    let shape = try LookupDamageTests.ranges()
    let (bytes, probes) = (shape.bytes, shape.probes)
    var missed: [Int] = []
    for offset in bytes.indices {
      for mask: UInt8 in [0x01, 0x80] {
        var damaged = bytes
        damaged[offset] ^= mask
        if Verifier.verify(damaged).isValid { missed.append(offset) }
        exerciseReader(damaged, probes: probes)
      }
    }
    #expect(missed == [])
  }

  @Test(arguments: [false, true])
  func everyTruncationIsReported(prefixCoded: Bool) throws {
    let bytes = try VerifierSamples.smallFile(prefixCoded: prefixCoded)
    for length in 0..<bytes.count {
      let prefix = Array(bytes[..<length])
      let report = Verifier.verify(prefix)
      #expect(report.problems.count == 1, "length \(length)")
      if let problem = report.problems.first?.error {
        #expect(throws: problem, "length \(length)") { try CallDirectoryReader(bytes: prefix) }
      }
      exerciseReader(prefix, probes: VerifierSamples.probes)
    }
  }

  @Test func appendedByteIsReported() throws {
    let bytes = try VerifierSamples.smallFile() + [0]
    let problems = Verifier.verify(bytes).problems
    #expect(problems.count == 1)
    guard case .fileLengthMismatch(let declared, let actual) = problems.first?.error.kind else {
      Issue.record("expected a file length mismatch, got \(problems)")
      return
    }
    #expect(declared + 1 == UInt64(actual))
    #expect(formatError { try CallDirectoryReader(bytes: bytes) } == problems.first?.error)
  }

  @Test func damageInTwoBlocksOfOneKindGivesTwoPlacedProblems() throws {
    let bytes = try VerifierSamples.smallFile()
    let file = try CraftedFile(bytes)
    let ranges = file.blockRanges(.blocking)
    try #require(ranges.count >= 3)
    let base = file.offset(of: .blockingData)
    var damaged = bytes
    damaged[base + ranges[0].lowerBound + 8] ^= 0x04  // past the codec, parameters and declared length
    damaged[base + ranges[2].lowerBound + 5] ^= 0x04
    let problems = Verifier.verify(damaged).problems
    let blockProblems = problems.filter {
      if case .blockChecksumMismatch = $0.error.kind { return true } else { return false }
    }
    // Each names its own block's trailer: the walk went on past the first damaged block.
    #expect(blockProblems.map(\.error.offset) == [base + ranges[0].upperBound - 4, base + ranges[2].upperBound - 4])
    #expect(blockProblems.allSatisfy { $0.error.section == "BDAT" })
    #expect(problems.contains { $0.error.kind.isSectionChecksumMismatch && $0.error.section == "BDAT" })
  }

  @Test(arguments: [false, true])
  func damageInTwoLabelBlocksGivesTwoPlacedProblems(prefixCoded: Bool) throws {
    let bytes = try VerifierSamples.smallFile(prefixCoded: prefixCoded)
    let file = try CraftedFile(bytes)
    let ranges = file.labelBlockRanges()
    try #require(ranges.count >= 3)
    let base = file.offset(of: file.labelSection)
    var damaged = bytes
    damaged[base + ranges[0].upperBound - 2] ^= 0x40
    damaged[base + ranges[2].upperBound - 3] ^= 0x40
    let problems = Verifier.verify(damaged).problems.filter { !$0.error.kind.isSectionChecksumMismatch }
    #expect(problems.map(\.error.offset) == [base + ranges[0].upperBound - 4, base + ranges[2].upperBound - 4])
    #expect(problems.allSatisfy { $0.error.section == file.labelSection.rawValue })
  }

  @Test func damageInEverySectionIsReportedPerSection() throws {
    let bytes = try VerifierSamples.smallFile()
    let file = try CraftedFile(bytes)
    var damaged = bytes
    let present = try CallDirectoryReader(bytes: bytes).shape.header.sections.compactMap { SectionType(rawValue: $0.typeName) }
    for type in present {
      // The last byte of each section: a block trailer or an index record's top byte.
      damaged[file.offset(of: type) + file[type].count - 1] ^= 0x20
    }
    let problems = Verifier.verify(damaged).problems
    let damagedSections = Set(problems.filter { $0.error.kind.isSectionChecksumMismatch }.compactMap(\.error.section))
    #expect(damagedSections == Set(present.map(\.rawValue)))
    #expect(Set(problems.map(\.error.offset)).count >= present.count)
  }

  /// A data section's checksum follows from its blocks' when they all pass: a wrong value in the
  /// table, every byte of the section intact, is still reported, with the section's real CRC.
  @Test func aWrongDataChecksumInTheTableIsReported() throws {
    let bytes = try PageLayoutTests.contents(count: 9_000, labels: 20, seed: 8).encoded()
    let header = try CallDirectoryReader(bytes: bytes).shape.header
    for type in [SectionType.blockingData, .identificationData, .labelData] {
      let position = try #require(header.sections.firstIndex { $0.type == type.code })
      let entry = header.sections[position]
      let real = CRC32.checksum(Array(bytes[Int(entry.offset)..<Int(entry.offset + entry.length)]))
      #expect(real == entry.checksum)
      var damaged = header
      damaged.sections[position].checksum ^= 0x100
      let file = damaged.encoded() + bytes[FileHeader.size(sectionCount: header.sections.count)...]
      let problems = Verifier.verify(Array(file)).problems
      #expect(problems.count == 1, "\(type): \(problems)")
      #expect(problems.first?.error.kind == .sectionChecksumMismatch(stored: real ^ 0x100, computed: real))
      #expect(problems.first?.error.section == type.rawValue)
    }
  }

  @Test func problemListIsCapped() throws {
    let bytes = try VerifierSamples.smallFile()
    let file = try CraftedFile(bytes)
    var damaged = bytes
    for range in file.blockRanges(.blocking) { damaged[file.offset(of: .blockingData) + range.upperBound - 1] ^= 1 }
    var options = VerificationOptions()
    options.maximumProblems = 2
    let capped = Verifier.verify(damaged, options: options)
    #expect(capped.problems.count == 2)
    #expect(capped.truncatedProblemList)
    let full = Verifier.verify(damaged)
    #expect(full.problems.count > 2 && !full.truncatedProblemList)
    #expect(Array(full.problems.prefix(2)) == capped.problems)
  }

  /// A stream over a damaged file throws or gives the file's own entries, never other ones:
  /// every block is checked by its checksum, and each block's first number, which lies in the
  /// index, by the index section's.
  @Test(arguments: [0x01, 0x80] as [UInt8], [false, true])
  func streamsNeverHandOutDamagedEntries(mask: UInt8, prefixCoded: Bool) throws {
    let bytes = try VerifierSamples.smallFile(prefixCoded: prefixCoded)
    func entries(_ bytes: [UInt8]) -> (blocking: [Int64], identification: [Int64], ids: [UInt32])? {
      guard let reader = try? CallDirectoryReader(bytes: bytes) else { return nil }
      var blocking: [Int64] = []
      var identification: [Int64] = []
      var ids: [UInt32] = []
      do {
        try reader.forEachBlocking { blocking.append($0) }
        try reader.forEachIdentificationLabelId {
          identification.append($0)
          ids.append($1)
        }
      } catch { return nil }
      return (blocking, identification, ids)
    }
    let original = try #require(entries(bytes))
    var silent: [Int] = []
    for offset in bytes.indices {
      var damaged = bytes
      damaged[offset] ^= mask
      guard let streamed = entries(damaged) else { continue }
      if streamed.blocking != original.blocking || streamed.identification != original.identification
        || streamed.ids != original.ids
      {
        silent.append(offset)
      }
    }
    #expect(silent == [], "mask \(mask) of a \(bytes.count)-byte file")
  }

  @Test func cursorKeepsThrowingAfterADamagedBlock() throws {
    let bytes = try VerifierSamples.smallFile()
    let file = try CraftedFile(bytes)
    var damaged = bytes
    damaged[file.offset(of: .blockingData) + file.blockRanges(.blocking)[0].upperBound - 1] ^= 1
    var cursor = try CallDirectoryReader(bytes: damaged).cursor(.blocking)
    for _ in 0..<3 {
      #expect {
        try cursor.next()
      } throws: { error in
        guard case .blockChecksumMismatch(block: 0, _, _) = (error as? FormatError)?.kind else { return false }
        return true
      }
    }
  }
}

extension FormatError.Kind {
  var isSectionChecksumMismatch: Bool {
    if case .sectionChecksumMismatch = self { return true } else { return false }
  }
}

@Suite struct VerifierResealedDamageTests {
  /// Random damage behind fresh checksums reaches the structural checks. Whatever the verifier
  /// says must hold: a file it passes streams and answers every lookup of what it streams.
  @Test(arguments: [false, true])
  func resealedRandomDamageNeverContradictsTheVerifier(prefixCoded: Bool) throws {
    let seed: UInt64 = 0x5EA1_ED00
    var random = SeededGenerator(seed: seed)
    let original = try CraftedFile(try VerifierSamples.smallFile(prefixCoded: prefixCoded))
    let dataRanges: [SectionType: [Range<Int>]] = [
      .blockingData: original.blockRanges(.blocking), .identificationData: original.blockRanges(.identification),
      original.labelSection: original.labelBlockRanges(),
    ]
    var passed = 0
    for iteration in 0..<1000 {
      var file = original
      let type = SectionType.allCases.randomElement(using: &random)!
      let count = file[type].count
      guard count > 0 else { continue }
      for _ in 0...Int.random(in: 0..<3, using: &random) {
        let at = Int.random(in: 0..<count, using: &random)
        file.patch(type, at: at, [file[type][at] ^ UInt8.random(in: 1...255, using: &random)])
        if let block = dataRanges[type]?.first(where: { $0.contains(at) }), at < block.upperBound - 4 {
          file.resealBlock(in: type, block)
        }
      }
      let bytes = file.bytes
      let report = Verifier.verify(bytes)
      exerciseReader(bytes, probes: VerifierSamples.probes)
      guard report.isValid else { continue }
      passed += 1
      let reader = try CallDirectoryReader(bytes: bytes)
      let contents = try Contents.read(reader)
      #expect(contents.blocking.count == report.blockingCount, "seed \(seed) iteration \(iteration)")
      #expect(contents.identification.count == report.identificationCount, "seed \(seed) iteration \(iteration)")
      for number in contents.blocking { #expect(try reader.isBlocked(number), "seed \(seed) iteration \(iteration)") }
      for (number, label) in contents.identification {
        #expect(try reader.label(for: number) == label, "seed \(seed) iteration \(iteration)")
      }
    }
    // Most damage is caught; what passes is a different valid file, which the checks above replay.
    #expect(passed < 500, "seed \(seed)")
  }
}

/// The label table is checked on a second thread by default: the report must be the one the
/// serial order gives, problem for problem, cap included.
@Suite struct VerifierConcurrencyTests {
  @Test(arguments: [1, 3, 1000], [false, true])
  func concurrentReportsAreTheSerialOnes(cap: Int, prefixCoded: Bool) throws {
    var random = SeededGenerator(seed: 0xC0C0 &+ UInt64(cap))
    let original = try CraftedFile(try VerifierSamples.smallFile(prefixCoded: prefixCoded))
    let labelBlocks = original.labelBlockRanges()
    let labels = original.labelSection
    for iteration in 0..<200 {
      var file = original
      // Damage in the labels, the entries, or both, sometimes behind fresh block checksums.
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let type = [labels, .identificationData, .blockingData, .labelIndex].randomElement(using: &random)!
        let count = file[type].count
        guard count > 0 else { continue }
        let at = Int.random(in: 0..<count, using: &random)
        file.patch(type, at: at, [file[type][at] ^ UInt8.random(in: 1...255, using: &random)])
        if type == labels, Bool.random(using: &random), let block = labelBlocks.first(where: { $0.contains(at) }) {
          file.resealBlock(in: labels, block)
        }
      }
      var options = VerificationOptions()
      options.maximumProblems = cap
      options.concurrent = false
      let serial = Verifier.verify(file.bytes, options: options)
      options.concurrent = true
      let concurrent = Verifier.verify(file.bytes, options: options)
      #expect(concurrent == serial, "iteration \(iteration)")
    }
  }
}
