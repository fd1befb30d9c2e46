import CallDirectory
import CallDirectorySystem
import Testing

@testable import CallDirectoryCLI

/// `calldir resolve` and `calldir lookup` reading standard input in batches: one answer a line, in
/// order, whatever chunks the input arrives in, and every line read answered before more input is
/// waited for.
@Suite struct ResolverPipeTests {
  /// Caller lines of every kind the pipe meets: hits and misses in `+`, bare and written forms,
  /// emergency codes, withheld callers, SIP URIs, invalid numbers, CRs, invalid UTF-8, a tab.
  static let pool: [[UInt8]] =
    [
      "+12025550100", "+12025550101", "12025550102", "+12025550123", "+12025550199", "+1 (202) 555-0100", "911",
      "112", "000", "", "anonymous", "sip:+12025550100@pbx.example", "sip:@pbx", "+1202555x", "+0123",
      "+12345678901234567890", "tel:+1-202-555-0101", "+12025550100\r", "Acme\tSupport", "  +12025550102  ",
    ].map { Array($0.utf8) } + [[0xFF, 0xFE, 0x31], [0x2B, 0x31, 0xC3, 0xA9]]

  /// A seeded input of `count` lines from the pool, the last one without its LF when `openEnd`.
  static func input(seed: UInt64, count: Int, openEnd: Bool) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    var bytes: [UInt8] = []
    for index in 0..<count {
      bytes += pool[Int.random(in: 0..<pool.count, using: &random)]
      if index < count - 1 || !openEnd { bytes.append(0x0A) }
    }
    return bytes
  }

  /// The model: each line of `input` answered alone, by its own run with that line as the whole
  /// of standard input. The answers, one entry a line, and the exit status of the whole.
  static func lineAtATime(_ arguments: [String], _ input: [UInt8]) -> (answers: [[UInt8]], status: Int32) {
    var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) + [0x0A] }
    if input.last == 0x0A || input.isEmpty { lines.removeLast() }  // no line after the last LF
    var status: Int32 = 0
    let answers = lines.map { line in
      let capture = CapturedConsole(input: line)
      status = max(status, CLI.main(arguments, console: capture.console))
      return capture.output
    }
    return (answers, status)
  }

  /// Runs `calldir` with `input` handed out `chunkSize` bytes a read, checking before each read
  /// that the output so far is the answers of the model up to at least every line whose LF was
  /// handed out: the answers to what was read are written before more is waited for.
  static func chunked(
    _ arguments: [String], _ input: [UInt8], chunkSize: Int, model: [[UInt8]]
  ) -> (output: [UInt8], status: Int32, early: [String]) {
    let all = Array(model.joined())
    // The bytes of the answers owed once `n` LFs have been handed out: `owed[n]`.
    let owed = model.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
    var offset = 0
    var lineEnds = 0
    var output: [UInt8] = []
    var early: [String] = []
    let console = Console(
      readInput: { () throws(SystemError) in [] },
      readChunk: { () throws(SystemError) -> [UInt8] in
        // Whole answers only, never fewer than the lines sent; a long line may be answered
        // before its LF arrives (it is cut), so more is allowed while it is the model's.
        let owing = owed[min(lineEnds, owed.count - 1)]
        let wholeAnswers = output.isEmpty || output.last == 0x0A
        if !(output.count >= owing && wholeAnswers && all.starts(with: output)) {
          early.append("at byte \(offset): \(output.count) bytes written, \(owing) owed")
        }
        let end = min(input.count, offset + chunkSize)
        defer { offset = end }
        let chunk = Array(input[offset..<end])
        lineEnds += chunk.count { $0 == 0x0A }
        return chunk
      },
      writeOutput: { (bytes) throws(SystemError) in output.append(contentsOf: bytes) },
      writeError: { _ in })
    let status = CLI.main(arguments, console: console)
    return (output, status, early)
  }

  /// Every chunk size from 1 byte to the whole input, on seeded inputs with and without a final
  /// LF, in text and JSON, gives the model's answers in order.
  @Test(arguments: [(1, false, "resolve"), (2, true, "resolve"), (3, false, "resolve"), (4, true, "lookup")])
  func everySplitGivesTheModelsAnswers(seed: UInt64, openEnd: Bool, command: String) throws {
    let stack = try ResolverCLITests.Stack()
    let input = Self.input(seed: seed, count: 16, openEnd: openEnd)
    for json in [false, true] {
      let files = command == "resolve" ? ["--allow", stack.contacts, stack.spam, stack.business] : [stack.business, "-"]
      let arguments = [command] + (json ? ["--json"] : []) + files
      let model = Self.lineAtATime(arguments, input)
      for chunkSize in 1...input.count {
        let run = Self.chunked(arguments, input, chunkSize: chunkSize, model: model.answers)
        #expect(
          run.output == Array(model.answers.joined()),
          "seed \(seed), chunks of \(chunkSize), json \(json): \(String(decoding: run.output, as: UTF8.self))")
        #expect(run.status == model.status, "seed \(seed), chunks of \(chunkSize)")
        #expect(run.early.isEmpty, "seed \(seed), chunks of \(chunkSize): \(run.early)")
      }
    }
  }

  /// A line longer than any caller string among short ones: one error line for it, in its place,
  /// under chunks smaller and larger than the reader's limit.
  @Test(arguments: ["resolve", "lookup"])
  func aLongLineKeepsItsPlace(command: String) throws {
    let stack = try ResolverCLITests.Stack()
    let long = [UInt8](repeating: 0x31, count: LineReader.maximumCallerLineLength + 100)
    let input = Array("+12025550100\n".utf8) + long + [0x0A] + Array("+12025550123\n911".utf8)
    let arguments = [command] + (command == "resolve" ? [stack.spam] : []) + [stack.business]
    let model = Self.lineAtATime(arguments, input)
    #expect(model.answers.count == 4)
    for chunkSize in [1, 2, 3, 7, 13, 64, 4095, 4096, 4097, 4200, input.count] {
      let run = Self.chunked(arguments, input, chunkSize: chunkSize, model: model.answers)
      #expect(run.output == Array(model.answers.joined()), "chunks of \(chunkSize)")
      #expect(run.status == 1)
      #expect(run.early.isEmpty, "chunks of \(chunkSize): \(run.early)")
    }
  }

  /// Answers to queued input are written a batch at a time: far fewer writes than lines, each
  /// holding whole lines.
  @Test func queuedInputIsWrittenInBatches() throws {
    let stack = try ResolverCLITests.Stack()
    let input = Array(String(repeating: "+12025550100\n+12025550199\n", count: 5_000).utf8)
    var chunks = stride(from: 0, to: input.count, by: 1 << 16).map { Array(input[$0..<min(input.count, $0 + (1 << 16))]) }
    var writes: [[UInt8]] = []
    let console = Console(
      readInput: { () throws(SystemError) in [] },
      readChunk: { () throws(SystemError) -> [UInt8] in chunks.isEmpty ? [] : chunks.removeFirst() },
      writeOutput: { (bytes) throws(SystemError) in writes.append(bytes) },
      writeError: { _ in })
    #expect(CLI.main(["resolve", stack.spam], console: console) == 0)
    let lines = writes.joined().split(separator: 0x0A)
    #expect(lines.count == 10_000)
    #expect(writes.count < 20, "\(writes.count) writes")
    #expect(writes.allSatisfy { $0.last == 0x0A })
  }

  /// A reader of the answers that goes away ends the run at the next write, with the error.
  @Test func aFailedWriteEndsTheInput() throws {
    let stack = try ResolverCLITests.Stack()
    var reads = 0
    var errors = ""
    let console = Console(
      readInput: { () throws(SystemError) in [] },
      readChunk: { () throws(SystemError) -> [UInt8] in
        reads += 1
        return Array("+12025550100\n".utf8)  // never ends
      },
      writeOutput: { (_) throws(SystemError) in
        throw SystemError(operation: "write", path: "<stdout>", errno: 32)  // EPIPE: the reader went away
      },
      writeError: { errors += $0 })
    #expect(CLI.main(["resolve", stack.spam], console: console) == 1)
    #expect(reads == 1)
    #expect(errors.contains("cannot write"), "\(errors)")
  }

  /// `resolve(callerUTF8:)` answers or refuses every line as `resolve(caller:)` does, with and
  /// without a default country: its fast form for `+` and digits changes nothing.
  @Test(arguments: [nil, 1, 44] as [Int?])
  func bytesAnswerAsStrings(country: Int?) throws {
    let stack = try ResolverCLITests.Stack()
    let resolver = try Resolver(
      sources: [
        .init(name: "contacts", role: .allowList, provider: try CallDirectoryReader(path: stack.contacts)),
        .init(name: "spam", provider: try CallDirectoryReader(path: stack.spam)),
        .init(name: "business", provider: try CallDirectoryReader(path: stack.business)),
      ], defaultCountryCode: country)
    var random = SeededGenerator(seed: 27)
    var lines = Self.pool
    for _ in 0..<2_000 {
      // `+`, digits and now and then a zero or a letter, 0 to 21 bytes.
      let count = Int.random(in: 0...21, using: &random)
      var line = (0..<count).map { _ in UInt8(0x30 + Int.random(in: 0...9, using: &random)) }
      if Bool.random(using: &random), !line.isEmpty { line[0] = 0x2B }
      if Int.random(in: 0..<10, using: &random) == 0, !line.isEmpty {
        line[Int.random(in: 0..<line.count, using: &random)] = 0x41
      }
      lines.append(line)
    }
    lines += ["0001", "+12025550101", "12025550101", "44", "999", "911"].map { Array($0.utf8) }
    for line in lines {
      let expected = Result { () throws(ResolveError) in try resolver.resolve(caller: String(decoding: line, as: UTF8.self)) }
      let answered = Result { () throws(ResolveError) in try resolver.resolve(callerUTF8: line.span) }
      #expect(answered == expected, "\(String(decoding: line, as: UTF8.self)), country \(String(describing: country))")
    }
  }

  /// Every reason's answer, text and JSON, is what the string writers made of it.
  @Test(arguments: Resolution.Reason.allCases)
  func everyReasonIsWrittenAsItsName(reason: Resolution.Reason) {
    let withheld = reason == .withheld
    let resolution = Resolution(
      reason: reason, number: withheld ? nil : 12_025_550_100, label: withheld ? nil : "Label",
      directory: withheld ? nil : Resolution.Directory(index: 1, name: "d1"))
    var text: [UInt8] = []
    AnswerLine.appendText(resolution, to: &text)
    let number = withheld ? "" : "+12025550100"
    let fields = withheld ? ["", "", ""] : ["Label", "d1"]
    #expect(
      String(decoding: text, as: UTF8.self) == ([number, resolution.action.rawValue] + fields).prefix(4).joined(separator: "\t")
        + "\n")
    var json: [UInt8] = []
    AnswerLine.appendJSON(input: "x".utf8, resolution, to: &json)
    let expected = JSON.render(
      .object([
        ("input", .string("x")), ("number", withheld ? .null : .string(number)), ("action", .string(resolution.action.rawValue)),
        ("label", withheld ? .null : .string("Label")), ("directory", withheld ? .null : .string("d1")),
        ("reason", .string(reason.rawValue)),
      ]))
    #expect(String(decoding: json, as: UTF8.self) == expected + "\n")
  }

  /// The byte writer's lines are what the JSON writer and `oneLine` make of every control
  /// character, quote, backslash and non-ASCII scalar in a label and a directory name.
  @Test func answerLinesEscapeAsTheJSONWriterDoes() {
    let awkward = String(decoding: (0..<0x80).map { UInt8($0) }, as: UTF8.self) + "\"\\é😀\u{7F}"
    let resolution = Resolution(
      reason: .identified, number: 12_025_550_100, label: awkward,
      directory: Resolution.Directory(index: 0, name: "dir\t\"x\"\n"), labelDirectory: nil)
    var text: [UInt8] = []
    AnswerLine.appendText(resolution, to: &text)
    let expectedText = ["+12025550100", "identify", oneLine(awkward), oneLine("dir\t\"x\"\n")].joined(separator: "\t") + "\n"
    #expect(String(decoding: text, as: UTF8.self) == expectedText)
    var json: [UInt8] = []
    AnswerLine.appendJSON(input: awkward.utf8, resolution, to: &json)
    let expectedJSON = JSON.render(
      .object([
        ("input", .string(awkward)), ("number", .string("+12025550100")), ("action", .string("identify")),
        ("label", .string(awkward)), ("directory", .string("dir\t\"x\"\n")), ("reason", .string("identified")),
      ]))
    #expect(String(decoding: json, as: UTF8.self) == expectedJSON + "\n")
  }
}
