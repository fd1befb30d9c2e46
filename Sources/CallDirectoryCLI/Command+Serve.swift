import CallDirectory
import CallDirectoryService

extension Command {
  /// What `serve` answers from and how it listens.
  package struct ServeOptions: Sendable, Equatable {
    /// The stack and how callers are read, as `resolve` takes them (`numbers` stays empty).
    package var resolve = ResolveOptions()
    /// Where to listen; loopback unless told otherwise.
    package var listen = ListenAddress.loopback
    /// The server's bounds.
    package var limits = ServerLimits()

    /// The defaults.
    package init() {}
  }

  /// Parses `serve`'s arguments: every positional is a directory.
  static func parseServe(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    typealias Table = OptionTable<ServeState>
    var state = ServeState()
    let table = Table(
      command: "serve",
      options: [
        Table.Option(
          names: ["--allow", "-a"],
          action: .value { $0.options.resolve.directories.append(.init(path: $1, allowList: true)) }),
        Table.Option(
          names: ["--listen", "-l"],
          action: .value { (state, text) throws(UsageError) in
            do { state.options.listen = try ListenAddress(parsing: text) } catch {
              throw UsageError("--listen takes ADDR:PORT, [IPV6]:PORT or PORT: \(error)", command: "serve")
            }
          }),
        Table.Option(
          names: ["--country", "-c"],
          action: .value { (state, text) throws(UsageError) in
            state.options.resolve.country = try countryRegion(text, command: "serve")
          }),
        Table.Option(names: ["--emergency"], action: .value { $0.emergency.append($1) }),
        Table.Option(names: ["--block-withheld"], action: .flag { $0.options.resolve.blockWithheld = true }),
        Table.Option(names: ["--trust"], action: .value { $0.options.resolve.trust.append($1) }),
        Table.Option(
          names: ["--installed-version"],
          action: .value { (state, text) throws(UsageError) in
            state.options.resolve.installedVersion = try listVersion(text, command: "serve")
          }),
        Table.Option(
          names: ["--max-connections"],
          action: .value { (state, text) throws(UsageError) in
            state.options.limits.maximumConnections = try bound(text, "--max-connections", 1...65_536)
          }),
        Table.Option(
          names: ["--max-request-bytes"],
          action: .value { (state, text) throws(UsageError) in
            state.options.limits.maximumBodyBytes = try bound(text, "--max-request-bytes", 0...(1 << 30))
          }),
        Table.Option(
          names: ["--threads"],
          action: .value { (state, text) throws(UsageError) in
            state.options.limits.threads = try bound(text, "--threads", 1...256)
          }),
        Table.Option(
          names: ["--timeout"],
          action: .value { (state, text) throws(UsageError) in
            state.options.limits.idleTimeoutSeconds = try bound(text, "--timeout", 1...3_600)
          }),
      ],
      positional: { $0.options.resolve.directories.append(.init(path: $1)) })
    guard try table.parse(arguments, into: &state) else { return .help(topic: "serve") }
    var options = state.options
    if !state.emergency.isEmpty { options.resolve.emergency = try emergencyNumbers(state.emergency, command: "serve") }
    guard !options.resolve.directories.isEmpty else {
      throw UsageError("serve needs at least one directory file", command: "serve")
    }
    return .serve(options)
  }

  /// The state of `serve`'s parse: the options, and each `--emergency`'s text, joined at the end.
  private struct ServeState {
    var options = ServeOptions()
    var emergency: [String] = []
  }

  /// A whole number in `range`, for `option`.
  private static func bound(_ text: String, _ option: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \(text)", command: "serve")
    }
    return value
  }
}
