import CallDirectory
import CallDirectorySystem

/// `calldir complement`: a blocking list of every number of a span that none of the given
/// directories lists, such as a Do-Not-Originate list of the unallocated numbers of a numbering
/// plan (47 CFR 64.1200(o)): `calldir complement nanp-allocations.calldir --span
/// +12002000000..+19999999999 -o dno.calldir`.
///
/// The directories' runs of both kinds are merged in ascending order, one run of each kind of
/// each directory at a time (a run cursor holds one block), and the gaps between them are
/// written as they are found: memory does not grow with the entries.
struct Complement {
  let files: [String]
  let span: ClosedRange<Int64>
  let output: String
  let json: Bool
  let quiet: Bool
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    try Inputs.refuseReplacing(files, with: output, command: "complement")
    let readers = try files.map { (file) throws(CommandFailure) in try Inputs.openDirectory(file, console: console) }
    var gaps = GapSweep(span: span)
    var writer: AscendingDirectoryWriter
    do { writer = try AscendingDirectoryWriter() } catch { throw CommandFailure(error.description) }
    try fill(&writer, gaps: &gaps, cursors: readers.flatMap { [$0.runCursor(.blocking), $0.runCursor(.identification)] })
    var size = 0
    var unfinished = Optional(consume writer)
    try Inputs.write(to: output, console: console) { (sink) throws(CommandFailure) in
      guard let writer = unfinished.take() else { return }
      var failure: CommandFailure?
      do throws(WriterError) {
        try writer.finish { (piece) throws(WriterError) in
          size += piece.count
          do throws(SystemError) { try sink(piece) } catch {
            failure = CommandFailure("\(Inputs.outputName(output)): cannot write: \(error.message)")
            throw .invalidOption("")
          }
        }
      } catch {
        throw failure ?? CommandFailure(error.description)
      }
    }
    if output != "-" && !quiet {
      console.summary(
        "wrote \(counted(gaps.ranges, "range")) and \(counted(gaps.singles, "single number")), "
          + "\(counted(gaps.numbers, "number")) of the span's \(span.count) not listed, into \(output): \(counted(size, "byte"))")
    }
    if json {
      let object = JSON.Value.object([
        ("output", .string(output)), ("bytes", .int(size)), ("ranges", .int(gaps.ranges)), ("singles", .int(gaps.singles)),
        ("numbers", .int(gaps.numbers)), ("listed", .int(span.count - gaps.numbers)),
      ])
      do { try console.print(JSON.render(object)) } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    return CLI.ExitCode.success
  }

  /// Merges the cursors' runs in ascending order and blocks the gaps they leave in the span.
  private func fill(_ writer: inout AscendingDirectoryWriter, gaps: inout GapSweep, cursors: [RunCursor]) throws(CommandFailure) {
    var cursors = cursors
    var heads: [ClosedRange<Int64>?] = []
    for index in cursors.indices { heads.append(try next(&cursors[index], file: files[index / 2])) }
    func block(_ gap: ClosedRange<Int64>) throws(CommandFailure) {
      do throws(WriterError) { try writer.block(gap) } catch { throw CommandFailure(error.description) }
    }
    // The run with the lowest first number next, among a few cursors: a linear scan.
    while let index = heads.indices.filter({ heads[$0] != nil }).min(by: { heads[$0]!.lowerBound < heads[$1]!.lowerBound }),
      let run = heads[index]
    {
      for gap in gaps.cover(run) { try block(gap) }
      heads[index] = try next(&cursors[index], file: files[index / 2])
      if gaps.isDone { break }
    }
    for gap in gaps.finish() { try block(gap) }
  }

  private func next(_ cursor: inout RunCursor, file: String) throws(CommandFailure) -> ClosedRange<Int64>? {
    do { return try cursor.next()?.numbers } catch { throw CommandFailure("\(Inputs.displayName(file)): \(error)") }
  }
}

/// The gaps a sequence of runs, given in ascending order of first number, leaves in a span: one
/// pass, holding only the first number not yet covered.
struct GapSweep {
  let span: ClosedRange<Int64>
  /// The first number of the span that no run given so far covers; past the span when done.
  private var next: Int64
  private var done = false
  /// What the gaps found so far hold.
  private(set) var ranges = 0
  private(set) var singles = 0
  private(set) var numbers = 0

  init(span: ClosedRange<Int64>) {
    self.span = span
    next = span.lowerBound
  }

  /// Whether the runs given so far reach the span's end: later ones change nothing.
  var isDone: Bool { done }

  /// Covers `run`; returns the gap before it, if any.
  mutating func cover(_ run: ClosedRange<Int64>) -> [ClosedRange<Int64>] {
    guard !done, run.upperBound >= next else { return [] }
    var found: [ClosedRange<Int64>] = []
    if run.lowerBound > next { found.append(gap(next...min(run.lowerBound - 1, span.upperBound))) }
    if run.upperBound >= span.upperBound {
      done = true
    } else {
      next = max(next, run.upperBound + 1)
    }
    if run.lowerBound > span.upperBound { done = true }
    return found
  }

  /// The gap after the last run.
  mutating func finish() -> [ClosedRange<Int64>] {
    guard !done else { return [] }
    done = true
    return [gap(next...span.upperBound)]
  }

  private mutating func gap(_ numbers: ClosedRange<Int64>) -> ClosedRange<Int64> {
    if numbers.count == 1 { singles += 1 } else { ranges += 1 }
    self.numbers += numbers.count
    return numbers
  }
}
