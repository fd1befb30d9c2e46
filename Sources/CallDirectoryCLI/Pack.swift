import CallDirectory
import CallDirectorySystem

/// `calldir pack`: reads every input, builds the directory, writes it atomically.
struct Pack {
  let options: Command.PackOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let started = MonotonicClock.nanoseconds()
    var directoryOptions = DirectoryBuilder.Options()
    directoryOptions.entriesPerBlock = options.entriesPerBlock
    directoryOptions.listVersion = options.listVersion
    // Read first, so that a wrong key path fails before the inputs are parsed.
    let signingKey = try options.signKey.map { (path) throws(CommandFailure) in try Keys.signingKey(path, console: console) }
    // Runs and spools go beside the output, on a file system with room for it.
    let scratch = options.output == "-" ? AtomicFile.scratchDirectory : AtomicFile.directory(of: options.output)
    var writer: SortingDirectoryWriter
    do {
      writer = try SortingDirectoryWriter(options: directoryOptions, temporaryDirectory: scratch, memoryLimit: options.memoryLimit)
    } catch {
      throw CommandFailure(error.description)
    }
    let people = PhoneNumberParser(defaultCountryCode: options.country)
    let listings = PhoneNumberParser(defaultCountryCode: options.country, digitLimits: PhoneNumberParser.formatDomainDigits)
    var read = 0
    var skipped = 0
    let progress = ProgressLine(console: console, label: "pack", quiet: options.quiet)
    let inputs: [(path: String, role: InputRole)] =
      options.listings.map { ($0, .listing) } + options.blockFiles.map { ($0, .blockList) }
      + options.identifyFiles.map { ($0, .identify) }
    for (path, role) in inputs {
      let format = options.format ?? ListingFormat.implied(by: path) ?? .csv
      // Added to line numbers of a block list read in pieces, so that messages name the file's line.
      var lineOffset = 0
      let each = { (record: ListingRecord) throws(ListingError) in
        let label = record.labelUTF8 ?? []
        let entry = ListingEntry(kind: record.kind, numbers: record.numbers, line: record.line + lineOffset)
        try add(entry, label: label.span, to: &writer, file: path)
        read += 1
        progress.advance()
      }
      // Tables are read whole, each label lent from the input rather than sliced out of it.
      let eachEntry = { (entry: ListingEntry, label: Span<UInt8>) throws(ListingError) in
        try add(entry, label: label, to: &writer, file: path)
        read += 1
        progress.advance()
      }
      func parse(_ body: () throws(ListingError) -> Int) throws(CommandFailure) {
        do throws(ListingError) { skipped += try body() } catch {
          throw CommandFailure(
            (error.line < 1 ? error : ListingError(file: error.file, line: error.line + lineOffset, message: error.message)).description)
        }
      }
      if role == .blockList, var pieces = try Self.pieces(of: path) {
        // A plain block list is read a few MiB at a time: its text never has to fit in memory.
        while let (bytes, lines) = try pieces.next() {
          try parse { () throws(ListingError) in try BlockListParser.parse(bytes: bytes, file: path, parser: people, each: each) }
          lineOffset += lines
        }
        continue
      }
      let bytes = try Self.readInflating(path, console: console)
      try parse { () throws(ListingError) -> Int in
        switch (role, format) {
        case (.blockList, _):
          return try BlockListParser.parse(bytes: bytes, file: path, parser: people, each: each)
        case (_, .jsonl):
          // A JSON Lines record names its kind, so one reader serves listings and identify files.
          return try ListingJSONLines.parse(bytes: bytes, file: path, parser: role == .listing ? listings : people, each: each)
        case (.listing, _):
          return try ListingParser.forEachEntry(
            bytes: bytes, file: path, parser: listings, format: format == .tsv ? .tsv : .csv, eachEntry)
        case (.identify, _):
          return try IdentifyCSVParser.forEachEntry(
            bytes: bytes, file: path, parser: people, format: format == .tsv ? .tsv : .csv, eachEntry)
        }
      }
    }
    progress.finish()
    var size = 0
    var statistics = CanonicalStatistics()
    try Inputs.write(to: options.output, console: console) { (sink) throws(CommandFailure) in
      func output(_ bytes: [UInt8]) throws(CommandFailure) {
        size += bytes.count
        do throws(SystemError) { try sink(bytes) } catch {
          throw CommandFailure("\(Inputs.displayName(options.output)): cannot write: \(error.message)")
        }
      }
      // A signed file is signed as it is written: no copy of it in memory.
      var failure: CommandFailure?
      do throws(WriterError) {
        statistics = try writer.finish(signingWith: signingKey) { (piece) throws(WriterError) in
          do throws(CommandFailure) { try output(piece) } catch {
            failure = error
            throw .invalidOption(error.message)
          }
        }
      } catch {
        throw failure ?? CommandFailure(error.description)
      }
    }
    if options.output != "-" && !options.quiet {
      console.summary(
        "packed \(read) entries into \(options.output): \(size) bytes"
          + (read > 0 ? " (\(ProgressLine.twoDecimals(Double(size) / Double(read))) bytes per entry)" : "")
          + " \(ProgressLine.seconds(since: started)); \(skipped) blank or comment lines skipped, "
          + "\(statistics.duplicates) duplicates merged, \(statistics.covered) entries inside ranges dropped, "
          + "\(statistics.rangesMerged) overlapping or touching ranges merged")
    }
    if options.json {
      let object = JSON.Value.object([
        ("output", .string(options.output)), ("bytes", .int(size)), ("read", .int(read)),
        ("skipped", .int(skipped)), ("duplicates", .int(statistics.duplicates)), ("covered", .int(statistics.covered)),
        ("rangesMerged", .int(statistics.rangesMerged)),
      ])
      do { try console.print(JSON.render(object)) } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    return CLI.ExitCode.success
  }

  /// A plain file read in pieces that end at a line break, or `nil` for standard input and
  /// gzip files (read whole).
  static func pieces(of path: String) throws(CommandFailure) -> LinePieces? {
    guard path != "-", !path.lowercased().hasSuffix(".gz") else { return nil }
    let file: FileDescriptor
    do { file = try FileDescriptor.openForReading(path) } catch {
      throw CommandFailure("\(path): cannot read: \(error.message)")
    }
    var pieces = LinePieces(file: file)
    // A gzip file without the .gz ending is read whole, so that it can be inflated.
    guard let first = try pieces.peekMagic(), !Gzip.hasMagic(first) else { return nil }
    return pieces
  }

  private enum InputRole { case listing, blockList, identify }

  /// All bytes of `path`, inflated when the name ends in `.gz` or the bytes begin with gzip's magic.
  static func readInflating(_ path: String, console: Console) throws(CommandFailure) -> [UInt8] {
    let bytes = try Inputs.read(path, console: console)
    guard path.lowercased().hasSuffix(".gz") || Gzip.hasMagic(bytes) else { return bytes }
    do { return try Gzip.inflate(bytes) } catch {
      throw CommandFailure("\(Inputs.displayName(path)): \(error.message)")
    }
  }

  /// Adds one parsed entry with its label's bytes; a writer error names the entry's file and line.
  private func add(
    _ entry: ListingEntry, label: Span<UInt8>, to writer: inout SortingDirectoryWriter, file: String
  ) throws(ListingError) {
    do {
      switch entry.kind {
      case .blocking: try writer.block(entry.numbers)
      case .identification: try writer.identify(entry.numbers, utf8: label)
      }
    } catch {
      throw ListingError(file: file, line: entry.line, message: error.description)
    }
  }
}
