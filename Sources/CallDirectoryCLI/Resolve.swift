import CallDirectory
import CallDirectorySystem

/// `calldir resolve`: one answer line per number, from the arguments or, in the long-running
/// form, from standard input as the lines arrive.
///
/// Every directory is followed on disk: in the long-running form, before each batch of lines (one
/// read of standard input), a replaced file is reopened (`Spec/RESOLUTION.md` sections 5 and 7),
/// and a replacement that cannot be opened is reported once while the previous version keeps
/// answering. The answers to a batch are written together before the next read (`AnswerBatches`).
struct Resolve {
  let options: Command.ResolveOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    // Checked once a batch of lines by `refresh()`, not on a timer: a query never waits on a stat.
    let (directories, resolver) = try ResolverStack.open(options, command: "resolve")

    var status = CLI.ExitCode.success
    let batches = AnswerBatches(read: console.readChunk, write: console.writeOutput)
    if options.standardInput {
      // Lines are read as they come, and the answers to those read are written before more
      // input is waited for: a program that writes one line and waits gets its answer.
      var lines = StandardInputLines(batches)
      func answerNext(_ line: Span<UInt8>) -> Bool {
        // Once a batch (a chunk of input, at most 64 KiB: a few thousand lines, or the one line
        // an interactive caller sent) rather than once a line: one `stat` a chunk still picks up
        // a replaced file within milliseconds at full speed, and before the next line typed.
        if batches.takeBatchStart() { for directory in directories { reload(directory) } }
        return answer(line, resolver, into: &batches.pending)
      }
      while let answered = try lines.next(answerNext) {
        if !answered { status = CLI.ExitCode.failure }
        try writing(batches.writeIfFull)
      }
    } else {
      for number in options.numbers {
        let bytes = Array(number.utf8)
        if !answer(bytes.span, resolver, into: &batches.pending) { status = CLI.ExitCode.failure }
        try writing(batches.writeIfFull)
      }
    }
    try writing(batches.finish)
    return status
  }

  /// Runs `write`, a write of answers.
  /// - Throws: `CommandFailure` when it fails: when nobody reads the answers any more, stop, as
  ///   a pipeline expects.
  private func writing(_ write: () throws(SystemError) -> Void) throws(CommandFailure) {
    do { try write() } catch { throw CommandFailure("cannot write: \(error.message)") }
  }

  /// Answers one caller string, given as its UTF-8 bytes, with one line appended to `output`.
  /// - Returns: whether it was answered (`false`: an invalid number, a damaged directory, or a
  ///   line longer than any caller string).
  private func answer(_ line: Span<UInt8>, _ resolver: Resolver, into output: inout [UInt8]) -> Bool {
    if StandardInputLines.isTooLong(line) {
      refuseLongLine(line, into: &output)
      return false
    }
    do {
      let resolution = try resolver.resolve(callerUTF8: line)
      if !options.json {
        AnswerLine.appendText(resolution, colored: console.colorsOutput, to: &output)
      } else if Self.isASCII(line) {
        // ASCII is valid UTF-8 as it is: the input needs no decoding (the common case, digits).
        unsafe line.withUnsafeBufferPointer { unsafe AnswerLine.appendJSON(input: $0, resolution, to: &output) }
      } else {
        AnswerLine.appendJSON(input: StandardInputLines.text(line).utf8, resolution, to: &output)
      }
      return true
    } catch {
      let text = StandardInputLines.text(line)
      switch error {
      case .invalidNumber, .invalidCaller: console.diagnose("invalid number: \(error)")
      case .damagedDirectory: console.diagnose("cannot resolve \(oneLine(text)): \(error)")
      }
      output.append(contentsOf: (errorLine(text, error.description) + "\n").utf8)
      return false
    }
  }

  private static func isASCII(_ bytes: Span<UInt8>) -> Bool {
    var index = 0
    while index < bytes.count {
      if bytes[index] >= 0x80 { return false }
      index += 1
    }
    return true
  }

  /// The answer to an input that has no answer: `INPUT<TAB>error<TAB>MESSAGE<TAB>`, or its JSON.
  private func errorLine(_ input: String, _ message: String) -> String {
    options.json
      ? JSON.render(.object([("input", .string(input)), ("error", .string(message))]))
      : [oneLine(input), "error", oneLine(message), ""].joined(separator: "\t")
  }

  /// Answers a line longer than any caller string with one error, quoting its start only
  /// (the reader has already dropped the rest of it).
  private func refuseLongLine(_ line: Span<UInt8>, into output: inout [UInt8]) {
    let start = StandardInputLines.quotedStart(of: line)
    console.diagnose("cannot resolve \(oneLine(start)): \(StandardInputLines.tooLongMessage)")
    output.append(contentsOf: (errorLine(start, StandardInputLines.tooLongMessage) + "\n").utf8)
  }

  /// Reloads `directory` if its file was replaced, saying so once when the new file fails.
  private func reload(_ directory: ReloadingDirectory) {
    switch directory.refresh() {
    case .unchanged: break
    case .reloaded: console.summary("\(directory.path): reloaded")
    case .failed(let error):
      let reason: String
      if case .system(let failure) = error { reason = failure.message } else { reason = error.description }
      console.diagnose("\(directory.path): cannot reload: \(reason); still answering from the previous version")
    }
  }

  /// `NUMBER<TAB>ACTION<TAB>LABEL<TAB>DIRECTORY`, empty fields for no label or no directory.
  static func text(_ resolution: Resolution) -> String {
    var bytes: [UInt8] = []
    AnswerLine.appendText(resolution, to: &bytes)
    return String(decoding: bytes.dropLast(), as: UTF8.self)  // without its LF
  }

  /// `{"input":...,"number":...,"action":...,"label":...,"directory":...,"reason":...}`.
  static func json(_ input: String, _ resolution: Resolution) -> String {
    var bytes: [UInt8] = []
    AnswerLine.appendJSON(input: input.utf8, resolution, to: &bytes)
    return String(decoding: bytes.dropLast(), as: UTF8.self)  // without its LF
  }

  /// The number as answers show it: `+` and the digits, or an emergency code as it was matched.
  static func number(_ resolution: Resolution) -> String {
    if let number = resolution.number { return formatInternational(number) }
    return resolution.emergencyCode ?? ""
  }

}
