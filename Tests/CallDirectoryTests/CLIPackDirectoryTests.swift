import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `pack` takes directories among its inputs and merges them with listings under the same rules:
/// merging is `unpack | pack`, byte for byte.
@Suite struct CLIPackDirectoryTests {
  /// A random listing of blocks, ranges, identifications and exceptions over a small universe, so
  /// that lists overlap; labels drawn from a few, so that some entries agree across lists.
  private func listing(_ random: inout SeededGenerator, base: Int64) -> String {
    var lines = ["kind,number,label"]
    var identified: Set<Int64> = []
    for _ in 0..<Int.random(in: 0...40, using: &random) {
      let number = base + Int64.random(in: 0..<400, using: &random)
      switch Int.random(in: 0..<4, using: &random) {
      case 0: lines.append("block,+\(number),")
      case 1: lines.append("block,+\(number)..+\(number + Int64.random(in: 1...30, using: &random)),")
      case 2 where identified.insert(number).inserted:
        // One label a number across every list, so that merging never meets a conflict.
        lines.append("identify,+\(number),Label \(number % 3)")
      default: lines.append("allow,+\(number),")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test func mergingDirectoriesEqualsUnpackThenPack() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SeededGenerator(seed: seed)
    let scratch = try ScratchDirectory()
    for round in 0..<8 {
      let base: Int64 = 12_025_550_000
      var inputs: [String] = []
      var unpacked: [String] = []
      for index in 0..<3 {
        let text = listing(&random, base: base)
        let csv = try scratch.write("r\(round)-\(index).csv", text)
        let directory = scratch.path("r\(round)-\(index).calldir")
        let packed = calldir("pack", csv, "-o", directory)
        // A list whose own ranges cross is refused by pack before any merging: skip it.
        guard packed.status == 0 else { continue }
        let listing = scratch.path("r\(round)-\(index)-unpacked.csv")
        #expect(calldir("unpack", directory, "-o", listing).status == 0)
        inputs.append(directory)
        unpacked.append(listing)
      }
      let extra = try scratch.write("r\(round)-extra.csv", listing(&random, base: base))
      let merged = calldirArguments(["pack"] + inputs + [extra, "-o", scratch.path("merged.calldir")])
      let repacked = calldirArguments(["pack"] + unpacked + [extra, "-o", scratch.path("repacked.calldir")])
      #expect(merged.status == repacked.status, "seed \(seed) round \(round): \(merged.error) / \(repacked.error)")
      guard merged.status == 0 else { continue }
      let left = try Data(contentsOf: URL(fileURLWithPath: scratch.path("merged.calldir")))
      let right = try Data(contentsOf: URL(fileURLWithPath: scratch.path("repacked.calldir")))
      #expect(left == right, "seed \(seed) round \(round)")
    }
  }

  @Test func aConflictNamesTheDirectoryAndTheLineUnpackShows() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("a.csv", "kind,number,label\nblock,+12025550100,\nidentify,+12025550101,Acme\n")
    #expect(calldir("pack", list, "-o", scratch.path("a.calldir")).status == 0)
    let other = try scratch.write("b.csv", "identify,+12025550101,Other\n")
    let result = calldir("pack", scratch.path("a.calldir"), other, "-o", scratch.path("m.calldir"))
    #expect(result.status == 1)
    #expect(
      result.error
        == "calldir: \(scratch.path("a.calldir")):3: +12025550101 has two labels: \"Acme\" and \"Other\" (and \(other):1)\(CLIOutputEdgeTests.conflictHint)\n"
    )
    let lines = calldir("unpack", scratch.path("a.calldir")).output.split(separator: "\n")
    #expect(lines[2] == "identify,+12025550101,Acme")
  }

  /// A pipe named as a file (`<(zcat list.gz)`, `/dev/stdin`) is a listing, read whole from its
  /// first byte: looking for a directory's magic in it would take its first eight bytes.
  @Test func aPipeIsReadFromItsFirstByte() throws {
    let scratch = try ScratchDirectory()
    for (option, text) in [
      ("--block", "+1 (202) 555-0100\n+1 (202) 555-0199\n"),
      (nil, "kind,number,label\nblock,+12025550100,\nidentify,+12025550199,Acme\n"),
    ] {
      var ends: [Int32] = [0, 0]
      #expect(unsafe pipe(&ends) == 0)
      defer { close(ends[0]) }
      // Small enough for the pipe's buffer: written whole, then closed, before pack reads.
      let bytes = Array(text.utf8)
      let written = unsafe bytes.withUnsafeBytes { unsafe write(ends[1], $0.baseAddress, $0.count) }
      #expect(written == bytes.count)
      close(ends[1])
      let output = scratch.path("piped.calldir")
      let arguments = (option.map { [$0] } ?? []) + ["/dev/fd/\(ends[0])", "--country", "US", "-o", output]
      let packed = calldir(["pack"] + arguments)
      #expect(packed.status == 0, "\(packed.error)")
      let listing = calldir("unpack", output).output
      #expect(listing.contains("+12025550100") && listing.contains("+12025550199"), "\(listing)")
    }
  }

  @Test func aDirectoryGivenAsABlockListIsWrongUsage() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("a.txt", "+12025550100\n")
    #expect(calldir("pack", "--block", list, "-o", scratch.path("a.calldir")).status == 0)
    let result = calldir("pack", "--identify", scratch.path("a.calldir"), "-o", scratch.path("m.calldir"))
    #expect(result.status == 2)
    #expect(result.error.contains("is a call directory: give it as an input of its own"))
  }

  @Test func aDamagedDirectoryIsRefusedAndNothingIsWritten() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("a.txt", (0..<300).map { "+1202555\(1000 + $0)" }.joined(separator: "\n"))
    let path = scratch.path("a.calldir")
    #expect(calldir("pack", "--block", list, "-o", path).status == 0)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let reader = try CallDirectoryReader(bytes: bytes)
    let data = try #require(reader.shape.header.section(.blockingData))
    bytes[Int(data.offset + data.length) - 1] ^= 0x10
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = calldir("pack", path, "-o", scratch.path("m.calldir"))
    #expect(result.status == 1)
    #expect(result.error.hasPrefix("calldir: \(path): block "), "\(result.error)")
    #expect(!scratch.exists("m.calldir"))
  }
}
