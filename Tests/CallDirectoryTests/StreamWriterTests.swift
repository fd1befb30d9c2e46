import CallDirectory
import Foundation
import Testing

/// A random list that exercises every rule of the canonical form: duplicates, overlapping and
/// touching ranges, singles inside ranges; identification labels follow zones of 1,000 numbers,
/// so the list never conflicts but ranges of different labels touch at zone edges.
private struct OverlappingList {
  static let base: Int64 = 12_025_550_000
  static let labels = ["Spam Risk", "Acme Support", "Ünïcödé Ltd"]
  var blocking: [ClosedRange<Int64>] = []
  var identification: [ClosedRange<Int64>] = []

  static func label(_ number: Int64) -> String { labels[Int((number - base) / 1_000) % labels.count] }

  static func random(singles: Int, ranges: Int, span: Int64, using rng: inout SeededGenerator) -> OverlappingList {
    var list = OverlappingList()
    for _ in 0..<singles {
      list.blocking.append(single(span, &rng))
      list.identification.append(single(span, &rng))
    }
    for _ in 0..<ranges {
      let first = base + Int64.random(in: 0..<span, using: &rng)
      list.blocking.append(first...(first + Int64.random(in: 1..<600, using: &rng)))
      // Inside one zone, so that its label is the zone's.
      let zoneStart = base + (first - base) / 1_000 * 1_000
      let start = Int64.random(in: zoneStart..<(zoneStart + 999), using: &rng)
      list.identification.append(start...Int64.random(in: (start + 1)...(zoneStart + 999), using: &rng))
    }
    // Repeat some entries exactly.
    list.blocking += list.blocking.prefix(singles / 10)
    list.identification += list.identification.prefix(singles / 10)
    return list
  }

  private static func single(_ span: Int64, _ rng: inout SeededGenerator) -> ClosedRange<Int64> {
    let number = base + Int64.random(in: 0..<span, using: &rng)
    return number...number
  }

  func built(_ options: DirectoryBuilder.Options) throws -> [UInt8] {
    var builder = DirectoryBuilder(options: options)
    for run in blocking { try builder.block(run) }
    for run in identification { try builder.identify(run, label: Self.label(run.lowerBound)) }
    return try builder.encoded()
  }

  /// The same list through the stream writer: each kind ascending, the kinds interleaved at random.
  func streamed(
    _ options: DirectoryBuilder.Options, temporaryDirectory: String?, using rng: inout SeededGenerator
  ) throws -> [UInt8] {
    var writer = try AscendingDirectoryWriter(options: options, temporaryDirectory: temporaryDirectory)
    var blocks = blocking.shuffled(using: &rng).sorted { $0.lowerBound < $1.lowerBound }[...]
    var identifies = identification.shuffled(using: &rng).sorted { $0.lowerBound < $1.lowerBound }[...]
    while !blocks.isEmpty || !identifies.isEmpty {
      if !blocks.isEmpty && (identifies.isEmpty || Bool.random(using: &rng)) {
        let run = blocks.removeFirst()
        if run.count == 1 { try writer.block(run.lowerBound) } else { try writer.block(run) }
      } else {
        let run = identifies.removeFirst()
        if run.count == 1 {
          try writer.identify(run.lowerBound, label: Self.label(run.lowerBound))
        } else {
          try writer.identify(run, label: Self.label(run.lowerBound))
        }
      }
    }
    var output: [UInt8] = []
    try writer.finish { output.append(contentsOf: $0) }
    return output
  }
}

