import CallDirectory
import CallDirectorySystem

/// `calldir export --live-caller-id`: the block and identity datasets of iOS's Live Caller ID
/// Lookup, as the keyword-value databases that Apple's `PIRProcessDatabase` reads
/// (`Spec/LIVE-CALLER-ID.md`).
///
/// Every number any directory of the stack lists (ranges expanded, up to
/// `ExportOptions.maximumNumbers`) is resolved as `calldir resolve` answers it; a number whose
/// answer is block gets a row in `block.binpb`, and one whose answer carries a label gets a row
/// in `identity.binpb`. Rows come in ascending order of number and are written as they are made.
///
/// Memory: 8 bytes a number listed, for the sorted list of numbers, and 64 KiB of each dataset.
struct LiveCallerIDExport {
  let options: Command.ExportOptions
  let console: Console

  /// The dataset files, in the output directory.
  static let blockFile = "block.binpb"
  static let identityFile = "identity.binpb"

  func run() throws(CommandFailure) -> Int32 {
    var sources: [Resolver.Source] = []
    var readers: [CallDirectoryReader] = []
    for directory in options.directories {
      let reader = try Inputs.openDirectory(directory.path, console: console)
      readers.append(reader)
      sources.append(.init(name: directory.path, role: directory.allowList ? .allowList : .standard, provider: reader))
    }
    let numbers = try listedNumbers(readers)
    let resolver: Resolver
    do { resolver = try Resolver(sources: sources) } catch { throw CommandFailure(error.description) }
    do { try FileDescriptor.makeDirectory(options.output) } catch {
      throw CommandFailure("\(options.output): cannot create the directory: \(error.message)")
    }
    let blockPath = options.output + "/" + Self.blockFile
    let identityPath = options.output + "/" + Self.identityFile
    // A dataset file may not be a directory of the stack, by its name or another.
    for path in [blockPath, identityPath] {
      try Inputs.refuseReplacing(options.directories.map(\.path), with: path, command: "export")
    }
    var counts = (blocked: 0, identities: 0, blockBytes: 0, identityBytes: 0)
    // Both datasets in one pass over the numbers; each file is published atomically, the
    // identities only once the block dataset is complete.
    try Inputs.write(to: blockPath, console: console) { (blockSink) throws(CommandFailure) in
      try Inputs.write(to: identityPath, console: console) { (identitySink) throws(CommandFailure) in
        var block = DatasetOutput(path: blockPath)
        var identity = DatasetOutput(path: identityPath)
        for number in numbers {
          let resolution: Resolution
          do { resolution = try resolver.resolveNamingDamage(number) } catch {
            throw CommandFailure("cannot resolve \(formatInternational(number)): \(error)")
          }
          if resolution.action == .block {
            try block.append(row: number, value: [1], to: blockSink)
            counts.blocked += 1
          }
          if let label = resolution.label {
            let value = callIdentity(name: label)
            // An identity with nothing set encodes to no bytes: no row, as a value must say something.
            if !value.isEmpty {
              try identity.append(row: number, value: value, to: identitySink)
              counts.identities += 1
            }
          }
        }
        counts.identityBytes = try identity.finish(to: identitySink)
        counts.blockBytes = try block.finish(to: blockSink)
      }
    }
    console.summary(
      "wrote \(counts.blocked) blocked numbers into \(blockPath) (\(counts.blockBytes) bytes) and "
        + "\(counts.identities) identities into \(identityPath) (\(counts.identityBytes) bytes)")
    return CLI.ExitCode.success
  }

