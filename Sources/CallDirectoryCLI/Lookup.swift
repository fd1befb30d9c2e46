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
        line = json ? Lookup.json(number, result) : Lookup.text(number, result)
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

  static func text(_ number: Int64, _ result: LookupResult) -> String {
    let status = result.blocked ? "blocked" : (result.label == nil ? "not listed" : "identified")
    return [formatInternational(number), status, result.label.map(oneLine)].compactMap { $0 }.joined(separator: "\t")
  }

  static func json(_ number: Int64, _ result: LookupResult) -> String {
    JSON.render(
      .object([
        ("number", .string(formatInternational(number))), ("blocked", .bool(result.blocked)),
        ("label", result.label.map { .string($0) } ?? .null),
      ]))
  }
}