@Suite("Stream writer")
struct StreamWriterTests {
  @Test("Streamed entries give the builder's bytes", arguments: [(1, false), (4, true), (512, true), (4096, false)])
  func streamedMatchesBuilder(entriesPerBlock: Int, spooled: Bool) throws {
    var rng = SeededGenerator(seed: UInt64(entriesPerBlock) &* 7919 &+ (spooled ? 1 : 0))
    // Enough identification entries that the spool's 64 KiB buffer and replay pieces fill many times.
    let list = OverlappingList.random(
      singles: entriesPerBlock == 1 ? 2_000 : 30_000, ranges: 400, span: 400_000, using: &rng)
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    let scratch = try ScratchDirectory()
    let directory = scratch.url.path
    let expected = try list.built(options)
    let streamed = try list.streamed(options, temporaryDirectory: spooled ? directory : nil, using: &rng)
    #expect(streamed == expected)
    let report = Verifier.verify(streamed)
    #expect(report.isValid, "\(report.problems)")
    // Spools are unlinked when made: nothing is left in their directory.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test("An empty stream is the empty directory")
  func emptyStream() throws {
    var output: [UInt8] = []
    try AscendingDirectoryWriter().finish { output.append(contentsOf: $0) }
    #expect(output == (try DirectoryBuilder().encoded()))
  }

  @Test("Int64 extremes stream like they build")
  func extremes() throws {
    var builder = DirectoryBuilder()
    var writer = try AscendingDirectoryWriter()
    for number: Int64 in [1, 2, Int64.max - 2, Int64.max - 1] {
      try builder.block(number)
      try writer.block(number)
      try builder.identify(number, label: "Edge")
      try writer.identify(number, label: "Edge")
    }
    var output: [UInt8] = []
    try writer.finish { output.append(contentsOf: $0) }
    #expect(output == (try builder.encoded()))
  }

  @Test("Out of order entries are refused, naming both numbers")
  func outOfOrder() throws {
    var writer = try AscendingDirectoryWriter()
    try writer.block(12_025_550_100)
    #expect(throws: WriterError.outOfOrder(kind: "blocking", previous: 12_025_550_100, next: 12_025_550_099)) {
      try writer.block(12_025_550_099)
    }
    // The kinds are ordered apart: identification may start below the last blocking number.
    try writer.identify(12_025_550_001, label: "Acme")
    #expect(throws: WriterError.outOfOrder(kind: "identification", previous: 12_025_550_001, next: 12_025_549_999)) {
      try writer.identify(12_025_549_999...12_025_550_000, label: "Acme")
    }
  }

  @Test("Conflicts are refused as the builder refuses them")
  func conflicts() throws {
    var twoLabels = try AscendingDirectoryWriter()
    try twoLabels.identify(12_025_550_100, label: "Acme")
    #expect(throws: WriterError.conflictingLabels(number: 12_025_550_100, first: "Acme", second: "Spam")) {
      try twoLabels.identify(12_025_550_100, label: "Spam")
    }
    var overlapping = try AscendingDirectoryWriter()
    try overlapping.identify(12_025_550_100...12_025_550_199, label: "Acme")
    #expect(
      throws: WriterError.overlappingRanges(
        first: 12_025_550_100...12_025_550_199, firstLabel: "Acme", second: 12_025_550_150...12_025_550_250,
        secondLabel: "Spam")
    ) {
      try overlapping.identify(12_025_550_150...12_025_550_250, label: "Spam")
    }
    // The same range twice with two labels, the wider one between them.
    var twice = try AscendingDirectoryWriter()
    try twice.identify(12_025_550_100...12_025_550_120, label: "Acme")
    try twice.identify(12_025_550_100...12_025_550_199, label: "Spam")
    #expect(
      throws: WriterError.overlappingRanges(
        first: 12_025_550_100...12_025_550_120, firstLabel: "Acme", second: 12_025_550_100...12_025_550_120,
        secondLabel: "Other")
    ) {
      try twice.identify(12_025_550_100...12_025_550_120, label: "Other")
    }
    // An exception that is exactly a blocked number.
    var both = try AscendingDirectoryWriter()
    try both.block(12_025_550_100)
    #expect(throws: WriterError.conflictingLabels(number: 12_025_550_100, first: "block", second: "allow")) {
      try both.allow(12_025_550_100)
    }
  }

  /// Refused entries, each caught, among accepted ones: the file is the builder's of the
  /// accepted ones alone, so a refused entry leaves neither its label nor any state behind, and
  /// sending a refused range again is refused again.
  @Test("A refused entry leaves the writer as it was", arguments: [0, 1, 2, 3])
  func refusedEntriesLeaveNothing(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0x5EF_05ED &+ seed)
    var writer = try AscendingDirectoryWriter()
    var builder = DirectoryBuilder()
    var refusals = 0
    /// Sends a run that must be refused, twice.
    func refuse(_ writer: inout AscendingDirectoryWriter, _ run: ClosedRange<Int64>, _ label: String) {
      for _ in 0..<2 {
        #expect("seed \(seed), \(run) \(label)") {
          if run.count == 1 { try writer.identify(run.lowerBound, label: label) } else { try writer.identify(run, label: label) }
        } throws: { error in
          // What each case below sends is out of order, the same number again, or across the
          // range before it.
          switch error as? WriterError {
          case .outOfOrder(kind: "identification", _, _), .conflictingLabels, .overlappingRanges: return true
          default: return false
          }
        }
      }
      refusals += 1
    }
    var number: Int64 = 12_025_550_000
    var lastRun = number...number
    for index in 0..<3_000 {
      // The accepted entries: ascending singles and ranges over a few labels.
      number += Int64.random(in: 2...40, using: &rng)
      let isRange = Bool.random(using: &rng)
      let run = isRange ? number...(number + Int64.random(in: 1...5, using: &rng)) : number...number
      let label = ["Acme", "Spam Risk", "Bäckerei"].randomElement(using: &rng)!
      if isRange { try writer.identify(run, label: label) } else { try writer.identify(run.lowerBound, label: label) }
      try builder.identify(run, label: label)
      number = run.upperBound
      // Then something the canonical form refuses, most often with a label never used.
      let fresh = "New label \(index)"
      switch Int.random(in: 0..<5, using: &rng) {
      case 0: refuse(&writer, (run.lowerBound - 1)...(run.lowerBound - 1), fresh)  // out of order
      case 1 where !isRange: refuse(&writer, run, fresh)  // the same number
      case 2 where isRange: refuse(&writer, (run.lowerBound + 1)...(run.upperBound + 3), fresh)  // across its end
      case 3: refuse(&writer, (lastRun.lowerBound - 1)...run.upperBound, label)  // out of order, known label
      default: break
      }
      lastRun = run
    }
    #expect(refusals > 1_000)
    var output: [UInt8] = []
    try writer.finish { output.append(contentsOf: $0) }
    #expect(output == (try builder.encoded()), "seed \(seed)")
  }

  @Test("Options out of range are refused by every writer")
  func optionsOutOfRange() throws {
    for (entries, target) in [(0, 4096), (4097, 4096), (512, 0), (512, 131_073), (512, 1 << 20)] {
      var options = DirectoryBuilder.Options()
      options.entriesPerBlock = entries
      options.labelBlockTarget = target
      // Every writer refuses the options with the error their own check gives.
      var found: WriterError?
      do throws(WriterError) { try options.check() } catch { found = error }
      guard let refusal = found, case .invalidOption = refusal else {
        Issue.record("entries \(entries), target \(target): \(String(describing: found))")
        continue
      }
      #expect(throws: refusal) { _ = try AscendingDirectoryWriter(options: options) }
      #expect(throws: refusal) {
        _ = try SortingDirectoryWriter(options: options, temporaryDirectory: NSTemporaryDirectory())
      }
      var builder = DirectoryBuilder(options: options)
      try builder.identify(12_025_550_100, label: "Acme")
      #expect(throws: refusal) { _ = try builder.encoded() }
    }
  }

  /// The largest label block target with the longest labels: every block stays within the
  /// format's cap on a label block's payload, so the file verifies.
  @Test("The largest label block target makes blocks within the cap")
  func largestLabelBlockTarget() throws {
    var options = DirectoryBuilder.Options()
    options.labelBlockTarget = 131_072
    #expect(throws: Never.self) { try options.check() }
    options.allowDeflate = false
    var builder = DirectoryBuilder(options: options)
    for index in 0..<40 {
      let label = String(index, radix: 2) + String(repeating: "x", count: index.isMultiple(of: 3) ? 65_500 : 5_000)
      try builder.identify(12_025_550_100 + Int64(index), label: label)
    }
    let bytes = try builder.encoded()
    let report = Verifier.verify(bytes)
    #expect(report.isValid, "\(report.problems)")
    #expect(report.labelCount == 40)
  }

  @Test("write(to:) publishes atomically and leaves only the file")
  func writeToPath() throws {
    let scratch = try ScratchDirectory()
    let directory = scratch.url.path
    var writer = try AscendingDirectoryWriter(temporaryDirectory: directory)
    var builder = DirectoryBuilder()
    for offset in stride(from: Int64(0), to: 50_000, by: 3) {
      try writer.identify(12_025_550_000 + offset, label: "Label \(offset % 97)")
      try builder.identify(12_025_550_000 + offset, label: "Label \(offset % 97)")
    }
    let path = directory + "/out.calldir"
    try writer.write(to: path)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.calldir"])
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == (try builder.encoded()))
  }
}
