#if canImport(Glibc)
  import CallDirectoryService
  import Foundation
  import Glibc
  import Testing

  /// The server's bound on batch answers made and not yet sent (`Spec/RESOLUTION.md` section 8):
  /// a client that does not read its answer holds it in the server's memory, and a batch's answer
  /// is tens of times its body, so past the bound a new batch is answered 503 until it is sent.
  @Suite(.serialized) struct ServeBacklogTests {
    /// Every batch answered with 24 MiB, more than loopback's socket buffers take at once.
    static let answerBytes = 24 << 20

    @Test func aBatchWaitsWhileAnswersAreUnread() throws {
      var limits = ServerLimits()
      limits.maximumPendingAnswerBytes = 1 << 20
      limits.idleTimeoutSeconds = 60
      let answer = [UInt8](repeating: UInt8(ascii: "a"), count: Self.answerBytes)
      let server = try HTTPServer(address: .loopback, limits: limits) { request in
        request.body.isEmpty
          ? .text(200, "ok") : HTTPResponse(status: 200, contentType: "application/jsonl", body: answer)
      }
      defer { server.stop() }
      let port = Int(server.port)
      let batch = "POST /v1/resolve HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
      // A client that reads nothing: its answer stays with the server, past the bound.
      let stalled = try RawConnection(port: port)
      stalled.send(batch)
      var waited = 0
      while server.pendingAnswerBytes == 0 && waited < 1_000 {
        usleep(10_000)
        waited += 1
      }
      #expect(server.pendingAnswerBytes == Self.answerBytes)
      let refused = try RawConnection(port: port)
      refused.send(batch)
      let busy = refused.read(until: "retry later\n")
      #expect(busy.hasPrefix("HTTP/1.1 503") && busy.contains("Retry-After: 1"), "\(busy.prefix(200))")
      // Lookups are not batches: answered all the while.
      let lookup = try RawConnection(port: port)
      lookup.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(lookup.read(until: "ok\n").hasPrefix("HTTP/1.1 200"))
      // Once the answer is read whole, batches are taken again.
      var received = 0
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while received < Self.answerBytes {
        let count = unsafe buffer.withUnsafeMutableBytes { unsafe recv(stalled.socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += count
      }
      #expect(received >= Self.answerBytes)
      waited = 0
      while server.pendingAnswerBytes > 0 && waited < 1_000 {
        usleep(10_000)
        waited += 1
      }
      #expect(server.pendingAnswerBytes == 0)
      let taken = try RawConnection(port: port)
      taken.send(batch)
      let head = taken.read(until: "\r\n\r\n")
      #expect(head.hasPrefix("HTTP/1.1 200"), "\(head.prefix(200))")
    }
  }
#endif
