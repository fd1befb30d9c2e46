import CallDirectory
import CallDirectorySystem

/// `calldir unpack`: writes the listing, as CSV or JSON Lines, blocking entries then
/// identification entries, each ascending.
struct Unpack {
  let file: String
  let output: String
  /// Whether to write every number of a range instead of the range.
  let expand: Bool
  /// CSV or JSON Lines; never TSV, which parsing refuses.
  let format: ListingFormat
  /// No progress line on standard error.
  let quiet: Bool
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let reader = try Inputs.openDirectory(file, console: console)
    let progress = ProgressLine(
      console: console, label: "unpack", total: reader.blockingCount + reader.identificationCount + reader.blockingRangeCount + reader.identificationRangeCount,
      quiet: quiet)
    defer { progress.finish() }
    try Inputs.write(to: output, console: console) { (sink) throws(CommandFailure) in
      var writer = ListingWriter(header: format == .csv)
      var lines = ListingJSONLines.Writer()
      let json = format == .jsonl
      func failure(_ error: StreamError<SystemError>) -> CommandFailure {
        switch error {
        case .format(let damage): CommandFailure("\(Inputs.displayName(file)): \(damage)")
        case .consumer(let failure): writeFailure(failure)
        }
      }
      do throws(StreamError<SystemError>) {
        try reader.forEachBlockingRun { (numbers) throws(SystemError) in
          progress.advance()
          for run in Unpack.pieces(numbers, expand: expand) {
            if json {
              lines.appendBlock(run)
              try lines.flushIfFull(to: sink)
            } else {
              writer.appendBlock(run)
              try writer.flushIfFull(to: sink)
            }
          }
        }
      } catch { throw failure(error) }
      do throws(StreamError<SystemError>) {
        try reader.forEachIdentificationRun { (numbers, label) throws(SystemError) in
          progress.advance()
          for run in Unpack.pieces(numbers, expand: expand) {
            if json {
              lines.appendIdentification(run, label: label)
              try lines.flushIfFull(to: sink)
            } else {
              writer.appendIdentification(run, label: label)
              try writer.flushIfFull(to: sink)
            }
          }
        }
      } catch { throw failure(error) }
      do throws(SystemError) {
        try writer.flush(to: sink)
        try lines.flush(to: sink)
      } catch { throw writeFailure(error) }
    }
    return CLI.ExitCode.success
  }

  /// A run as the listing writes it: whole, or number by number with `--expand`.
  static func pieces(_ numbers: ClosedRange<Int64>, expand: Bool) -> AnySequence<ClosedRange<Int64>> {
    expand ? AnySequence(numbers.lazy.map { $0...$0 }) : AnySequence(CollectionOfOne(numbers))
  }

  private func writeFailure(_ error: SystemError) -> CommandFailure {
    CommandFailure("\(Inputs.displayName(output)): cannot write: \(error.message)")
  }
}
