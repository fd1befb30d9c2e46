import CallDirectory
import CallDirectorySystem
import Foundation
import Testing

@testable import CallDirectoryCLI
@testable import CallDirectoryWriter

@Suite("External sort")
struct ExternalSortTests {
  @Test("Spilled runs merge to the builder's bytes and statistics", arguments: [4 << 10, 64 << 10, 256 << 20])
  func matchesTheBuilder(memoryLimit: Int) throws {
    var rng = SeededGenerator(seed: UInt64(memoryLimit))
    let scratch = try ScratchDirectory()
    let directory = scratch.url.path
    var builder = DirectoryBuilder()
    var writer = try SortingDirectoryWriter(temporaryDirectory: directory, memoryLimit: memoryLimit)
    let base: Int64 = 12_025_550_000
    var numbers: [Int64] = (0..<30_000).map { _ in base + Int64.random(in: 0..<200_000, using: &rng) }
    numbers += numbers.prefix(3_000)  // exact repeats
    for number in numbers.shuffled(using: &rng) {
      try builder.block(number)
      try writer.block(number)
      // Labels follow zones of 1,000 numbers, so no number gets two.
      let label = "Zone \((number - base) / 1_000 % 7)"
      try builder.identify(number + 1, label: label)
      try writer.identify(number + 1, label: label)
    }
    for start in stride(from: base, to: base + 200_000, by: 9_973) {
      try builder.block(start...(start + 500))
      try writer.block(start...(start + 500))
    }
    try builder.block(base...(base + 10))
    try writer.block(base...(base + 10))
    var streamed: [UInt8] = []
    let statistics = try writer.finish { streamed += $0 }
    #expect(streamed == (try builder.encoded()))
    #expect(statistics.duplicates >= 3_000)
    #expect(statistics.covered > 0 && statistics.rangesMerged == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  /// Runs past the fan-in are merged in passes, never more than `fanIn` at once, and the records
  /// come out as one sorted sequence: a model of the passes' count, duplicates kept (the writer
  /// merges them later), at fan-ins from 2 up, and with no pass when the runs fit.
  /// The room made at the first append (`initialCapacity`) changes nothing but the buffer's
  /// growth: none, less than a run, a run and more than a run.
  @Test(
    "Runs past the fan-in merge in passes",
    arguments: [(2, 33, 0), (3, 100, 10), (7, 50, 100), (64, 40, 5_000), (8, 8, 0)])
  func runsMergeInPasses(fanIn: Int, runCount: Int, initialCapacity: Int) throws {
    let scratch = try ScratchDirectory()
    var random = SeededGenerator(seed: UInt64(fanIn * 1_000 + runCount))
    var sorter = ExternalSorter<Int64>(
      limit: 100, directory: scratch.url.path, fanIn: fanIn, initialCapacity: initialCapacity)
    var numbers = (0..<(runCount * 100 + 37)).map { _ in Int64.random(in: 1...5_000, using: &random) }
    numbers += [1, Int64.max - 1, Int64.max - 1]
    for number in numbers { try sorter.append(number) }
    // The passes of a queue that merges its first `fanIn` runs into one at its end.
    var runs = numbers.count / 100
    var passes = 0
    while runs > fanIn {
      runs -= fanIn - 1
      passes += 1
    }
    var merged = try sorter.merged()
    #expect(merged.passes == passes, "fan-in \(fanIn), \(runCount) runs")
    var out: [Int64] = []
    while let number = try merged.next() { out.append(number) }
    #expect(out == numbers.sorted(), "fan-in \(fanIn), \(runCount) runs")
  }

  @Test("Line pieces end at line breaks and count the lines they hold", arguments: [1, 7, 64, 1 << 20])
  func linePieces(pieceSize: Int) throws {
    let scratch = try ScratchDirectory()
    let directory = scratch.url.path
    let text = (0..<500).map { "+1202555\(String(1_000 + $0))" + ($0 % 50 == 0 ? "   # a comment" : "") }.joined(separator: "\n")
    let path = directory + "/list.txt"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    var reader = try LineReader(path: path, gzipLimit: 1 << 20)
    var joined: [UInt8] = []
    var lines = 0
    while let (piece, count) = try reader.nextPiece(size: pieceSize) {
      #expect(piece.last == 0x0A || joined.count + piece.count == text.utf8.count)
      joined += piece
      lines += count
    }
    #expect(joined == Array(text.utf8))
    #expect(lines == 499)
  }

  @Test("pack names the right line of a block list read in pieces, and packs in bounded memory")
  func packInPieces() throws {
    let scratch = try ScratchDirectory()
    var lines = (0..<2_000).map { "+1202\(String(5_000_000 + $0 * 13))" }
    let good = try scratch.write("good.txt", lines.joined(separator: "\n"))
    let reference = scratch.path("reference.calldir")
    var builder = DirectoryBuilder()
    for line in lines { try builder.block(Int64(line.dropFirst())!) }
    try Data(try builder.encoded()).write(to: URL(fileURLWithPath: reference))
    let packed = calldir("pack", "--memory", "1", "--block", good, "-o", scratch.path("out.calldir"))
    #expect(packed.status == 0, "\(packed.error)")
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("out.calldir"))) == Data(contentsOf: URL(fileURLWithPath: reference))
    )
    lines[1_500] = "not a number"
    let bad = try scratch.write("bad.txt", lines.joined(separator: "\n"))
    let refused = calldir("pack", "--block", bad, "-o", scratch.path("bad.calldir"))
    #expect(refused.status == 1)
    #expect(refused.error.contains("bad.txt:1501"), "\(refused.error)")
    #expect(calldir("pack", "--memory", "0", "--block", good, "-o", scratch.path("x.calldir")).status == 2)
  }
}
