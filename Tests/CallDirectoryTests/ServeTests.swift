#if canImport(Glibc)
  import CallDirectory
  import CallDirectoryCLI
  import Foundation
  import Glibc
  import Testing

  /// `calldir serve` end to end: the built executable on a loopback port, asked with `curl`.
  @Suite(.serialized) struct ServeTests {
    /// The callers every answer test asks: a block, an identification, an allow-listed number, a
    /// miss, an emergency code, SIP and tel URIs, a display name, withheld callers.
    static let callers = [
      "+12025550100", "+1 (202) 555-0123", "+12025550101", "+12025550199", "911", "sip:+12025550100@example.com;user=phone",
      "\"Acme\" <sips:+12025550102@example.com>", "tel:+1-202-555-0123", "anonymous", "sip:anonymous@anonymous.invalid",
    ]

    static func served(_ stack: ResolverCLITests.Stack, _ options: [String] = []) throws -> ServedProcess {
      try ServedProcess(options + ["--allow", stack.contacts, stack.spam, stack.business])
    }

    /// `calldir resolve --json`'s line for `caller` over the same stack.
    static func resolved(_ stack: ResolverCLITests.Stack, _ caller: String, _ options: [String] = []) -> String {
      let result = calldirArguments(
        ["resolve", "--json"] + options + ["--allow", stack.contacts, stack.spam, stack.business, caller])
      return result.output.trimmingCharacters(in: .newlines)
    }

    static func query(_ caller: String) -> String {
      var allowed = CharacterSet.urlQueryAllowed
      allowed.remove(charactersIn: "+&=;")
      return "/v1/resolve?number=" + (caller.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    @Test func answersAsResolveJSONDoes() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      for caller in Self.callers {
        let response = try server.curl(Self.query(caller))
        #expect(response.status == 200, "\(caller)")
        #expect(response.body == Self.resolved(stack, caller), "\(caller)")
      }
      // A + in the query stands for itself, as PBXs write it.
      #expect(try server.curl("/v1/resolve?number=+12025550100").body.contains(#""reason":"blocked""#))
      #expect(server.terminate().status == 0)
    }

    @Test func blocksWithheldCallersWhenAsked() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--block-withheld"])
      for caller in ["anonymous", "Restricted", "", "<sip:anonymous@anonymous.invalid>"] {
        let response = try server.curl(Self.query(caller))
        #expect(response.body == Self.resolved(stack, caller, ["--block-withheld"]), "\(caller)")
        #expect(response.body.contains(#""action":"block","label":null,"directory":null,"reason":"withheld""#), "\(caller)")
      }
    }

    @Test func refusesCallersThatAreNotNumbers() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      for caller in ["abc", "+1 202 555 01OO", "sip:@example.com", "sip:alice@example.com"] {
        let response = try server.curl(Self.query(caller))
        #expect(response.status == 400, "\(caller)")
        #expect(response.body == Self.resolved(stack, caller), "\(caller)")
        #expect(response.body.hasPrefix(#"{"input":"#) && response.body.contains(#""error":"#), "\(caller)")
      }
      #expect(try server.curl("/v1/resolve").status == 400)
      #expect(try server.curl("/v1/resolve?number=%2").body.contains("two hex digits"))
      #expect(try server.curl("/v1/resolve?number=%FF").body.contains("not UTF-8"))
      #expect(try server.curl("/nowhere").status == 404)
      #expect(try server.curl("/healthz", ["-X", "DELETE"]).status == 405)
    }

    @Test func answersABatchInOrder() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      var lines = Self.callers.map { "{\"number\":\(JSONLine.quoted($0))}" }
      lines.insert("", at: 2)  // skipped
      lines.insert("not json", at: 4)
      lines.insert(#"{"caller":"+12025550100"}"#, at: 6)
      lines.insert(#"{"number":"abc"}"#, at: 8)
      let response = try server.curl("/v1/resolve", body: lines.joined(separator: "\r\n") + "\n")
      #expect(response.status == 200)
      var expected = Self.callers.map { Self.resolved(stack, $0) }
      expected.insert(#"{"input":"not json","error":"expected '{' (one JSON object a line)"}"#, at: 3)
      expected.insert(#"{"input":"{\"caller\":\"+12025550100\"}","error":"unknown member \"caller\" (expected number)"}"#, at: 5)
      expected.insert(Self.resolved(stack, "abc"), at: 7)
      #expect(response.body.split(separator: "\n").map(String.init) == expected)
      #expect(try server.curl("/v1/resolve", body: "").body == "")
      // A byte order mark before the first line is skipped, as pack skips it.
      let marked = try server.curl("/v1/resolve", body: "\u{FEFF}" + lines[0] + "\n")
      #expect(marked.body.split(separator: "\n").map(String.init) == [expected[0]])
      // `number` without `=` is `number=`: a withheld caller.
      #expect(try server.curl("/v1/resolve?number").body == server.curl("/v1/resolve?number=").body)
    }

    @Test func countsInMetrics() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      for caller in ["+12025550100", "+12025550102", "+12025550123", "anonymous", "abc"] {
        _ = try server.curl(Self.query(caller))
      }
      _ = try server.curl("/v1/resolve", body: #"{"number":"+12025550100"}"# + "\n" + #"{"number":"911"}"#)
      let metrics = try server.metrics()
      #expect(metrics[#"calldir_answers_total{action="block",reason="blocked"}"#] == 3)
      #expect(metrics[#"calldir_answers_total{action="identify",reason="identified"}"#] == 1)
      #expect(metrics[#"calldir_answers_total{action="allow",reason="withheld"}"#] == 1)
      #expect(metrics[#"calldir_answers_total{action="allow",reason="emergency"}"#] == 1)
      #expect(metrics[#"calldir_answers_total{action="allow",reason="notListed"}"#] == 0)
      #expect(metrics[#"calldir_unanswered_total{cause="invalid_number"}"#] == 1)
      #expect(metrics[#"calldir_http_requests_total{endpoint="/v1/resolve",code="200"}"#] == 5)
      #expect(metrics[#"calldir_http_requests_total{endpoint="/v1/resolve",code="400"}"#] == 1)
      // The page counts the requests before it: these six.
      #expect(metrics[#"calldir_http_request_duration_seconds_bucket{le="+Inf"}"#] == 6)
      #expect(metrics["calldir_http_request_duration_seconds_count"] == 6)
      #expect(metrics[#"calldir_reloads_total{directory="\#(stack.spam)"}"#] == 0)
      #expect(metrics[#"calldir_reload_failures_total{directory="\#(stack.spam)"}"#] == 0)
      #expect(try server.curl("/healthz").body == "ok")
      #expect(try server.curl("/readyz").body == "ready")
    }

    @Test func reloadsAVerifiedReplacementAndRefusesADamagedOne() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      let spam = #"calldir_reloads_total{directory="\#(stack.spam)"}"#
      let refused = #"calldir_reload_failures_total{directory="\#(stack.spam)"}"#
      // A damaged replacement, published by rename: refused, the previous version answers.
      var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: stack.spam)))
      bytes[bytes.count / 2] ^= 0xFF
      try Data(bytes).write(to: URL(fileURLWithPath: stack.scratch.path("damaged.calldir")))
      #expect(unsafe rename(stack.scratch.path("damaged.calldir"), stack.spam) == 0)
      #expect(try server.waitForMetric(refused, toReach: 1) == 1)
      #expect(try server.curl(Self.query("+12025550100")).body.contains(#""reason":"blocked""#))
      #expect(try server.metric(spam) == 0)
      // A valid one is served.
      try ResolverFixtures.write(stack.scratch.path("new.calldir"), blocking: [12_025_550_100, 12_025_550_177])
      #expect(unsafe rename(stack.scratch.path("new.calldir"), stack.spam) == 0)
      #expect(try server.waitForMetric(spam, toReach: 1) == 1)
      #expect(try server.curl(Self.query("+12025550177")).body.contains(#""reason":"blocked""#))
      let ended = server.terminate()
      #expect(ended.status == 0)
      #expect(ended.errors.contains("\(stack.spam): cannot reload: "))
      #expect(ended.errors.contains("\(stack.spam): reloaded"))
    }

    @Test func boundsRequests() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--max-request-bytes", "64"])
      let long = String(repeating: #"{"number":"+12025550100"}"# + "\n", count: 3)  // 78 bytes
      #expect(try server.curl("/v1/resolve", body: long).status == 413)
      // Without a length, the body is cut off where it passes the bound.
      #expect(try server.curl("/v1/resolve", ["-H", "Transfer-Encoding: chunked"], body: long).status == 413)
      // Past twice the bound, the connection is closed with no answer.
      let longer = String(repeating: "a", count: 1_000)
      #expect(try server.curl("/v1/resolve", ["-H", "Transfer-Encoding: chunked"], body: longer).status == 0)
      #expect(try server.curl("/v1/resolve", body: #"{"number":"+12025550100"}"#).status == 200)
      let headers = (1...65).flatMap { ["-H", "X-Header-\($0): 1"] }
      #expect(try server.curl("/healthz", headers).status == 431)
      #expect(try server.curl("/healthz", Array(headers.prefix(100))).status == 200)
      let huge = String(repeating: "a", count: 40_000)
      #expect(try server.curl("/healthz", ["-H", "X-Huge: \(huge)"]).status >= 400)
      #expect(try server.curl("/healthz").status == 200)
      // The service's own refusals are counted with the answers; the library's (the huge head) are not seen.
      let metrics = try server.metrics()
      #expect(metrics[#"calldir_http_requests_total{endpoint="/v1/resolve",code="413"}"#] == 2)
      #expect(metrics[#"calldir_http_requests_total{endpoint="/healthz",code="431"}"#] == 1)
    }

    /// A query of many parameters is answered at once: the library once stored each one in the
    /// connection's memory and, past a few hundred, sent nothing until the idle timeout.
    @Test func answersAQueryOfManyParameters() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--timeout", "60"])
      let padding = String(repeating: "&x=1", count: 3_000)
      let answer = try server.curl("/v1/resolve?number=%2B12025550100" + padding)
      #expect(answer.status == 200)
      #expect(answer.body == Self.resolved(stack, "+12025550100"))
      #expect(try server.curl("/v1/resolve?" + padding.dropFirst()).status == 400)
    }

    /// A lookup is answered while a long batch is still being answered, even with one thread:
    /// batches are handled on a thread of their own.
    @Test func answersALookupWhileABatchIsHandled() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--threads", "1", "--max-request-bytes", "4000000"])
      let line = #"{"number":"+12025550100"}"# + "\n"
      let lines = 3_900_000 / line.utf8.count  // about 150,000: seconds in a debug build
      let batch = try RawConnection(port: server.port)
      batch.send(
        "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
          + "Content-Length: \(lines * line.utf8.count)\r\n\r\n" + String(repeating: line, count: lines))
      usleep(200_000)  // the body is read, and the batch begun
      let lookup = try RawConnection(port: server.port)
      lookup.send("GET \(Self.query("+12025550100")) HTTP/1.1\r\nHost: x\r\n\r\n")
      let single = lookup.read(until: "}\n")
      #expect(single.hasPrefix("HTTP/1.1 200"))
      #expect(single.hasSuffix(Self.resolved(stack, "+12025550100") + "\n"))
      // The batch has not been answered yet, and then is, whole.
      #expect(batch.readArrived().isEmpty)
      let answers = batch.read()
      #expect(answers.hasPrefix("HTTP/1.1 200"))
      // Split as bytes: a String reads the head's CR LF as one character, which "\n" is not.
      #expect(answers.utf8.split(separator: UInt8(ascii: "\n")).filter { $0.first == UInt8(ascii: "{") }.count == lines)
    }

    /// Two body lengths, which a proxy in front could read otherwise than the service: 400.
    @Test func refusesABodyLengthGivenTwice() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      let body = #"{"number":"+12025550100"}"# + "\n"
      for framing in [
        "Content-Length: \(body.utf8.count)\r\nContent-Length: 3", "Content-Length: 3\r\ncontent-length: 3",
        "Content-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked",
      ] {
        let connection = try RawConnection(port: server.port)
        connection.send("POST /v1/resolve HTTP/1.1\r\nHost: x\r\n\(framing)\r\n\r\n\(body)")
        let answer = connection.read()
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(framing): \(answer)")
        #expect(answer.contains("length is given twice"), "\(framing)")
      }
      let connection = try RawConnection(port: server.port)
      connection.send("POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
      #expect(connection.read(until: "}\n").contains("200 OK"))
    }

    @Test func boundsConnections() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--max-connections", "2"])
      let held = try (0..<2).map { _ in try RawConnection(port: server.port) }
      for connection in held { connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") }
      for connection in held { #expect(connection.read(until: "ok\n").contains("200 OK")) }
      // A third waits in the system's listen queue, unanswered, while both are held...
      let third = try RawConnection(port: server.port)
      third.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      held[1].send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(held[1].read(until: "ok\n").contains("200 OK"))
      #expect(third.readArrived().isEmpty)
      // ... and is answered once one closes.
      held[0].send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(held[0].read().contains("200 OK"))
      #expect(third.read(until: "ok\n").contains("200 OK"))
    }

    @Test func closesASlowClient() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack, ["--timeout", "1"])
      // A client that sends half a request and stalls is closed by the server, with no answer;
      // the read below returns once it is.
      let slow = try RawConnection(port: server.port)
      slow.send("GET /v1/resolve?number=%2B12025550100 HTTP/1.1\r\nHost: x\r\n")
      #expect(!slow.read().contains("200 OK"))
      #expect(try server.curl("/healthz").status == 200)
    }

    @Test func sigtermLetsAnOpenRequestFinish() throws {
      let stack = try ResolverCLITests.Stack()
      let server = try Self.served(stack)
      let body = String(repeating: #"{"number":"+12025550100"}"# + "\n", count: 100)
      let connection = try RawConnection(port: server.port)
      connection.send(
        "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
      // The server has read the head: the request is open when the signal comes.
      #expect(connection.read(until: "\r\n\r\n").contains("100 Continue"))
      kill(server.process.processIdentifier, SIGTERM)
      connection.send(body)
      let answer = connection.read()
      #expect(answer.contains("200 OK"))
      #expect(answer.components(separatedBy: #""reason":"blocked""#).count == 101)
      let ended = server.terminate()
      #expect(ended.status == 0)
      #expect(ended.errors.contains("stopping"))
    }

    /// `.ci/pbx-kamailio`: a real Kamailio asks the service for each INVITE; only where Kamailio
    /// and sipsak are installed (Debian: kamailio, kamailio-utils-modules, sipsak).
    @Test(
      .enabled(if: ["/usr/sbin/kamailio", "/usr/bin/sipsak"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) })
    )
    func kamailioDeclinesABlockedCaller() throws {
      let script = Process()
      script.executableURL = URL(fileURLWithPath: "/bin/bash")
      script.arguments = [FuzzReplayTests.root.appendingPathComponent(".ci/pbx-kamailio").path, CalldirExecutable.path]
      let output = Pipe()
      script.standardOutput = output
      script.standardError = output
      try script.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      script.waitUntilExit()
      #expect(script.terminationStatus == 0, "\(text)")
      #expect(text.contains("+12025550100 -> SIP/2.0 603 Decline"), "\(text)")
    }

    @Test(arguments: [
      ["--listen", "1.2.3"], ["--listen", "::1:80"], ["--listen", "host:99999"], ["--max-connections", "0"], ["--threads", "x"],
      ["--installed-version", "-1"], [],
    ])
    func refusesBadUsage(_ options: [String]) {
      let result = calldirArguments(["serve"] + options + (options.isEmpty ? [] : ["x.calldir"]))
      #expect(result.status == 2, "\(result.error)")
      #expect(result.error.contains("calldir help serve"))
    }

    @Test func refusesAnAddressItCannotBind() throws {
      let stack = try ResolverCLITests.Stack()
      let result = calldirArguments(["serve", "--listen", "192.0.2.1:8053", stack.spam])
      #expect(result.status == 1)
      #expect(result.error.contains("cannot listen on 192.0.2.1:8053"))
    }
  }

  /// JSON string quoting for the tests' request lines.
  enum JSONLine {
    static func quoted(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
  }
#endif
