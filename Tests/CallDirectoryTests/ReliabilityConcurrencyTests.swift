import CallDirectory
import Foundation
import Synchronization
import Testing

/// One `CallDirectoryReader` shared by many threads answers each of them as it answers one thread.
/// `.ci/sanitizers` runs this suite under ThreadSanitizer, which also checks that sharing is free of
/// data races (the label cache is the reader's only mutable state).
@Suite struct ReliabilityConcurrencyTests {
  /// A directory with several blocks of each kind, ranges and many labels (so the label cache evicts).
  static func directory() throws -> [UInt8] {
    var random = SeededGenerator(seed: 0x7EAD_5AFE)
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = 64
    options.labelBlockTarget = 256
    var builder = DirectoryBuilder(options: options)
    for _ in 0..<3_000 { try builder.block(12_000_000_000 + Int64.random(in: 0..<50_000_000, using: &random)) }
    for index in 0..<2_000 {
      try builder.identify(13_000_000_000 + Int64(index) * 977, label: "Caller \(index % 700) Ltd")
    }
    try builder.block(14_000_000_000...14_000_999_999)
    try builder.block(33_899_000_000...33_899_999_999)
    return try builder.encoded()
  }

  /// What the reader says about each probe, as one comparable value.
  static func answers(_ reader: CallDirectoryReader, _ probes: [Int64]) throws -> [String] {
    try probes.map { number in
      let result = try reader.lookup(number)
      return "\(number) \(result.blocked) \(try reader.label(for: number) ?? "-")"
    }
  }

  @Test func threadsSharingOneReaderGiveTheSameAnswersAsOne() throws {
    let bytes = try Self.directory()
    #expect(Verifier.verify(bytes).isValid)
    let reader = try CallDirectoryReader(bytes: bytes)
    var random = SeededGenerator(seed: 0x7EAD_0001)
    var found: [Int64] = []
    try reader.forEachBlocking { if found.count < 600 { found.append($0) } }
    try reader.forEachIdentification { number, _ in if found.count < 1_800 { found.append(number) } }
    found += (0..<600).map { _ in 12_000_000_000 + Int64.random(in: 0..<3_000_000_000, using: &random) }
    found += [14_000_000_000, 14_000_999_999, 33_899_500_000, 1, Int64.max - 1]
    let probes = found
    let expected = try Self.answers(reader, probes)
    let streamed = try Contents.read(reader)

    let threads = 8
    let mismatches = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var order = probes
      var shuffle = SeededGenerator(seed: UInt64(thread))
      order.shuffle(using: &shuffle)  // each thread in its own order, so they meet in different blocks
      do {
        for round in 0..<3 {
          let got = try Self.answers(reader, order)
          let want = order.map { number in expected[probes.firstIndex(of: number) ?? 0] }
          if got != want { mismatches.withLock { $0.append("thread \(thread) round \(round): lookups differ") } }
        }
        if try Contents.read(reader) != streamed {
          mismatches.withLock { $0.append("thread \(thread): streams differ") }
        }
      } catch {
        mismatches.withLock { $0.append("thread \(thread): \(error)") }
      }
    }
    #expect(mismatches.withLock { $0 } == [])
    #expect(expected.contains { $0.hasSuffix("true -") } && expected.contains { $0.contains("Ltd") })
  }
}
