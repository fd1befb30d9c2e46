import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// gzip output: the streaming compressor, and `unpack -o NAME.gz`, which `pack` reads back.
@Suite struct GzipOutputTests {
  /// Pieces of every size, the empty one included, fed one by one: the concatenated output is
  /// one gzip member of their concatenation, however zlib chose to hold input back.
  @Test(arguments: [UInt64(1), 2, 3])
  func aStreamFedInPiecesInflatesToTheirConcatenation(seed: UInt64) throws {
    var random = SeededGenerator(seed: 0x6219_0000 + seed)
    let stream = try #require(Gzip.streamingCompressor())
    var plain: [UInt8] = []
    var compressed: [UInt8] = []
    for _ in 0..<40 {
      // Text-like pieces compress well; random ones make zlib's output outgrow one 64 KiB chunk.
      let count = [0, 1, 100, 70_000, 300_000].randomElement(using: &random)!
      let text = Bool.random(using: &random)
      let piece = (0..<count).map { index in
        text ? UInt8(ascii: "0") + UInt8(index % 10) : UInt8.random(in: 0...255, using: &random)
      }
      plain += piece
      compressed += stream.continueStream(piece, finish: false)
    }
    compressed += stream.continueStream([], finish: true)
    #expect(Gzip.hasMagic(compressed))
    #expect(try Gzip.inflate(compressed) == plain, "seed \(seed)")
  }

  @Test func anEmptyStreamIsOneEmptyMember() throws {
    let stream = try #require(Gzip.streamingCompressor())
    let compressed = stream.continueStream([], finish: true)
    #expect(try Gzip.inflate(compressed) == [])
    #expect(Gzip.streamingCompressor(level: -2) == nil && Gzip.streamingCompressor(level: 10) == nil)
  }

  @Test func unpackToANameEndingInGzCompressesAndPackReadsItBack() throws {
    let scratch = try ScratchDirectory()
    // Enough lines that unpack flushes its buffer through the compressor many times.
    var random = SeededGenerator(seed: 0x6219_1000)
    var listing = "kind,number,label\nblock,+33899000000..+33899999999,\n"
    var numbers = Set<Int64>()
    while numbers.count < 60_000 { numbers.insert(12_000_000_000 + Int64.random(in: 0..<9_000_000_000, using: &random)) }
    for number in numbers.sorted() { listing += "block,+\(number),\n" }
    for number in numbers.sorted().prefix(20_000) { listing += "identify,+\(number),\"Caller, \(number % 997)\"\n" }
    let original = scratch.path("o.calldir")
    let pack = calldir("pack", try scratch.write("l.csv", listing), "-o", original)
    #expect(pack.status == 0, "\(pack.error)")

    for (name, format) in [("l.csv.gz", "csv"), ("l.JSONL.GZ", "jsonl")] {
      let plain = calldir("unpack", "--format", format, original)
      #expect(plain.status == 0)
      let path = scratch.path(name)
      let unpack = calldir("unpack", original, "-o", path)
      #expect(unpack.status == 0, "\(name): \(unpack.error)")
      let written = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(Gzip.hasMagic(written) && written.count < plain.output.utf8.count / 2, "\(name)")
      #expect(try Gzip.inflate(written) == Array(plain.output.utf8), "\(name)")
      let again = scratch.path("\(name).calldir")
      #expect(calldir("pack", path, "-o", again).status == 0, "\(name)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: original)))
    }
    // Standard output stays plain text, for a pipe to decide.
    #expect(calldir("unpack", original, "-o", "-").output.hasPrefix("kind,number,label\n"))
  }
}
