import CallDirectory
import CallDirectoryCrypto
import Foundation
import Testing

/// The test vectors of `Spec/vectors/`: each file must decode to its listing, its listing must
/// encode to the identical file, and it must verify clean.
///
/// Set `CALLDIR_WRITE_VECTORS=1` to (re)write the `.calldir` files from their listings after a
/// deliberate, specified change of the format.
@Suite struct SpecVectorTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let vectors = root.appendingPathComponent("Spec/vectors")

  struct Vector: CustomStringConvertible, Sendable {
    var name: String
    var entriesPerBlock: Int
    var description: String { name }
  }

  /// The version 1 vectors, which version 2 readers still read.
  static let versionOneVectors = vectors.appendingPathComponent("v1")

  static func manifest(in directory: URL = vectors) throws -> [Vector] {
    let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard !line.hasPrefix("#"), fields.count == 2, let size = Int(fields[1]) else { return nil }
      return Vector(name: String(fields[0]), entriesPerBlock: size)
    }
  }

  static func pack(listing: [UInt8], entriesPerBlock: Int) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = entriesPerBlock
    for record in try ListingParser.parse(bytes: listing, file: "listing", parser: .formatDomain) {
      switch record.kind {
      case .blocking: try builder.block(record.numbers)
      case .identification: try builder.identify(record.numbers, label: record.label ?? "")
      case .exception: try builder.allow(record.numbers)
      }
    }
    return try builder.encoded()
  }

  static func unpack(_ reader: CallDirectoryReader) throws -> [UInt8] {
    var writer = ListingWriter()
    try reader.forEachBlockingRun { (run) throws(ListingRowError) in try writer.appendBlock(run) }
    try reader.forEachIdentificationRun { (run, label) throws(ListingRowError) in
      try writer.appendIdentification(run, label: label)
    }
    return writer.bytes
  }

  @Test func manifestIsNotEmpty() throws {
    #expect(try Self.manifest().count >= 5)
  }

  @Test(arguments: try manifest())
  func vector(_ vector: Vector) throws {
    let listing = try [UInt8](Data(contentsOf: Self.vectors.appendingPathComponent(vector.name + ".csv")))
    let fileURL = Self.vectors.appendingPathComponent(vector.name + ".calldir")
    let encoded = try Self.pack(listing: listing, entriesPerBlock: vector.entriesPerBlock)
    if ProcessInfo.processInfo.environment["CALLDIR_WRITE_VECTORS"] == "1" {
      try Data(encoded).write(to: fileURL)
    }
    let file = try [UInt8](Data(contentsOf: fileURL))
    #expect(encoded == file, "the writer no longer produces \(vector.name).calldir")
    let reader = try CallDirectoryReader(path: fileURL.path)
    #expect(try Self.unpack(reader) == listing, "\(vector.name).calldir no longer decodes to its listing")
    let report = Verifier.verify(file, options: VerificationOptions())
    #expect(report.isValid, "\(report.problems)")
  }

  /// A version 1 file still reads: it decodes to its listing and verifies clean, and repacking the
  /// listing makes a version 2 file with the same listing (not the same bytes: the blocks differ).
  @Test(arguments: try manifest(in: versionOneVectors))
  func versionOneVectorStillReads(_ vector: Vector) throws {
    let listing = try [UInt8](Data(contentsOf: Self.versionOneVectors.appendingPathComponent(vector.name + ".csv")))
    let file = try [UInt8](Data(contentsOf: Self.versionOneVectors.appendingPathComponent(vector.name + ".calldir")))
    let reader = try CallDirectoryReader(bytes: file)
    #expect(reader.version.major == 1)
    #expect(try Self.unpack(reader) == listing, "v1/\(vector.name).calldir no longer decodes to its listing")
    let report = Verifier.verify(file, options: VerificationOptions())
    #expect(report.isValid, "\(report.problems)")
    let repacked = try CallDirectoryReader(bytes: try Self.pack(listing: listing, entriesPerBlock: vector.entriesPerBlock))
    // Version 2.0, 2.2 where range blocks are shorter than records (Spec/FORMAT.md 10.1), 2.3
    // where the labels take more than one block (9.1).
    #expect(repacked.version.major == FormatVersion.major)
    #expect(
      repacked.version.minor
        == FormatVersion.minor(
          paged: false,
          rangeBlocks: repacked.layout.ranges(.identification).blocks != nil || repacked.layout.ranges(.blocking).blocks != nil,
          prefixedLabels: repacked.shape.labelIndex.blockCount > 1))
    #expect(try Self.unpack(repacked) == listing)
  }

  /// The bytes a hex dump of `Spec/FORMAT.md` shows of vector `name` (between
  /// `<!-- hexdump NAME -->` and `<!-- end hexdump -->`), and the file offset of the first.
  static func specHexDump(of name: String) throws -> (offset: Int, bytes: [UInt8]) {
    let spec = try String(contentsOf: Self.root.appendingPathComponent("Spec/FORMAT.md"), encoding: .utf8)
    let start = try #require(spec.range(of: "<!-- hexdump \(name) -->"), "FORMAT.md has no dump of \(name)")
    let end = try #require(spec[start.upperBound...].range(of: "<!-- end hexdump -->"))
    var first: Int?
    var dumped: [UInt8] = []
    for line in spec[start.upperBound..<end.lowerBound].split(separator: "\n") {
      // Lines look like: `0000  89 43 44 ...  | comment`; take the hex pairs between the offset and `|`.
      let body = line.split(separator: "|", maxSplits: 1).first ?? ""
      let fields = body.split(separator: " ")
      guard fields.count > 1, fields[0].count == 4, let offset = Int(fields[0], radix: 16) else { continue }
      #expect(offset == (first ?? offset) + dumped.count, "\(name): the line at \(fields[0]) does not follow the one before")
      first = first ?? offset
      for pair in fields.dropFirst() {
        guard pair.count == 2, let byte = UInt8(pair, radix: 16) else { break }
        dumped.append(byte)
      }
    }
    return (first ?? 0, dumped)
  }

  /// The hex dump in `Spec/FORMAT.md` section 15.1 is the bytes of `tiny.calldir`.
  @Test func specHexDumpMatchesTinyVector() throws {
    let dump = try Self.specHexDump(of: "tiny.calldir")
    let file = try [UInt8](Data(contentsOf: Self.vectors.appendingPathComponent("tiny.calldir")))
    #expect(dump.offset == 0)
    #expect(dump.bytes == file)
  }

  /// The prefix-coded block in `Spec/FORMAT.md` section 9.1 is the last label block of
  /// `prefixed.calldir`, at the offset the dump gives.
  @Test func specPrefixCodedBlockMatchesItsVector() throws {
    let dump = try Self.specHexDump(of: "prefixed.calldir")
    let file = try [UInt8](Data(contentsOf: Self.vectors.appendingPathComponent("prefixed.calldir")))
    let reader = try CallDirectoryReader(bytes: file)
    let last = reader.shape.labelIndex.blockCount - 1
    #expect(dump.offset == reader.layout.labelBlockOffset(last))
    #expect(dump.bytes.count == 35 && Array(file[dump.offset...]) == dump.bytes)
  }
}

