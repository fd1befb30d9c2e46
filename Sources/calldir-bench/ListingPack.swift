import CallDirectory
import Foundation

/// Packing a text listing end to end, as `calldir pack` does on one core: read the file, parse
/// every line, add each entry to a `SortingDirectoryWriter` with pack's default budget (half of
/// `--memory 256` for entries), sort, encode, write.
enum ListingPack {
  /// The shape of the text.
  enum Shape: String {
    /// The `kind,number,label` CSV that `calldir unpack` writes (`ListingParser`).
    case csv
    /// One number a line (`BlockListParser`), what block-list feeds publish, in ascending order.
    case blockList = "block list"
    /// The same, in random order: every number goes through the sort.
    case shuffledBlockList = "shuffled block list"
  }

  /// Packs the listing at `input` into `output`; returns the number of entries parsed.
  /// - Throws: `BenchError` when the file cannot be read or written or a line is refused.
  static func pack(_ input: String, shape: Shape, to output: String) throws -> Int {
    let bytes = try Files.read(input)
    let directory = (output as NSString).deletingLastPathComponent
    var builder = try SortingDirectoryWriter(temporaryDirectory: directory.isEmpty ? "." : directory, memoryLimit: 128 << 20)
    var entries = 0
    switch shape {
    case .csv:
      // As `calldir pack` reads a CSV listing: each label lent as a span of the input.
      try ListingParser.forEachEntry(bytes: bytes, file: input, parser: .formatDomain) { (entry, label) throws(ListingError) in
        entries += 1
        do {
          switch entry.kind {
          case .blocking: try builder.block(entry.numbers)
          case .identification: try builder.identify(entry.numbers, utf8: label)
          case .exception: try builder.allow(entry.numbers)
          }
        } catch {
          throw ListingError(file: input, line: entry.line, message: "\(error)")
        }
      }
    case .blockList, .shuffledBlockList:
      try BlockListParser.forEachEntry(bytes: bytes, file: input, parser: PhoneNumberParser()) { (entry) throws(ListingError) in
        entries += 1
        do {
          try builder.block(entry.numbers)  // a block list's entries are all blocking
        } catch {
          throw ListingError(file: input, line: entry.line, message: "\(error)")
        }
      }
    }
    _ = try builder.write(to: output)
    return entries
  }

  /// The block-list text of `numbers`: `+` and the digits, one a line.
  static func blockList(_ numbers: [Int64]) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(numbers.count * 14)
    for number in numbers {
      text.append(UInt8(ascii: "+"))
      text.append(contentsOf: String(number).utf8)
      text.append(UInt8(ascii: "\n"))
    }
    return text
  }
}

/// Peak memory of a pack, measured in a child process so that nothing the benchmark holds is counted.
///
/// The child is this executable run as `calldir-bench --pack-child SHAPE INPUT OUTPUT`: it reads
/// its own `VmRSS` first (the baseline: code, libraries, runtime), packs, then prints the baseline,
/// its `VmHWM` (peak resident set) and the entry count.
enum PackChild {
  /// What the child reports, in KiB.
  struct Report {
    /// Resident memory before the pack.
    var baselineKiB: Int
    /// Peak resident memory, the pack included.
    var peakKiB: Int
    /// Entries parsed.
    var entries: Int
    /// Wall-clock seconds of the pack in the child.
    var seconds: Double
  }

  /// The child's side: packs and prints `baseline peak entries seconds`.
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count == 3, let shape = ListingPack.Shape(rawValue: arguments[0]) else { return 2 }
    let probe = ProcessMemory()
    let baseline = probe.kibibytes(.resident) ?? -1
    let start = monotonicNanoseconds()
    do {
      let entries = try ListingPack.pack(arguments[1], shape: shape, to: arguments[2])
      let seconds = Double(monotonicNanoseconds() &- start) / 1e9
      print("\(baseline) \(probe.kibibytes(.residentPeak) ?? -1) \(entries) \(seconds)")
      return 0
    } catch {
      FileHandle.standardError.write(Data("pack child: \(error)\n".utf8))
      return 1
    }
  }

  /// Runs the child on `input` and returns its report, or `nil` when it fails.
  static func run(_ input: String, shape: ListingPack.Shape, output: String) -> Report? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--pack-child", shape.rawValue, input, output]
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
    guard fields.count == 4, let baseline = Int(fields[0]), let peak = Int(fields[1]), let entries = Int(fields[2]),
      let seconds = Double(fields[3])
    else { return nil }
    return Report(baselineKiB: baseline, peakKiB: peak, entries: entries, seconds: seconds)
  }
}
