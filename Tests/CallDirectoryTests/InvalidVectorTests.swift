import CallDirectory
import Foundation
import Testing

/// The invalid vectors of `Spec/vectors/invalid/`: each breaks one rule of the spec, with every
/// checksum resealed where that is needed for the damage to reach the rule. For each, the
/// verifier's first problem must be at the manifest's offset and name the rule, and the reader
/// must not crash on it.
///
/// `CALLDIR_WRITE_VECTORS=1` rewrites the files and the manifest from `tiny.calldir`.
@Suite struct InvalidVectorTests {
  static let directory = SpecVectorTests.vectors.appendingPathComponent("invalid")

  struct Vector: CustomStringConvertible, Sendable {
    var name: String
    var offset: Int
    var message: String
    var description: String { name }
  }

  /// Recomputes the header checksum after a patch of the header or table.
  static func resealHeader(_ file: inout [UInt8]) {
    let count = Int(file[12]) | Int(file[13]) << 8
    var crc = CRC32()
    crc.update(Array(file[0..<28]))
    crc.update(Array(file[32..<(32 + 32 * count)]))
    file.setUInt32LE(crc.value, at: 28)
  }

  /// How each invalid vector is made from `tiny.calldir`, with the offset and words its first
  /// problem must have.
  static func make(_ tiny: [UInt8]) throws -> [(Vector, [UInt8])] {
    var made: [(Vector, [UInt8])] = []
    func add(_ name: String, _ message: String, at offset: (CraftedFile) -> Int, _ change: (inout CraftedFile) -> [UInt8]) throws
    {
      var file = try CraftedFile(tiny)
      let bytes = change(&file)
      made.append((Vector(name: name, offset: offset(file), message: message), bytes))
    }
    try add("header-checksum", "header checksum mismatch", at: { _ in 28 }) { file in
      var bytes = file.bytes
      bytes[40] ^= 0x01
      return bytes
    }
    try add("truncated", "file length", at: { _ in 16 }) { file in Array(file.bytes.dropLast()) }
    try add("appended", "file length", at: { _ in 16 }) { file in file.bytes + [0] }
    try add("major-version-3", "unsupported format version 3.", at: { _ in 8 }) { file in
      var bytes = file.bytes
      bytes[8] = 3
      resealHeader(&bytes)
      return bytes
    }
    try add("known-section-not-required", "must be required", at: { _ in 36 }) { file in
      file.sections[0].flags = 0
      return file.bytes
    }
    try add("unknown-required-section", "unknown required section ZZZZ", at: { file in file.bytes.count }) { file in
      file.sections.append(CraftedFile.Section(type: 0x5A5A_5A5A, flags: 1, bytes: []))
      return file.bytes
    }
    try add("index-count-wraps", "malformed index", at: { file in file.offset(of: .blockingIndex) }) { file in
      // 2^60 + 1 entries in blocks of 1 would need 2^60 + 1 records; 16 + 16 (2^60 + 1) wraps to 32.
      file.patch(.blockingIndex, at: 0, uint64: (1 << 60) + 1)
      file.patch(.blockingIndex, at: 8, uint32: 1)
      return file.bytes
    }
    try add("block-count-over-maximum", "more than the 512 a block may", at: { file in file.offset(of: .blockingIndex) + 30 }) {
      file in
      // Block 0's count field (the top 16 bits of its offset) says 513 entries: one more than B.
      file.patch(.blockingIndex, at: 30, [0x00, 0x02])
      return file.bytes
    }
    try add("block-counts-disagree", "the blocks hold 2", at: { file in file.offset(of: .blockingIndex) }) { file in
      // The index says 3 entries, its one block says 2 (and holds 2).
      file.patch(.blockingIndex, at: 0, uint64: 3)
      return file.bytes
    }
    try add("offset-overflows", "overflows", at: { file in file.offset(of: .blockingData) }) { file in
      // l = 62 and a high part of 4: 4 << 62 wraps in 64 bits.
      var block: [UInt8] = [0, 62, 0, 0]
      block += [UInt8](repeating: 0, count: 8)  // one 62-bit low part
      block += [0b0001_0000]  // high bits: four zeros, then the one
      block.appendUInt32LE(CRC32.checksum(block))
      file[.blockingData] = block
      return file.bytes
    }
    try add("padding-bit-set", "bits past the last", at: { file in file.offset(of: .blockingData) }) { file in
      // tiny's blocking block: l = 5, one low part in byte 4; bit 7 is padding.
      file.patch(.blockingData, at: 4, [file[.blockingData][4] | 0x80])
      file.resealBlock(in: .blockingData, 0..<file[.blockingData].count)
      return file.bytes
    }
    try add("label-id-out-of-range", "label id 5 is out of range", at: { file in file.offset(of: .identificationData) }) { file in
      file.patch(.identificationData, at: 4, uint32: 5)
      file.resealBlock(in: .identificationData, 0..<file[.identificationData].count)
      return file.bytes
    }
    try add("empty-label", "is 0 bytes", at: { file in file.offset(of: .labelData) }) { file in
      // Offsets 0, 0: label 0 is empty (its 4 bytes are left over after the table).
      file.patch(.labelData, at: 8, uint32: 0)
      file.resealBlock(in: .labelData, 0..<file[.labelData].count)
      return file.bytes
    }
    return made
  }

  static func manifest() throws -> [Vector] {
    let text = try String(contentsOf: directory.appendingPathComponent("MANIFEST"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
      guard fields.count == 3, let offset = Int(fields[1]) else { return nil }
      return Vector(name: fields[0], offset: offset, message: fields[2])
    }
  }

  @Test func generatorMatchesTheFiles() throws {
    let tiny = try [UInt8](Data(contentsOf: SpecVectorTests.vectors.appendingPathComponent("tiny.calldir")))
    let made = try Self.make(tiny)
    if ProcessInfo.processInfo.environment["CALLDIR_WRITE_VECTORS"] == "1" {
      var manifest = "# Invalid vectors: NAME OFFSET MESSAGE. The verifier's first problem for NAME.calldir is at\n"
      manifest += "# byte OFFSET and its message contains MESSAGE. Made from ../tiny.calldir by InvalidVectorTests.\n"
      for (vector, bytes) in made {
        try Data(bytes).write(to: Self.directory.appendingPathComponent(vector.name + ".calldir"))
        manifest += "\(vector.name) \(vector.offset) \(vector.message)\n"
      }
      try manifest.write(to: Self.directory.appendingPathComponent("MANIFEST"), atomically: true, encoding: .utf8)
    }
    let listed = try Self.manifest()
    #expect(listed.map(\.name) == made.map(\.0.name))
    for (vector, bytes) in made {
      let file = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(vector.name + ".calldir")))
      #expect(file == bytes, "\(vector.name).calldir is not what its recipe makes")
    }
  }

  @Test(arguments: try manifest())
  func vectorIsRefusedForItsRule(_ vector: Vector) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(vector.name + ".calldir")))
    let problems = Verifier.verify(bytes).problems
    let first = try #require(problems.first, "\(vector.name) verifies clean")
    #expect(first.error.offset == vector.offset, "\(vector.name): \(first)")
    #expect(first.description.contains(vector.message), "\(vector.name): \(first)")
    exerciseReader(bytes, probes: [12_025_550_100, 12_025_550_142, 1, Int64.max - 1])
  }
}
