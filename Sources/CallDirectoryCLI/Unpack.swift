import CallDirectory
import CallDirectorySystem

/// `calldir unpack`: writes the listing, as CSV, TSV or JSON Lines, blocking entries then
/// identification entries, each ascending; gzip-compressed to a file named `*.gz`.
struct Unpack {
  let file: String
  let output: String
  /// Whether to write every number of a range instead of the range.
  let expand: Bool
  /// CSV, TSV or JSON Lines.
  let format: ListingFormat
  /// No progress line on standard error.
  let quiet: Bool
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    try Inputs.refuseReplacing([file], with: output, command: "unpack")
    let reader = try Inputs.openDirectory(file, console: console)
    let progress = ProgressLine(
      console: console, label: "unpack",
      total: reader.blockingCount + reader.identificationCount + reader.blockingRangeCount + reader.identificationRangeCount,
      quiet: quiet)
    defer { progress.finish() }
    if format == .tsv && output == "-" { try refuseUntabbableLabels(reader) }
    try Inputs.write(to: output, console: console) { (sink) throws(CommandFailure) in
      guard Unpack.compresses(output) else { return try write(reader, sink: sink, progress: progress) }
      guard let gzip = Gzip.streamingCompressor() else {
        throw CommandFailure("\(Inputs.outputName(output)): zlib could not start (out of memory)")
      }
      try write(
        reader, sink: { (bytes) throws(SystemError) in try sink(gzip.continueStream(bytes, finish: false)) }, progress: progress)
      do throws(SystemError) { try sink(gzip.continueStream([], finish: true)) } catch { throw writeFailure(error) }
    }
    return CLI.ExitCode.success
  }

  /// Whether the listing written to `output` is gzip-compressed: a file named `*.gz`. Standard
  /// output is never compressed, whatever follows it in a pipe.
  static func compresses(_ output: String) -> Bool {
    output != "-" && output.lowercased().hasSuffix(".gz")
  }

  /// Writes the listing of `reader` in the chosen format to `sink`.
  private func write(
    _ reader: CallDirectoryReader, sink: ([UInt8]) throws(SystemError) -> Void, progress: ProgressLine
  ) throws(CommandFailure) {
    switch format {
    case .jsonl:
      var lines = ListingJSONLines.Writer()
      try write(reader, into: &lines, sink: sink, progress: progress)
    case .csv, .tsv:
      var writer = ListingWriter(format: format == .tsv ? .tsv : .csv)
      try write(reader, into: &writer, sink: sink, progress: progress)
    }
  }

  /// Writes every run of `reader` through `output`, blocking runs first, flushing to `sink` as
  /// the buffer fills and once at the end.
  private func write<Output: ListingOutput>(
    _ reader: CallDirectoryReader, into output: inout Output, sink: ([UInt8]) throws(SystemError) -> Void,
    progress: ProgressLine
  ) throws(CommandFailure) {
    func failure(_ error: StreamError<CommandFailure>) -> CommandFailure {
      switch error {
      case .format(let damage): CommandFailure("\(Inputs.displayName(file)): \(damage)")
      case .consumer(let failure): failure
      }
    }
    /// Appends a row and flushes a full buffer; a row no listing can hold is the file's fault.
    func emit(_ append: (inout Output) throws(ListingRowError) -> Void) throws(CommandFailure) {
      do throws(ListingRowError) { try append(&output) } catch {
        throw CommandFailure("\(Inputs.displayName(file)): \(error)")
      }
      do throws(SystemError) { try output.flushIfFull(to: sink) } catch { throw writeFailure(error) }
    }
    do throws(StreamError<CommandFailure>) {
      try reader.forEachBlockingRun { (numbers) throws(CommandFailure) in
        progress.advance()
        for run in Unpack.pieces(numbers, expand: expand) {
          try emit { (output) throws(ListingRowError) in try output.appendBlock(run) }
        }
      }
      try reader.forEachIdentificationRun { (numbers, label) throws(CommandFailure) in
        progress.advance()
        for run in Unpack.pieces(numbers, expand: expand) {
          try emit { (output) throws(ListingRowError) in try output.appendIdentification(run, label: label) }
        }
      }
    } catch { throw failure(error) }
    do throws(SystemError) { try output.flush(to: sink) } catch { throw writeFailure(error) }
  }

  /// Refuses, before a row is written, a listing whose labels TSV cannot carry. A file output is
  /// written whole or not at all; standard output is not, so without this a pipe would get every
  /// row before the first such label and then the error. The label table is read first, which is
  /// small; only when one of its labels fails are the entries read, to name the first that has it.
  private func refuseUntabbableLabels(_ reader: CallDirectoryReader) throws(CommandFailure) {
    do throws(FormatError) {
      var anyFails = false
      for id in 0..<reader.labelCount where !ListingWriter.isTabSeparable(try reader.label(id: id) ?? "") {
        anyFails = true
        break
      }
      guard anyFails else { return }
    } catch {
      throw CommandFailure("\(Inputs.displayName(file)): \(error)")
    }
    do throws(StreamError<ListingRowError>) {
      try reader.forEachIdentificationRun { (numbers, label) throws(ListingRowError) in
        guard ListingWriter.isTabSeparable(label) else { throw .labelNotTabSeparable(numbers: numbers) }
      }
    } catch {
      switch error {
      case .format(let damage): throw CommandFailure("\(Inputs.displayName(file)): \(damage)")
      case .consumer(let row): throw CommandFailure("\(Inputs.displayName(file)): \(row)")
      }
    }
  }

  /// A run as the listing writes it: whole, or number by number with `--expand`.
  static func pieces(_ numbers: ClosedRange<Int64>, expand: Bool) -> AnySequence<ClosedRange<Int64>> {
    expand ? AnySequence(numbers.lazy.map { $0...$0 }) : AnySequence(CollectionOfOne(numbers))
  }

  private func writeFailure(_ error: SystemError) -> CommandFailure {
    CommandFailure("\(Inputs.outputName(output)): cannot write: \(error.message)")
  }
}
