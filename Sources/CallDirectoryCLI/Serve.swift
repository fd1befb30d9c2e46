import CallDirectory
import CallDirectoryService
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `calldir serve`: the resolver as an HTTP service (`ResolveService`), until SIGTERM or SIGINT.
///
/// Once a second the main thread checks every directory for a replacement, verifies it and swaps
/// it in (`Spec/RESOLUTION.md` section 5), counting reloads and refusals for `/metrics`; queries
/// never wait on that check. On SIGTERM, `/readyz` turns 503, the listening socket closes, and
/// open requests finish before the process exits 0.
struct Serve {
  let options: Command.ServeOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let (directories, resolver) = try ResolverStack.open(options.resolve, command: "serve")
    let metrics = ServiceMetrics(directories: options.resolve.directories.map(\.path))
    let format = ResolveService.AnswerFormat(
      answer: { input, resolution in Resolve.json(input, resolution) },
      error: { input, message in JSON.render(.object([("input", .string(input)), ("error", .string(message))])) })
    let service = ResolveService(resolver: resolver, format: format, metrics: metrics)

    // A client that hangs up mid-answer must not end the process (the library sends with
    // MSG_NOSIGNAL where it can; this covers the rest).
    signal(SIGPIPE, SIG_IGN)
    // The signals are waited for here, not handled on whichever thread they interrupt.
    let stopping = DispatchSemaphore(value: 0)
    let sources = [SIGTERM, SIGINT].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { stopping.signal() }
      source.resume()
      return source
    }
    defer { for source in sources { source.cancel() } }

    let server: HTTPServer
    do {
      server = try HTTPServer(address: options.listen, limits: options.limits, refusals: service.count) { request in
        service.respond(to: request)
      }
    } catch {
      throw CommandFailure(error.description)
    }
    var bound = options.listen
    bound.port = server.port
    let count = directories.count
    console.writeError("calldir: serving \(count) \(count == 1 ? "directory" : "directories") on http://\(bound)\n")

    while stopping.wait(timeout: .now() + .seconds(1)) == .timedOut {
      for (index, directory) in directories.enumerated() { reload(directory, index: index, metrics: metrics) }
    }
    service.beginStopping()
    console.writeError("calldir: stopping: finishing open requests\n")
    server.stop()
    return CLI.ExitCode.success
  }

  /// Reloads `directory` if its file was replaced, saying so, and counting it.
  private func reload(_ directory: ReloadingDirectory, index: Int, metrics: ServiceMetrics) {
    switch directory.refresh() {
    case .unchanged: break
    case .reloaded:
      metrics.recordReload(directory: index, failed: false)
      console.writeError("calldir: \(directory.path): reloaded\n")
    case .failed(let error):
      metrics.recordReload(directory: index, failed: true)
      let reason: String
      if case .system(let failure) = error { reason = failure.message } else { reason = error.description }
      console.diagnose("\(directory.path): cannot reload: \(reason); still answering from the previous version")
    }
  }
}
