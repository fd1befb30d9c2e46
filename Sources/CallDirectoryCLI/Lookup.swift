import CallDirectory
import CallDirectorySystem

/// `calldir lookup`: one answer line per number, in the order given: from the arguments or, when
/// there are none (or `-`), from standard input as the lines arrive.
struct Lookup {
  let file: String
  /// The numbers to answer; empty to read them from standard input.
  let numbers: [String]
  let country: String?
  let json: Bool
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let reader = try Inputs.openDirectory(file, console: console)
    let parser: PhoneNumberParser
    do {
      parser = try PhoneNumberParser(region: country, digitLimits: PhoneNumberParser.formatDomainDigits)
    } catch {
      throw CommandFailure.usage("\(error)", command: "lookup")
    }
    var status = CLI.ExitCode.success
    let batches = AnswerBatches(read: console.readChunk, write: console.writeOutput)
    // Appends the answer to `text` to the batch; an invalid number makes the exit status 1, and
    // its message names the line (`place`, `<stdin>:2: `) when it came from standard input.
    func answer(_ text: String, place: String = "") throws(CommandFailure) {
      let line: String
      switch Result(catching: { () throws(PhoneNumberError) in try parser.parse(text) }) {
      case .success(let number):
        let result: LookupResult
        do { result = try reader.lookup(number) } catch { throw CommandFailure("\(Inputs.displayName(file)): \(error)") }
        line = json ? Lookup.json(number, result) : Lookup.text(number, result, colored: console.colorsOutput)
      case .failure(let error):
        console.diagnose("\(place)invalid number: \(error)")
        status = CLI.ExitCode.failure
        line = errorLine(text, error.description)
      }
      batches.pending.append(contentsOf: (line + "\n").utf8)
      do { try batches.writeIfFull() } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    if numbers.isEmpty {
      var lines = StandardInputLines(batches)
      var lineNumber = 0
      while let (text, tooLong) = try lines.next({ line in
        StandardInputLines.isTooLong(line)
          ? (StandardInputLines.quotedStart(of: line), true) : (StandardInputLines.text(line), false)
      }) {
        lineNumber += 1
        let place = "\(Inputs.displayName("-")):\(lineNumber): "
        guard !tooLong else {
          console.diagnose("\(place)invalid number \(oneLine(text)): \(StandardInputLines.tooLongMessage)")
          status = CLI.ExitCode.failure
          batches.pending.append(contentsOf: (errorLine(text, StandardInputLines.tooLongMessage) + "\n").utf8)
          continue
        }
        try answer(text, place: place)
      }
    } else {
      for text in numbers { try answer(text) }
    }
    do { try batches.finish() } catch { throw CommandFailure("cannot write: \(error.message)") }
    return status
  }

  /// The answer to an input that is not a number: `INPUT<TAB>invalid`, or its JSON.
  private func errorLine(_ input: String, _ message: String) -> String {
    json ? JSON.render(.object([("input", .string(input)), ("error", .string(message))])) : "\(oneLine(input))\tinvalid"
  }

  /// `NUMBER<TAB>ACTION[<TAB>LABEL]`, the action in `resolve`'s words: what a phone would do with
  /// the call if this file were its only list (`block`, `identify`, or `allow` for a number the file
  /// does not list).
  static func text(_ number: Int64, _ result: LookupResult, colored: Bool = false) -> String {
    let verdict = action(result)
    let word = verdict.style.apply(verdict.rawValue, enabled: colored)
    return [formatInternational(number), word, result.label.map(oneLine)].compactMap { $0 }.joined(separator: "\t")
  }

  /// What a phone would do with the call if this file were its only list.
  static func action(_ result: LookupResult) -> Resolution.Action {
    result.blocked ? .block : (result.label == nil ? .allow : .identify)
  }

  /// `{"number":...,"action":...,"blocked":...,"label":...}`, `label` `null` when there is none.
  static func json(_ number: Int64, _ result: LookupResult) -> String {
    JSON.render(
      .object([
        ("number", .string(formatInternational(number))), ("action", .string(action(result).rawValue)),
        ("blocked", .bool(result.blocked)),
        ("label", result.label.map { .string($0) } ?? .null),
      ]))
  }
}
