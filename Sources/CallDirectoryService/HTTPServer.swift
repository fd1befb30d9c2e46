#if canImport(CMicroHTTPD)
  import CMicroHTTPD
  import CallDirectorySystem
  import Dispatch
  import Synchronization

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// An HTTP/1.1 server over GNU libmicrohttpd: the library's threads read and parse requests,
  /// this type bounds them and hands each whole request to a handler.
  ///
  /// The library's own thread pool polls the connections (`epoll` on Linux); the handler runs on
  /// those threads, several at once, which is why it is `Sendable`. A request with a body (a
  /// batch) is handled on a thread of its own instead, one at a time in the order they end, its
  /// connection suspended meanwhile: a batch of a million bytes takes a good part of a second,
  /// and a request without one (a lookup at call time) must never wait behind it. Nothing is
  /// parsed here by hand but the query string.
  ///
  ///     let server = try HTTPServer(address: .loopback, limits: ServerLimits()) { request in
  ///       .text(200, "ok")
  ///     }
  ///     print(server.port)
  ///     server.stop()
  package final class HTTPServer: Sendable {
    /// Answers one whole request.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Told of each request the server refuses itself, before its handler sees it (too many
    /// header lines, a body too long or its length given twice), with the status sent; the
    /// request has no body.
    package typealias Refusals = @Sendable (_ request: HTTPRequest, _ status: Int) -> Void

    let handler: Handler
    let refusals: Refusals
    let limits: ServerLimits
    /// Set once stopping has begun: answers then ask the client to close its connection.
    let draining = Atomic<Bool>(false)
    private let boundPort = Atomic<UInt16>(0)
    /// The running daemon (`struct MHD_Daemon *`); `nil` once stopped.
    private let daemon = Mutex<Daemon?>(nil)
    /// Handles the requests with a body, one at a time, off the library's threads.
    private let bodies = DispatchQueue(label: "calldir.http.bodies")
    /// The bytes of batch answers queued and not yet sent whole (``ServerLimits/maximumPendingAnswerBytes``).
    private let pendingAnswers = Atomic<Int>(0)

    /// Starts listening on `address` and answering with `handler`; `refusals` is told of the
    /// requests the server refuses itself.
    ///
    /// - Throws: ``ServerError`` when the address is not an IP address or cannot be bound.
    /// - Complexity: starts ``ServerLimits/threads`` threads, and one for requests with a body.
    package init(
      address: ListenAddress, limits: ServerLimits, refusals: @escaping Refusals = { _, _ in },
      handler: @escaping Handler
    ) throws(ServerError) {
      self.handler = handler
      self.refusals = refusals
      self.limits = limits
      // The daemon holds `self` unretained: `deinit` stops it first.
      let started = try unsafe Self.start(
        address: address, limits: limits, context: unsafe Unmanaged.passUnretained(self).toOpaque())
      boundPort.store(unsafe calldir_mhd_bound_port(started.pointer), ordering: .relaxed)
      daemon.withLock { $0 = started }
    }

    deinit { stop() }

    /// The port the server listens on (the one the system chose, when 0 was asked).
    package var port: UInt16 { boundPort.load(ordering: .relaxed) }

    /// The bytes of batch answers queued and not yet handed to the system whole.
    package var pendingAnswerBytes: Int { pendingAnswers.load(ordering: .relaxed) }

    /// The connections open now.
    package var connectionCount: Int {
      daemon.withLock { daemon in daemon.map { Int(unsafe calldir_mhd_connection_count($0.pointer)) } ?? 0 }
    }

    /// Stops gracefully: refuses new connections, lets the open ones finish their requests (each
    /// answer now closes its connection) for at most ``ServerLimits/drainSeconds``, then stops
    /// the threads. Calling it again does nothing.
    /// - Complexity: at most the drain time, checking every 20 ms.
    package func stop() {
      guard !draining.exchange(true, ordering: .relaxed) else { return }
      daemon.withLock { daemon in
        guard let daemon else { return }
        // The listening socket comes back to be closed by its owner.
        let listener = unsafe MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 { close(listener) }
      }
      // A drain of seconds in nanoseconds, added to an uptime in nanoseconds: neither wraps before
      // centuries of either.
      let deadline = MonotonicClock.nanoseconds() &+ UInt64(max(0, limits.drainSeconds)) &* 1_000_000_000
      // An idle keep-alive connection (a PBX's pool) keeps the count up until the deadline: the
      // library has no call that closes only the idle ones.
      while connectionCount > 0 && MonotonicClock.nanoseconds() < deadline { usleep(20_000) }
      // Stopping the library with a connection suspended is outside its contract: every body
      // handed over is handled, and its connection resumed, first. Each takes at most the time
      // one bounded body does.
      bodies.sync {}
      daemon.withLock { daemon in
        if let running = daemon { unsafe MHD_stop_daemon(running.pointer) }
        daemon = nil
      }
    }

    /// A started daemon's handle.
    @safe private struct Daemon: @unchecked Sendable {
      // Used only under `daemon`'s lock; libmicrohttpd's calls on a daemon are thread-safe.
      var pointer: OpaquePointer
    }

    /// Binds `address` and starts the library's threads.
    private static func start(
      address: ListenAddress, limits: ServerLimits, context: UnsafeMutableRawPointer
    ) throws(ServerError) -> Daemon {
      var flags =
        MHD_USE_AUTO.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_ITC.rawValue
        | MHD_ALLOW_SUSPEND_RESUME.rawValue
      if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
      let started: OpaquePointer?
      do {
        unsafe started = try unsafe address.withSocketAddress { (socketAddress) in
          unsafe calldir_mhd_start(
            flags, socketAddress, UInt32(clamping: limits.threads), UInt32(clamping: limits.maximumConnections),
            UInt32(clamping: limits.idleTimeoutSeconds), limits.connectionMemoryBytes,
            { context, connection, _, method, _, data, size, request in
              unsafe HTTPServer.access(context, connection, method, data, size, request)
            },
            { context, _, request, _ in unsafe HTTPServer.completed(context, request) },
            { _, uri, _ in unsafe HTTPServer.began(uri) },
            context)
        }
      }
      guard let started = unsafe started else {
        throw ServerError("cannot listen on \(address): \(unsafe String(cString: strerror(errno)))")
      }
      return unsafe Daemon(pointer: started)
    }
  }

  /// The state of one request between the library's calls: its target, its body so far, and
  /// when it began.
  private final class Exchange {
    let target: String
    let began = MonotonicClock.nanoseconds()
    var body: [UInt8] = []
    var headChecked = false
    /// The body's bytes so far, those dropped included.
    var received = 0
    /// Set when the request went to the body thread, whose answer comes back in `answer`.
    var handedOver = false
    /// The bytes of its batch answer counted as pending until the request is over.
    var pendingBytes = 0
    let answer = Handover()
    init(target: String) { self.target = target }
  }

  /// A request with a body on its way between the body thread and the library's: the answer the
  /// body thread made, taken by the library's thread once the connection is resumed.
  private final class Handover: Sendable {
    private let response = Mutex<HTTPResponse?>(nil)
    func put(_ made: HTTPResponse) { response.withLock { $0 = made } }
    func take() -> HTTPResponse? { response.withLock { $0.take() } }
  }

  /// A suspended connection (`struct MHD_Connection *`), resumed from the body thread: the
  /// library allows a resume from any thread.
  @safe private struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
  }

  extension HTTPServer {
    /// The request line is read: its state is made, and the library keeps it for the request.
    fileprivate static func began(_ uri: UnsafePointer<CChar>?) -> UnsafeMutableRawPointer? {
      let target = unsafe uri.map { unsafe String(cString: $0) } ?? "/"
      unsafe calldir_mhd_leave_query_unparsed(uri)
      return unsafe Unmanaged.passRetained(Exchange(target: target)).toOpaque()
    }

    /// The request is over (answered, or its connection lost): its state is released, and its
    /// answer no longer counts as pending.
    fileprivate static func completed(
      _ context: UnsafeMutableRawPointer?, _ request: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) {
      guard let request = unsafe request, let state = unsafe request.pointee else { return }
      let exchange = unsafe Unmanaged<Exchange>.fromOpaque(state)
      if let context = unsafe context, unsafe exchange.takeUnretainedValue().pendingBytes > 0 {
        let server = unsafe Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
        server.pendingAnswers.subtract(unsafe exchange.takeUnretainedValue().pendingBytes, ordering: .relaxed)
      }
      unsafe exchange.release()
      unsafe request.pointee = nil
    }

    /// The library's access handler: called once the headers are read, once per piece of the
    /// body, and once more at its end, which is when the handler answers.
    fileprivate static func access(
      _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ method: UnsafePointer<CChar>?,
      _ data: UnsafePointer<CChar>?, _ size: UnsafeMutablePointer<Int>?,
      _ request: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
    ) -> MHD_Result {
      guard let context = unsafe context, let connection = unsafe connection, let size = unsafe size,
        let state = unsafe request?.pointee
      else { return .NO }
      let server = unsafe Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
      let exchange = unsafe Unmanaged<Exchange>.fromOpaque(state).takeUnretainedValue()
      let limits = server.limits
      if exchange.handedOver {
        // Called again once resumed: the body thread's answer is there, pending until sent.
        guard let response = exchange.answer.take() else { return .NO }
        exchange.pendingBytes = response.body.count
        server.pendingAnswers.add(response.body.count, ordering: .relaxed)
        return unsafe server.queue(response, on: connection)
      }
      if !exchange.headChecked {
        exchange.headChecked = true
        // Refused before any of the body is read: the connection closes after the answer.
        if unsafe MHD_get_connection_values(connection, .HEADER_KIND, nil, nil) > limits.maximumHeaderCount {
          return unsafe server.refuse(
            .text(431, "more than \(limits.maximumHeaderCount) header lines"), exchange, method, on: connection)
        }
        // Framing another server in front could read otherwise (RFC 9112 section 6.3): two lengths,
        // or a length beside a transfer coding, is how one request is smuggled inside another.
        let lengths = unsafe calldir_mhd_header_count(connection, "Content-Length")
        let codings = unsafe calldir_mhd_header_count(connection, "Transfer-Encoding")
        if lengths > 1 || (lengths == 1 && codings > 0) {
          return unsafe server.refuse(
            .text(400, "the body's length is given twice (Content-Length with another length or a Transfer-Encoding)"),
            exchange, method, on: connection)
        }
        if let length = unsafe MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
          let declared = unsafe UInt64(String(cString: length)), declared > UInt64(limits.maximumBodyBytes)
        {
          return unsafe server.refuse(tooLong(limits), exchange, method, on: connection)
        }
        return .YES
      }
      let count = unsafe size.pointee
      if count > 0 {
        // A body sent without a length (chunked) is bounded here instead. The library sends an
        // answer only once the body has ended, so the excess is read and dropped for the 413,
        // up to as many bytes again; past that the connection is closed with no answer.
        // At most twice the bound (at most 2 GiB) plus one read: cannot overflow.
        exchange.received += count
        if exchange.received > limits.maximumBodyBytes {
          exchange.body = []
          if exchange.received / 2 > limits.maximumBodyBytes { return .NO }
        } else if let data = unsafe data {
          unsafe exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
        unsafe size.pointee = 0
        return .YES
      }
      if exchange.received > limits.maximumBodyBytes {
        return unsafe server.refuse(tooLong(limits), exchange, method, on: connection)
      }
      var request = HTTPRequest(
        method: unsafe method.map { unsafe String(cString: $0) } ?? "", target: exchange.target, body: exchange.body)
      request.receivedAt = exchange.began
      exchange.body = []
      guard !request.body.isEmpty else { return unsafe server.queue(server.handler(request), on: connection) }
      let pending = server.pendingAnswers.load(ordering: .relaxed)
      if pending > limits.maximumPendingAnswerBytes {
        var busy = HTTPResponse.text(503, "busy: \(pending) bytes of batch answers are still being sent; retry later")
        busy.headers.append(.init(name: "Retry-After", value: "1"))
        return unsafe server.refuse(busy, exchange, method, on: connection)
      }
      exchange.handedOver = true
      let answer = exchange.answer
      let handed = request
      let suspended = unsafe SuspendedConnection(pointer: connection)
      unsafe MHD_suspend_connection(connection)
      server.bodies.async {
        answer.put(server.handler(handed))
        unsafe MHD_resume_connection(suspended.pointer)
      }
      return .YES
    }

    /// Sends the server's own refusal of the request `exchange` holds, and tells `refusals`.
    private func refuse(
      _ response: HTTPResponse, _ exchange: Exchange, _ method: UnsafePointer<CChar>?, on connection: OpaquePointer
    ) -> MHD_Result {
      var request = HTTPRequest(method: unsafe method.map { unsafe String(cString: $0) } ?? "", target: exchange.target)
      request.receivedAt = exchange.began
      refusals(request, response.status)
      return unsafe queue(response, on: connection)
    }

    private static func tooLong(_ limits: ServerLimits) -> HTTPResponse {
      .text(413, "request body longer than \(limits.maximumBodyBytes) bytes")
    }

    /// Hands `response` to the library, which copies it and sends it when the socket is ready.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
      let made = unsafe response.body.withUnsafeBytes { bytes in
        unsafe MHD_create_response_from_buffer(
          bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
      }
      guard let made = unsafe made else { return .NO }
      defer { unsafe MHD_destroy_response(made) }
      _ = unsafe MHD_add_response_header(made, "Content-Type", response.contentType)
      for header in response.headers { _ = unsafe MHD_add_response_header(made, header.name, header.value) }
      if draining.load(ordering: .relaxed) { _ = unsafe MHD_add_response_header(made, "Connection", "close") }
      return unsafe MHD_queue_response(connection, UInt32(clamping: response.status), made)
    }
  }
#endif

/// A server that cannot start.
package struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why, with the address.
  package var description: String
  /// An error saying `description`.
  package init(_ description: String) { self.description = description }
}

#if !canImport(CMicroHTTPD)
  /// Where libmicrohttpd is not built (Apple platforms): a server that never starts.
  package final class HTTPServer: Sendable {
    /// Answers one whole request.
    package typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Told of each request the server refuses itself.
    package typealias Refusals = @Sendable (_ request: HTTPRequest, _ status: Int) -> Void

    /// Always throws: the service is built on Linux only.
    /// - Throws: ``ServerError`` saying so.
    package init(
      address: ListenAddress, limits: ServerLimits, refusals: @escaping Refusals = { _, _ in },
      handler: @escaping Handler
    ) throws(ServerError) {
      throw ServerError("calldir serve is built with libmicrohttpd, on Linux only")
    }

    /// No port.
    package var port: UInt16 { 0 }

    /// Nothing to stop.
    package func stop() {}
  }
#endif
