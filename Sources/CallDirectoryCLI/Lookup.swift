import CallDirectory
import CallDirectorySystem

/// `calldir lookup`: one answer line per number, in the order given.
struct Lookup {
  let file: String
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
    for text in numbers {
      let line: String
      switch Result(catching: { () throws(PhoneNumberError) in try parser.parse(text) }) {
      case .success(let number):
        let result: LookupResult
        do { result = try reader.lookup(number) } catch { throw CommandFailure("\(Inputs.displayName(file)): \(error)") }
        line = json ? Lookup.json(number, result) : Lookup.text(number, result, colored: console.colorsOutput)
      case .failure(let error):
        console.diagnose("invalid number: \(error)")
        status = CLI.ExitCode.failure
        line =
          json
          ? JSON.render(.object([("input", .string(text)), ("error", .string(error.description))])) : "\(oneLine(text))\tinvalid"
      }
      do { try console.print(line) } catch { throw CommandFailure("cannot write: \(error.message)") }
    }
    return status
  }

  /// `NUMBER<TAB>ACTION[<TAB>LABEL]`, the action in `resolve`'s words: what a phone would do with
  /// the call if this file were its only list (`block`, `identify`, or `allow` for a number the file
  /// does not list).
  static func text(_ number: Int64, _ result: LookupResult, colored: Bool = false) -> String {
    let action: Resolution.Action = result.blocked ? .block : (result.label == nil ? .allow : .identify)
    let word = action.style.apply(action.rawValue, enabled: colored)
    return [formatInternational(number), word, result.label.map(oneLine)].compactMap { $0 }.joined(separator: "\t")
  }

  static func json(_ number: Int64, _ result: LookupResult) -> String {
    JSON.render(
      .object([
        ("number", .string(formatInternational(number))), ("blocked", .bool(result.blocked)),
        ("label", result.label.map { .string($0) } ?? .null),
      ]))
  }
}
