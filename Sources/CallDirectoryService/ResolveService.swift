import CallDirectoryListing
import CallDirectoryResolver
import CallDirectorySystem
import Synchronization

/// The call-time HTTP API over a resolver: routes each request, answers it, and counts it.
///
/// - `GET /v1/resolve?number=CALLER`: one JSON answer, the fields of `calldir resolve --json`;
///   400 for a caller that is not a number, 500 for a damaged directory, each with `error`.
/// - `POST /v1/resolve`: JSON Lines in, one `{"number":"CALLER"}` object a line, and one answer
///   a line out in the same order; a line that cannot be answered gets an `error` line. Blank
///   lines are skipped.
/// - `GET /healthz`: 200 while the process answers. `GET /readyz`: 200 while it takes
///   requests, 503 once it is stopping.
/// - `GET /metrics`: ``ServiceMetrics`` in Prometheus's text format.
///
/// The resolver is shared by every server thread; it is `Sendable` and answers each query from
/// one version of every directory (`Spec/RESOLUTION.md` section 5).
///
///     let service = ResolveService(resolver: resolver, format: format, metrics: ServiceMetrics(directories: ["spam"]))
///     let response = service.respond(to: HTTPRequest(method: "GET", target: "/v1/resolve?number=%2B12025550100"))
package final class ResolveService: Sendable {
  /// How answers are written: the same lines as `calldir resolve --json`.
  package struct AnswerFormat: Sendable {
    /// The answer line for the caller string `input`.
    package var answer: @Sendable (_ input: String, _ resolution: Resolution) -> String
    /// The line for an input that has no answer, with the reason.
    package var error: @Sendable (_ input: String, _ message: String) -> String

    /// A format made of these two functions.
    package init(
      answer: @escaping @Sendable (String, Resolution) -> String, error: @escaping @Sendable (String, String) -> String
    ) {
      self.answer = answer
      self.error = error
    }
  }

  /// The resolver that answers.
  package let resolver: Resolver
  /// How answers are written.
  package let format: AnswerFormat
  /// The counters `/metrics` shows.
  package let metrics: ServiceMetrics
  /// Whether `/readyz` says ready; cleared when the service begins to stop.
  private let ready = Atomic<Bool>(true)

  /// A service answering with `resolver`.
  package init(resolver: Resolver, format: AnswerFormat, metrics: ServiceMetrics) {
    self.resolver = resolver
    self.format = format
    self.metrics = metrics
  }

  /// Makes `/readyz` answer 503, so that a load balancer sends no more requests. O(1).
  package func beginStopping() { ready.store(false, ordering: .relaxed) }

  /// The endpoints, as `/metrics` names them; any other path is counted as `other`.
  static let endpoints: Set<String> = ["/v1/resolve", "/healthz", "/readyz", "/metrics"]

  /// Answers one request and counts it.
  /// - Complexity: O(body length + k log n per caller) for k directories of at most n entries.
  package func respond(to request: HTTPRequest) -> HTTPResponse {
    let response = route(request)
    count(request, status: response.status)
    return response
  }

  /// Counts a request answered with `status`: one the server refused itself (`HTTPServer`'s
  /// `refusals`), or one this service answered. O(1).
  package func count(_ request: HTTPRequest, status: Int) {
    let endpoint = Self.endpoints.contains(request.path) ? request.path : "other"
    let took = request.receivedAt == 0 ? 0 : MonotonicClock.nanoseconds() &- request.receivedAt  // the clock never goes back
    metrics.recordRequest(endpoint: endpoint, status: status, nanoseconds: took)
  }

  private func route(_ request: HTTPRequest) -> HTTPResponse {
    let readOnly = request.method == "GET" || request.method == "HEAD"
    switch request.path {
    case "/v1/resolve":
      if request.method == "POST" { return batch(request.body) }
      guard readOnly else { return Self.notAllowed("GET, HEAD, POST") }
      return single(request)
    case "/healthz", "/readyz", "/metrics":
      guard readOnly else { return Self.notAllowed("GET, HEAD") }
      if request.path == "/healthz" { return .text(200, "ok") }
      if request.path == "/readyz" { return ready.load(ordering: .relaxed) ? .text(200, "ready") : .text(503, "stopping") }
      return HTTPResponse(
        status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(metrics.render().utf8))
    default:
      return .text(404, "no such endpoint: \(request.path) (try /v1/resolve?number=...)")
    }
  }

  /// `GET /v1/resolve?number=...`.
  private func single(_ request: HTTPRequest) -> HTTPResponse {
    let caller: String
    do {
      guard let value = try request.queryValue("number") else {
        return .json(400, format.error("", "give the caller as ?number=... (a + stands for itself, a space is %20)"))
      }
      caller = value
    } catch {
      return .json(400, format.error(request.query ?? "", error.description))
    }
    var tally = Tally()
    let (line, status) = answer(caller, &tally)
    tally.record(in: metrics)
    return .json(status, line)
  }

  /// `POST /v1/resolve`: one answer line per object line, in order.
  private func batch(_ body: [UInt8]) -> HTTPResponse {
    var output = ""
    var tally = Tally()
    var start = ByteOrderMark.length(atStartOf: body.span)  // no part of the first line, as in pack
    while start < body.count {
      let newline = body[start...].firstIndex(of: 0x0A) ?? body.count
      var end = newline
      if end > start && body[end - 1] == 0x0D { end -= 1 }  // end > start: in range
      defer { start = newline + 1 }  // newline <= body.count: never past Int.max
      if JSONObjectLine.isBlank(body, start..<end) { continue }
      do {
        let values = try JSONObjectLine.members(of: body, in: start..<end, names: ["number"])
        guard let number = values[0] else {
          tally.unanswered["invalid_number", default: 0] += 1
          output += format.error(String(decoding: body[start..<end], as: UTF8.self), "missing \"number\"") + "\n"
          continue
        }
        // The scanner checked that the string is UTF-8.
        output += answer(String(decoding: number, as: UTF8.self), &tally).line + "\n"
      } catch {
        tally.unanswered["invalid_number", default: 0] += 1
        output += format.error(String(decoding: body[start..<end], as: UTF8.self), error.message) + "\n"
      }
    }
    tally.record(in: metrics)
    return HTTPResponse(status: 200, contentType: "application/jsonl", body: Array(output.utf8))
  }

  /// One caller's line and the status a single request would carry.
  private func answer(_ caller: String, _ tally: inout Tally) -> (line: String, status: Int) {
    do {
      let resolution = try resolver.resolve(caller: caller)
      tally.answers[resolution.reason, default: 0] += 1
      return (format.answer(caller, resolution), 200)
    } catch {
      switch error {
      case .invalidNumber, .invalidCaller:
        tally.unanswered["invalid_number", default: 0] += 1
        return (format.error(caller, error.description), 400)
      case .damagedDirectory:
        tally.unanswered["damaged_directory", default: 0] += 1
        return (format.error(caller, error.description), 500)
      }
    }
  }

  private static func notAllowed(_ methods: String) -> HTTPResponse {
    var response = HTTPResponse.text(405, "method not allowed (\(methods))")
    response.headers.append(.init(name: "Allow", value: methods))
    return response
  }

  /// A request's counts, added to the metrics at once.
  private struct Tally {
    var answers: [Resolution.Reason: Int] = [:]
    var unanswered: [String: Int] = [:]

    func record(in metrics: ServiceMetrics) {
      if !answers.isEmpty { metrics.recordAnswers(answers) }
      if !unanswered.isEmpty { metrics.recordUnanswered(unanswered) }
    }
  }
}
