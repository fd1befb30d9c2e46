import CallDirectory
import CallDirectoryService

/// The HTTP service's harness, in-process (no socket): the first byte picks the method, the bytes
/// up to the first line feed are the request target, the rest is the body; the request goes
/// through `ResolveService.respond` over a stack that blocks and identifies a few numbers.
///
/// Oracle: a known status; a single answer is one line; a batch answered 200 has one line for
/// each line of its body that is not blank, in order.
enum FuzzService {
  static let methods = ["GET", "POST", "HEAD", "PUT"]
  static let statuses: Set<Int> = [200, 400, 404, 405, 500, 503]

  static func run(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    let rest = input.dropFirst()
    let newline = rest.firstIndex(of: 0x0A) ?? rest.endIndex
    let target = String(decoding: rest[..<newline], as: UTF8.self)
    let body = newline < rest.endIndex ? Array(rest[rest.index(after: newline)...]) : []
    let method = methods[Int(selector) % methods.count]
    let response = service.respond(to: HTTPRequest(method: method, target: target, body: body))
    guard statuses.contains(response.status) else { fatalError("status \(response.status) for \(method) \(target)") }
    guard response.status == 200, target.hasPrefix("/v1/resolve") else { return }
    let lines = response.body.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    if method == "POST" {
      // Blank as RESOLUTION 8 says: spaces and tabs only, once the one CR of a CRLF is dropped
      // (any other CR is a character of the line, which an error line answers).
      let asked = body.split(separator: 0x0A, omittingEmptySubsequences: false).filter { line in
        !(line.last == 0x0D ? line.dropLast() : line[...]).allSatisfy { $0 == 0x20 || $0 == 0x09 }
      }
      guard lines.count == asked.count else { fatalError("\(asked.count) lines asked, \(lines.count) answered") }
    } else if lines.count != 1 {
      fatalError("\(lines.count) lines for one caller")
    }
  }

  static let service: ResolveService = {
    var builder = DirectoryBuilder()
    // A small stack: a block, an identification, a range of each.
    try! builder.block(12_025_550_100)
    try! builder.identify(12_025_550_123, label: "Acme \"Support\"\n")
    try! builder.block(12_025_550_200...12_025_550_299)
    try! builder.identify(33_612_000_000...33_612_999_999, label: "Mobile")
    let reader = try! CallDirectoryReader(bytes: try! builder.encoded())
    let resolver = try! Resolver(sources: [.init(name: "stack", provider: reader)], defaultCountryCode: 1)
    // Any line per answer will do: the oracle counts lines, and a label's line feed is escaped.
    let format = ResolveService.AnswerFormat(
      answer: { input, resolution in "\(input.utf8.count) \(resolution.reason.rawValue)" },
      error: { input, message in "\(input.utf8.count) error" })
    return ResolveService(resolver: resolver, format: format, metrics: ServiceMetrics(directories: ["stack"]))
  }()
}
