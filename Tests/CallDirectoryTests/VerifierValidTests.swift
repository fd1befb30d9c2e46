import CallDirectory
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct VerifierValidTests {
  @Test func emptyDirectoryIsValid() throws {
    let report = Verifier.verify(try Contents().encoded())
    #expect(report.problems == [])
    #expect(report.isValid && !report.truncatedProblemList)
    #expect(report.blockingCount == 0 && report.identificationCount == 0 && report.labelCount == 0)
  }

  @Test func oneEntryEachIsValid() throws {
    let contents = Contents(blocking: [12025550100], identification: [(12025550123, "Acme Support")])
    let report = Verifier.verify(try contents.encoded())
    #expect(report.problems == [])
    #expect(report.blockingCount == 1 && report.identificationCount == 1 && report.labelCount == 1)
  }

  @Test func extremesAreValid() throws {
    let contents = Contents(
      blocking: [1, 2, Int64.max / 2, Int64.max - 2, Int64.max - 1],
      identification: [(1, "one"), (Int64.max - 1, "max")])
    #expect(Verifier.verify(try contents.encoded()).problems == [])
  }

  @Test(arguments: [1, 2, 4, 64, 4096])
  func seededRandomIsValid(entriesPerBlock: Int) throws {
    let seed: UInt64 = 0x0E21_F1E5 + UInt64(entriesPerBlock)
    var random = SeededGenerator(seed: seed)
    var contents = Contents()
    for _ in 0..<3000 { contents.blocking.append(Int64.random(in: 1...Limits.maximumNumber, using: &random)) }
    let labels = (0..<300).map { "label \($0) " + String(repeating: "é", count: $0 % 40) }
    for _ in 0..<2000 {
      contents.identification.append(
        (12_000_000_000 + Int64.random(in: 0..<100_000, using: &random), labels.randomElement(using: &random)!))
    }
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    options.labelBlockTarget = 256
    let canonical = contents.canonical
    let report = Verifier.verify(try canonical.encoded(options: options), options: .callKitChecks)
    #expect(report.problems == [], "seed \(seed)")
    #expect(report.blockingCount == canonical.blocking.count, "seed \(seed)")
    #expect(report.identificationCount == canonical.identification.count, "seed \(seed)")
    #expect(report.labelCount == Set(canonical.identification.map(\.1)).count, "seed \(seed)")
  }

  @Test func smallFileIsValidAndHasDeflatedBlocks() throws {
    let bytes = try VerifierSamples.smallFile()
    #expect(Verifier.verify(bytes).problems == [])
    #expect(try Contents.read(CallDirectoryReader(bytes: bytes)) == VerifierSamples.contents)
    let file = try CraftedFile(bytes)
    let codecs = file.blockRanges(.blocking).map { file[.blockingData][$0.lowerBound] }
    #expect(codecs.count >= 3)
    #expect(codecs.first == BlockCodec.deflate.rawValue)
    #expect(codecs.contains(BlockCodec.raw.rawValue))
    #expect(file.blockRanges(.identification).count >= 3)
    let labelCodecs = file.labelBlockRanges().map { file[.labelData][$0.lowerBound] }
    #expect(labelCodecs.count >= 3)
    #expect(labelCodecs.contains(BlockCodec.deflate.rawValue))
  }

  @Test func unknownOptionalSectionIsValidAndChecksummed() throws {
    var file = try CraftedFile(try VerifierSamples.smallFile())
    file.sections.append(.init(type: 0x5254_5845, flags: 0, bytes: [1, 2, 3, 4, 5]))  // "EXTR", little-endian
    #expect(Verifier.verify(file.bytes).problems == [])
    var damaged = file.bytes
    damaged[damaged.count - 1] ^= 0x10
    let problems = Verifier.verify(damaged).problems
    #expect(problems.count == 1)
    #expect(problems.first?.error.section == "EXTR")
    #expect(problems.first?.error.offset == damaged.count - 5)
  }

  @Test func fileOnDiskIsValid() throws {
    let path = "/tmp/verifier-test-\(UInt64.random(in: 0...UInt64.max)).calldir"
    var builder = DirectoryBuilder()
    try builder.block(12025550100)
    try builder.identify(12025550123, label: "Acme Support")
    try builder.write(to: path)
    defer { _ = unsafe unlink(path) }
    let report = try Verifier.verify(path: path)
    #expect(report.problems == [])
    #expect(report.blockingCount == 1 && report.identificationCount == 1)
  }

  @Test func aMissingFileIsASystemErrorNotAReport() {
    #expect(throws: SystemError(operation: "open", path: "/nonexistent/verifier-test.calldir", errno: ENOENT)) {
      try Verifier.verify(path: "/nonexistent/verifier-test.calldir")
    }
  }
}

extension VerificationOptions {
  /// Format and CallKit checks.
  static var callKitChecks: VerificationOptions {
    var options = VerificationOptions()
    options.callKit = true
    return options
  }
}

/// `Verifier.verify(_: CallDirectoryReader)` checks the bytes the reader answers from: the same
/// report as verifying those bytes, for a good file and for each damaged one the reader opens.
@Suite struct VerifierReaderTests {
  @Test func aReaderIsVerifiedAsItsBytes() throws {
    let contents = Contents(
      blocking: (0..<5_000).map { 12_000_000_000 + Int64($0) * 7 },
      identification: (0..<300).map { (44_207_946_0000 + Int64($0), "Label \($0 % 17)") })
    let bytes = try contents.encoded()
    let scratch = try ScratchDirectory()
    let path = scratch.path("a.calldir")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let mapped = try CallDirectoryReader(path: path)
    #expect(Verifier.verify(mapped).isValid)
    #expect(try Verifier.verify(mapped) == Verifier.verify(path: path))

    var random = SeededGenerator(seed: 0x7E41_F1ED)
    var opened = 0
    for _ in 0..<200 {
      var damaged = bytes
      let position = Int.random(in: 0..<damaged.count, using: &random)
      damaged[position] ^= UInt8.random(in: 1...255, using: &random)
      // Damage to the header or an index stops the open; the rest is the verifier's to find.
      guard let reader = try? CallDirectoryReader(bytes: damaged) else { continue }
      opened += 1
      var blocks = 0
      let report = Verifier.verify(reader, progress: { _ in blocks += 1 })
      #expect(!report.isValid, "byte \(position)")
      #expect(report == Verifier.verify(damaged), "byte \(position)")
      #expect(blocks > 0)
    }
    #expect(opened > 100, "most damage lands in blocks, which opening does not read")
  }
}
