import CallDirectory
import CallDirectoryService
import Testing

/// The service's pieces in-process: the query, the listen address, the routes and the metrics.
@Suite struct ServiceTests {
  static func request(_ target: String, method: String = "GET", body: String = "") -> HTTPRequest {
    HTTPRequest(method: method, target: target, body: Array(body.utf8))
  }

  @Test(arguments: [
    ("/v1/resolve?number=+12025550100", "+12025550100"), ("/v1/resolve?number=%2B1%20202", "+1 202"),
    ("/v1/resolve?a=1&number=x&number=y", "x"), ("/v1/resolve?number=", ""), ("/v1/resolve?number", ""),
    ("/v1/resolve?number=sip:+1@h;user=phone", "sip:+1@h;user=phone"), ("/v1/resolve?nu%6Dber=%c3%a9", "é"),
  ])
  func readsTheQuery(target: String, expected: String) throws {
    #expect(try Self.request(target).queryValue("number") == expected)
  }

  /// A target in absolute form, as a client sends it through a proxy: read as its path and query.
  @Test(arguments: [
    ("http://x/v1/resolve?number=%2B1", "/v1/resolve", "number=%2B1"), ("HTTPS://x:8053/healthz", "/healthz", nil),
    ("http://x?number=1", "/", "number=1"), ("http://x", "/", nil), ("/http://x/", "/http://x/", nil),
  ])
  func readsAbsoluteTargets(target: String, path: String, query: String?) {
    let request = Self.request(target)
    #expect(request.path == path && request.query == query)
  }

  @Test func refusesBadQueries() throws {
    #expect(try Self.request("/v1/resolve").queryValue("number") == nil)
    #expect(try Self.request("/v1/resolve?other=1").queryValue("number") == nil)
    #expect(throws: QueryError("'%' not followed by two hex digits in the query")) {
      try Self.request("/v1/resolve?number=%2").queryValue("number")
    }
    #expect(throws: QueryError("'%' not followed by two hex digits in the query")) {
      try Self.request("/v1/resolve?number=%G0").queryValue("number")
    }
    #expect(throws: QueryError("the query is not UTF-8")) { try Self.request("/v1/resolve?number=%FF").queryValue("number") }
  }

  @Test(arguments: [
    ("8053", "127.0.0.1:8053"), ("0.0.0.0:80", "0.0.0.0:80"), ("[::1]:0", "[::1]:0"), ("localhost:9", "127.0.0.1:9"),
    ("127.0.0.1:65535", "127.0.0.1:65535"),
  ])
  func readsListenAddresses(text: String, expected: String) throws {
    #expect(try ListenAddress(parsing: text).description == expected)
  }

  @Test func refusesBadListenAddresses() {
    #expect(throws: QueryError("write an IPv6 address in brackets: [::1:80]")) { try ListenAddress(parsing: "::1:80") }
    #expect(throws: QueryError("':80' has no address before the port")) { try ListenAddress(parsing: ":80") }
    #expect(throws: QueryError("'65536' is not a port (0 to 65535)")) { try ListenAddress(parsing: "127.0.0.1:65536") }
    #expect(throws: QueryError("'[::1]80' is not [IPV6]:PORT")) { try ListenAddress(parsing: "[::1]80") }
  }

  static func service() throws -> ResolveService {
    let resolver = try ResolverFixtures.resolver([try #require(StackEntry(notation: "std(B+I:Spam)"))])
    let format = ResolveService.AnswerFormat(
      answer: { input, resolution in "\(input) \(resolution.reason.rawValue)" },
      error: { input, message in "\(input) ! \(message)" })
    return ResolveService(resolver: resolver, format: format, metrics: ServiceMetrics(directories: ["d\"0\\\n"]))
  }

  @Test func routes() throws {
    let service = try Self.service()
    let caller = "+\(ResolverFixtures.number)"
    let answer = service.respond(to: Self.request("/v1/resolve?number=\(caller)"))
    #expect(answer.status == 200)
    #expect(String(decoding: answer.body, as: UTF8.self) == "\(caller) blocked\n")
    #expect(service.respond(to: Self.request("/v1/resolve?number=\(caller)", method: "HEAD")).status == 200)
    #expect(service.respond(to: Self.request("/v1/resolve?number=x")).status == 400)
    #expect(service.respond(to: Self.request("/v1/resolve?number=anonymous")).status == 200)
    let refused = service.respond(to: Self.request("/metrics", method: "POST"))
    #expect(refused.status == 405)
    #expect(refused.headers == [HTTPResponse.Header(name: "Allow", value: "GET, HEAD")])
    #expect(service.respond(to: Self.request("/v1/resolve", method: "PUT")).status == 405)
    #expect(service.respond(to: Self.request("/v1")).status == 404)
    #expect(service.respond(to: Self.request("/readyz")).status == 200)
    service.beginStopping()
    #expect(service.respond(to: Self.request("/readyz")).status == 503)
    #expect(service.respond(to: Self.request("/healthz")).status == 200)
  }

  @Test func answersABatchLineByLine() throws {
    let service = try Self.service()
    let body = "{\"number\":\"anonymous\"}\r\n \t\n{\"number\":1}\n{}\n{\"number\":\"\\u0078\"}"
    let answer = service.respond(to: Self.request("/v1/resolve", method: "POST", body: body))
    #expect(answer.status == 200)
    #expect(answer.contentType == "application/jsonl")
    #expect(
      String(decoding: answer.body, as: UTF8.self).split(separator: "\n") == [
        "anonymous withheld", "{\"number\":1} ! expected a string value in double quotes", "{} ! missing \"number\"",
        "x ! invalid character 'x' in number \"x\"",
      ])
  }

  @Test func rendersMetrics() throws {
    let service = try Self.service()
    _ = service.respond(to: Self.request("/v1/resolve?number=+\(ResolverFixtures.number)"))
    _ = service.respond(to: Self.request("/nowhere"))
    service.metrics.recordReload(directory: 0, failed: true)
    service.metrics.recordReload(directory: 5, failed: true)  // no such directory: ignored
    let page = service.metrics.render()
    #expect(page.contains("calldir_answers_total{action=\"block\",reason=\"blocked\"} 1\n"))
    #expect(page.contains("calldir_http_requests_total{endpoint=\"other\",code=\"404\"} 1\n"))
    // A label value's quote, backslash and line feed are escaped.
    #expect(page.contains("calldir_reload_failures_total{directory=\"d\\\"0\\\\\\n\"} 1\n"))
    #expect(page.contains("calldir_http_request_duration_seconds_bucket{le=\"+Inf\"} 2\n"))
    #expect(page.contains("calldir_http_request_duration_seconds_count 2\n"))
    for line in page.split(separator: "\n") where !line.hasPrefix("#") {
      #expect(line.split(separator: " ").count == 2, "\(line)")
    }
  }
}
