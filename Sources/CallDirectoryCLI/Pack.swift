import CallDirectory
import CallDirectorySystem

/// `calldir pack`: reads every input, builds the directory, writes it atomically.
struct Pack {
  let options: Command.PackOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let started = MonotonicClock.nanoseconds()
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = options.entriesPerBlock
    builder.options.listVersion = options.listVersion
    // Read first, so that a wrong key path fails before the inputs are parsed.
    let signingKey = try options.signKey.map { (path) throws(CommandFailure) in try Keys.signingKey(path, console: console) }
    let people = PhoneNumberParser(defaultCountryCode: options.country)
    let listings = PhoneNumberParser(defaultCountryCode: options.country, digitLimits: PhoneNumberParser.formatDomainDigits)
    var report = PackReport()
    let progress = ProgressLine(console: console, label: "pack", quiet: options.quiet)
    let inputs: [(path: String, role: InputRole)] =
      options.listings.map { ($0, .listing) } + options.blockFiles.map { ($0, .blockList) }
      + options.identifyFiles.map { ($0, .identify) }
    for (path, role) in inputs {
      let bytes = try Self.readInflating(path, console: console)
      let format = options.format ?? ListingFormat.implied(by: path) ?? .csv
      do throws(ListingError) {
        let each = { (record: ListingRecord) throws(ListingError) in
          try add(record, to: &builder, file: path)
          report.note(record)
          progress.advance()
        }
        switch (role, format) {
        case (.blockList, _):
          report.skipped += try BlockListParser.parse(bytes: bytes, file: path, parser: people, each: each)
        case (_, .jsonl):
          // A JSON Lines record names its kind, so one reader serves listings and identify files.
          let parser = role == .listing ? listings : people
          report.skipped += try ListingJSONLines.parse(bytes: bytes, file: path, parser: parser, each: each)
        case (.listing, _):
          let table: TableFormat = format == .tsv ? .tsv : .csv
          report.skipped += try ListingParser.parse(bytes: bytes, file: path, parser: listings, format: table, each: each)
        case (.identify, _):
          let table: TableFormat = format == .tsv ? .tsv : .csv
          report.skipped += try IdentifyCSVParser.parse(bytes: bytes, file: path, parser: people, format: table, each: each)
        }
      } catch {
        throw CommandFailure(error.description)
      }
    }
    progress.finish()
    var bytes: [UInt8]
    do { bytes = try builder.encoded() } catch { throw CommandFailure(error.description) }
    if let signingKey {
      do throws(FormatError) { bytes = try DirectorySigner.sign(bytes, key: signingKey) } catch {
        throw CommandFailure("cannot sign: \(error)")
      }
    }
    try Inputs.write(to: options.output, console: console) { (sink) throws(CommandFailure) in
      do throws(SystemError) { try sink(bytes) } catch {
        throw CommandFailure("\(Inputs.displayName(options.output)): cannot write: \(error.message)")
      }
    }
    let counts = report.finish()
    if options.output != "-" && !options.quiet {
      console.summary(
        "packed \(counts.read) entries into \(options.output): \(bytes.count) bytes"
          + (counts.read > 0 ? " (\(ProgressLine.twoDecimals(Double(bytes.count) / Double(counts.read))) bytes per entry)" : "")
          + " \(ProgressLine.seconds(since: started)); \(counts.skipped) blank or comment lines skipped, "
          + "\(counts.duplicates) duplicates merged, \(counts.covered) entries inside ranges dropped, "
          + "\(counts.rangesMerged) overlapping or touching ranges merged")
    }
    if options.json {
      let object = JSON.Value.object([
        ("output", .string(options.output)), ("bytes", .int(bytes.count)), ("read", .int(counts.read)),
        ("skipped", .int(counts.skipped)), ("duplicates", .int(counts.duplicates)), ("covered", .int(counts.covered)),
        ("rangesMerged", .int(counts.rangesMerged)),
      ])
      do { try console.print(JSON.render(object)) } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    return CLI.ExitCode.success
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

  /// Adds one parsed record; a writer error names the record's file and line.
  private func add(_ record: ListingRecord, to builder: inout DirectoryBuilder, file: String) throws(ListingError) {
    do {
      switch record.kind {
      case .blocking: try builder.block(record.numbers)
      case .identification: try builder.identify(record.numbers, label: record.label ?? "")
      }
    } catch {
      throw ListingError(file: file, line: record.line, message: error.description)
    }
  }
}

/// What pack read and what the directory's canonical form drops or joins, counted the way
/// `DirectoryBuilder` applies its rules (`Spec/INPUT.md` section 1.1 and 3).
struct PackReport {
  /// The counts reported.
  struct Counts {
    /// Entries read from all inputs.
    var read = 0
    /// Blank lines and `#` comments skipped.
    var skipped = 0
    /// Entries that repeat an earlier one exactly (same kind, numbers and label).
    var duplicates = 0
    /// Single numbers dropped because a range of the same kind (and label) covers them.
    var covered = 0
    /// Ranges joined into another because they overlap or touch it.
    var rangesMerged = 0
  }

  var skipped = 0
  private var read = 0
  /// Distinct entries by kind and label (`nil` for blocking); sets make exact duplicates fall out.
  private var singles: [String?: Set<Int64>] = [:]
  private var ranges: [String?: Set<ClosedRange<Int64>>] = [:]

  mutating func note(_ record: ListingRecord) {
    read += 1
    let key = record.kind == .blocking ? nil : record.label
    if record.last == nil {
      singles[key, default: []].insert(record.number)
    } else {
      ranges[key, default: []].insert(record.numbers)
    }
  }

  /// The counts, from a sort of each group's ranges: O(*n* log *n*).
  func finish() -> Counts {
    var counts = Counts(read: read, skipped: skipped)
    let distinct = singles.values.reduce(0) { $0 + $1.count } + ranges.values.reduce(0) { $0 + $1.count }
    counts.duplicates = read - distinct
    for (key, group) in ranges {
      let sorted = group.sorted { $0.lowerBound < $1.lowerBound }
      var merged: [ClosedRange<Int64>] = []
      for range in sorted {
        // `last.upperBound < Int64.max` (listing numbers stop at Int64.max - 1), so + 1 cannot wrap.
        if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
          merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
        } else {
          merged.append(range)
        }
      }
      counts.rangesMerged += sorted.count - merged.count
      for number in singles[key] ?? [] {
        // The last merged range starting at or below `number`, found by binary search.
        var low = 0
        var high = merged.count
        while low < high {
          let middle = (low + high) / 2
          if merged[middle].lowerBound <= number { low = middle + 1 } else { high = middle }
        }
        if low > 0 && merged[low - 1].contains(number) { counts.covered += 1 }
      }
    }
    return counts
  }
}