  /// Every number the directories list, of either kind, ranges expanded; ascending, each once.
  /// - Throws: `CommandFailure` past the cap, naming the range that crossed it, or for a damaged
  ///   directory.
  private func listedNumbers(_ readers: [CallDirectoryReader]) throws(CommandFailure) -> [Int64] {
    var numbers: [Int64] = []
    for (reader, directory) in zip(readers, options.directories) {
      for kind in [EntryKind.blocking, .identification] {
        var cursor = reader.runCursor(kind)
        while true {
          let run: RunCursor.Run?
          do { run = try cursor.next() } catch { throw CommandFailure("\(directory.path): \(error)") }
          guard let run else { break }
          // A count, not an expansion, first: a range of billions is refused before any of it is held.
          guard run.numbers.count <= options.maximumNumbers - numbers.count else {
            let what =
              run.numbers.count == 1
              ? ""
              : " (the range \(formatInternational(run.numbers.lowerBound))..\(formatInternational(run.numbers.upperBound)) holds \(run.numbers.count) numbers)"
            throw CommandFailure(
              "\(directory.path): the directories list more than \(options.maximumNumbers) numbers once ranges are "
                + "expanded\(what); a Live Caller ID dataset holds each number as a row: raise --max-numbers, or "
                + "list fewer")
          }
          numbers.append(contentsOf: run.numbers)
        }
      }
    }
    numbers.sort()
    // Duplicates are adjacent once sorted: a number listed by several directories or both kinds.
    var kept = 0
    for index in numbers.indices where kept == 0 || numbers[index] != numbers[kept - 1] {
      numbers[kept] = numbers[index]
      kept += 1
    }
    numbers.removeSubrange(kept...)
    return numbers
  }

  /// A serialized `CallIdentity`: `name` (field 1), `cache_expiry_minutes` (3) and `category` (4),
  /// each left out when it holds its default (proto3: empty, 0).
  private func callIdentity(name: String) -> [UInt8] {
    var bytes: [UInt8] = []
    if !name.isEmpty { ProtobufWriter.appendBytes(field: 1, name.utf8, to: &bytes) }
    if options.cacheExpiryMinutes != 0 {
      ProtobufWriter.appendVarintField(field: 3, UInt64(options.cacheExpiryMinutes), to: &bytes)
    }
    if options.category != 0 { ProtobufWriter.appendVarintField(field: 4, UInt64(options.category), to: &bytes) }
    return bytes
  }
}

/// One dataset being written: a `KeywordDatabase` whose `rows` (field 1) are written one
/// `KeywordDatabaseRow` at a time, 64 KiB to a write. A message's fields may follow one another
/// with nothing around them, so the database needs no length of its own.
private struct DatasetOutput {
  /// Where the rows go, for messages.
  let path: String
  private var pending: [UInt8] = []
  private var row: [UInt8] = []
  private var keyword: [UInt8] = []
  private var written = 0

  init(path: String) {
    self.path = path
  }

  /// Appends the row `keyword` = `+` and the number's digits, `value` = `value`, writing to
  /// `sink` once 64 KiB are pending.
  mutating func append(row number: Int64, value: [UInt8], to sink: ([UInt8]) throws(SystemError) -> Void)
    throws(CommandFailure)
  {
    keyword.removeAll(keepingCapacity: true)
    keyword.appendInternational(number)
    row.removeAll(keepingCapacity: true)
    ProtobufWriter.appendBytes(field: 1, keyword, to: &row)
    ProtobufWriter.appendBytes(field: 2, value, to: &row)
    ProtobufWriter.appendBytes(field: 1, row, to: &pending)
    if pending.count >= 1 << 16 { try flush(to: sink) }
  }

  /// Writes what is left to `sink`.
  /// - Returns: the bytes of the whole dataset.
  mutating func finish(to sink: ([UInt8]) throws(SystemError) -> Void) throws(CommandFailure) -> Int {
    try flush(to: sink)
    return written
  }

  private mutating func flush(to sink: ([UInt8]) throws(SystemError) -> Void) throws(CommandFailure) {
    do { try sink(pending) } catch { throw CommandFailure("\(path): cannot write: \(error.message)") }
    written += pending.count
    pending.removeAll(keepingCapacity: true)
  }
}