/// The generated vectors of `Spec/vectors/GENERATED`: a listing given by a rule and the SHA-256
/// of the file a canonical writer makes of it (a top summary needs more than 24,576 index
/// records, a file too large to commit for what it shows).
@Suite struct GeneratedVectorTests {
  struct Vector: CustomStringConvertible, Sendable {
    var name: String
    var entriesPerBlock: Int
    var count: Int
    var first: Int64
    var step: Int64
    var sha256: String
    var description: String { name }
  }

  static func manifest() throws -> [Vector] {
    let url = SpecVectorTests.vectors.appendingPathComponent("GENERATED")
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ").map(String.init)
      guard !line.hasPrefix("#"), fields.count == 6, let size = Int(fields[1]), let count = Int(fields[2]),
        let first = Int64(fields[3]), let step = Int64(fields[4])
      else { return nil }
      return Vector(name: fields[0], entriesPerBlock: size, count: count, first: first, step: step, sha256: fields[5])
    }
  }

  @Test func manifestIsNotEmpty() throws {
    #expect(try Self.manifest().map(\.name) == ["summary"])
  }

  @Test(arguments: try manifest())
  func vector(_ vector: Vector) throws {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = vector.entriesPerBlock
    for i in 0..<Int64(vector.count) { try builder.block(vector.first + vector.step * i) }
    let bytes = try builder.encoded()
    let hash = SHA256Digest.hex(unsafe bytes.withUnsafeBytes { unsafe SHA256Digest.hash($0) })
    #expect(hash == vector.sha256, "\(vector.name): \(bytes.count) bytes")
    #expect(Verifier.verify(bytes).problems == [])
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(reader.blockingCount == vector.count)
    // What the vector is for: a summary (24,577 records, a top of 385 samples, 13 summarised),
    // the group checks of the top's groups, the summary checks of the summary's and the checked top.
    #expect(
      reader.shape.header.sections.map(\.typeName).prefix(6) == ["BSUM", "BSCK", "HDRS", "BTOP", "BGCK", "BTCK"])
    #expect(reader.shape.blockingIndex.summary?.count == 13 && reader.version == (2, 6))
    #expect(reader.shape.blockingIndex.checkedTop?.count == 385)
    #expect(reader.shape.blockingIndex.groupChecks?.count == 385 && reader.shape.blockingIndex.summaryChecks?.count == 13)
  }
}
