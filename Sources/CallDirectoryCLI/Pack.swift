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
    directoryOptions.prefixCodedLabels = options.prefixCodedLabels
    directoryOptions.listVersion = options.listVersion
    directoryOptions.onLabelConflict = options.onConflict.policy(keepGoing: options.keepGoing)
    // Read first, so that a wrong key path fails before the inputs are parsed.
    let signingKey = try options.signKey.map { (path) throws(CommandFailure) in try Keys.signingKey(path) }
    // Runs and spools go beside the output, on a file system with room for it.
    let scratch = options.output == "-" ? AtomicFile.scratchDirectory : AtomicFile.directory(of: options.output)
    var writer: SortingDirectoryWriter
    do {
      // Half of --memory holds entries; sorting a run before it is spilled takes as much again.
      writer = try SortingDirectoryWriter(
        options: directoryOptions, temporaryDirectory: scratch, memoryLimit: options.memoryLimit / 2)
    } catch {
      throw CommandFailure(error.description)
    }
    var read = 0
    let progress = ProgressLine(console: console, label: "pack", quiet: options.quiet)
    let inputs = try PackInputs(options, console: console)
    // A list the output would replace is lost; a directory may be its own output (merged, it is
    // read whole before the new one takes its place).
    try Inputs.refuseReplacing(inputs.inputs.map(\.path), with: options.output, command: "pack", unless: PackInputs.isDirectory)
    // Before any input is read: the rejects file may replace neither an input nor the output.
    if let path = options.rejects {
      try Inputs.refuseReplacing(
        inputs.inputs.map(\.path), with: path, option: "--rejects", alsoWritten: options.output, command: "pack")
    }
    // A spill that cannot be written (a full disk) is the output's failure, not the line's.
    var spillFailure: CommandFailure?
    var validity = PlanValidity(reject: options.rejectInvalid)
    let skipped: Int
    var rejects = Rejects()
    func skip(_ bad: PackInputs.BadLine) throws(ListingError) {
      // A spill that failed is the output's failure: no line can be packed after it.
      if spillFailure != nil { throw bad.error }
      progress.finish()  // the message goes on a line of its own
      console.diagnose(bad.error.description)
      rejects.add(bad, keepingLines: options.rejects != nil)
    }
    let onBadLine: ((PackInputs.BadLine) throws(ListingError) -> Void)? = options.keepGoing ? skip : nil
    do {
      skipped = try inputs.forEachEntry(onBadLine: onBadLine) { (entry, label, path) throws(ListingError) in
        try validity.check(entry, file: path)
        do throws(WriterError) { try add(entry, label: label, to: &writer) } catch {
          if case .system(let failure) = error {
            spillFailure = CommandFailure(
              "\(Inputs.outputName(options.output)): cannot write: \(failure.message) (spilling sorted runs to \(scratch))")
          }
          throw ListingError(file: path, line: entry.line, message: error.description)
        }
        read += 1
        progress.advance()
      }
    } catch {
      throw spillFailure ?? error
    }
    progress.finish()
    // Every line bad: an empty directory put in a list's place would unblock every number it
    // blocked (and a Call Directory extension loading it would drop every entry it had).
    if read == 0 && rejects.count > 0 {
      if let path = options.rejects { try Inputs.write(rejects.lines, to: path, console: console) }
      throw CommandFailure(
        "every entry was on a bad line (\(counted(rejects.count, "bad line")) skipped): \(Inputs.outputName(options.output)) not written"
      )
    }
    // No entry and no bad line: an empty or truncated download, or a wrong file, would otherwise
    // become an empty directory in the list's place. An empty list must be asked for.
    if read == 0 && !options.allowEmpty {
      throw CommandFailure(
        "no entries in the input (\(counted(skipped, "blank or comment line", "blank or comment lines"))): "
          + "\(Inputs.outputName(options.output)) not written; give --allow-empty to write a directory without entries")
    }
    var size = 0
    var statistics = CanonicalStatistics()
    // Moved into the closure that finishes it through an Optional: a closure cannot consume a
    // noncopyable value it captures, but it can take one out of an Optional.
    var unfinished = Optional(consume writer)
    try Inputs.write(to: options.output, console: console) { (sink) throws(CommandFailure) in
      guard let writer = unfinished.take() else { return }
      func output(_ bytes: [UInt8]) throws(CommandFailure) {
        size += bytes.count
        do throws(SystemError) { try sink(bytes) } catch {
          throw CommandFailure("\(Inputs.outputName(options.output)): cannot write: \(error.message)")
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
        throw failure ?? Self.located(error, in: inputs)
      }
      // Every entry left out for its conflicting labels (--keep-going): as when every line is bad,
      // the empty directory does not replace the list.
      if statistics.entriesStored == 0 && statistics.rangesStored == 0 && !statistics.conflictingNumbers.isEmpty {
        throw CommandFailure(
          "every entry was left out, \(counted(statistics.conflictingNumbers.count, "number")) given conflicting labels "
            + "(--keep-going): \(Inputs.outputName(options.output)) not written")
      }
    }
    // Numbers left out for their conflicting labels (--keep-going): every line that gave one is
    // a bad line, found by reading the inputs again.
    if options.onConflict == .error && options.keepGoing && !statistics.conflictingNumbers.isEmpty {
      try inputs.reportConflicts(
        statistics.conflictingNumbers, rejectInvalid: options.rejectInvalid, console: console, onBadLine: skip)
    }
    if let path = options.rejects { try Inputs.write(rejects.lines, to: path, console: console) }
    if options.output != "-" && !options.quiet {
      console.summary(
        "read \(counted(read, "entry", "entries")) and packed \(options.output): \(counted(size, "byte", "bytes"))"
          + (read > 0 ? " (\(ProgressLine.twoDecimals(Double(size) / Double(read))) bytes per entry read)" : "")
          + " \(ProgressLine.seconds(since: started)); stored \(counted(statistics.entriesStored, "single number", "single numbers")) "
          + "and \(counted(statistics.rangesStored, "range", "ranges")); "
          + "\(counted(skipped, "blank or comment line", "blank or comment lines")) skipped, "
          + "\(counted(statistics.duplicates, "duplicate", "duplicates")) merged, "
          + "\(counted(statistics.covered, "entry", "entries")) inside ranges dropped, "
          + "\(counted(statistics.rangesMerged, "range", "ranges")) merged into another of the same label"
          + (statistics.conflictingNumbers.isEmpty ? "" : "; " + options.onConflict.summary(statistics.conflictingNumbers.count))
          + (options.keepGoing ? "; \(counted(rejects.count, "bad line")) skipped" : ""))
    }
    if rejects.count > 0 {
      console.diagnose(
        "\(counted(rejects.count, "bad line")) skipped (--keep-going)"
          + (options.rejects.map { "; written to \(Inputs.outputName($0))" } ?? ""))
    }
    if let report = validity.report, !options.quiet { console.diagnose(report) }
    if options.json {
      let object = JSON.Value.object(
        [
          ("output", .string(options.output)), ("bytes", .int(size)), ("read", .int(read)),
          ("entriesStored", .int(statistics.entriesStored)), ("rangesStored", .int(statistics.rangesStored)),
          ("skipped", .int(skipped)), ("duplicates", .int(statistics.duplicates)), ("covered", .int(statistics.covered)),
          ("rangesMerged", .int(statistics.rangesMerged)), ("onConflict", .string(options.onConflict.rawValue)),
          ("labelConflicts", .int(statistics.conflictingNumbers.count)),
        ] + validity.fields + (options.keepGoing ? rejects.fields : []))
      do { try console.print(JSON.render(object)) } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    return CLI.ExitCode.success
  }

  /// The writer's error; for a conflict, found only once every entry is in, with the file and
  /// line of each of the two entries, read again from the inputs.
  static func located(_ error: WriterError, in inputs: PackInputs) -> CommandFailure {
    guard let entries = error.conflictingEntries else { return CommandFailure(error.description) }
    // A number both blocked and spared (`block` and `allow`) breaks a rule of the blocking list,
    // which no --on-conflict settles; two labels to identify a number with are what it settles.
    var hint = ""
    if case .conflictingLabels(_, let first, let second) = error, Set([first, second]) != ["allow", "block"] {
      hint = "; --on-conflict first or last keeps one label, -k leaves such numbers out"
    }
    let places = inputs.places(of: entries)
    guard let first = places[0] ?? places[1] else { return CommandFailure(error.description + hint) }
    let others = places.compactMap { $0 }.filter { $0 != first }
    return CommandFailure(
      "\(first): \(error.description)" + (others.isEmpty ? "" : " (and \(others.joined(separator: ", ")))") + hint)
  }

  /// Adds one parsed entry with its label's bytes.
  private func add(_ entry: ListingEntry, label: Span<UInt8>, to writer: inout SortingDirectoryWriter) throws(WriterError) {
    switch entry.kind {
    case .blocking: try writer.block(entry.numbers)
    case .identification: try writer.identify(entry.numbers, utf8: label)
    case .exception: try writer.allow(entry.numbers)
    }
  }
}
