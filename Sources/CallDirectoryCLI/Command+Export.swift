extension Command {
  /// What `export` reads and writes.
  package struct ExportOptions: Sendable, Equatable {
    /// The stack, top first, as `resolve` takes it: each directory and whether it is an allow list.
    package var directories: [ResolveOptions.Directory] = []
    /// The directory the datasets are written into (created when missing).
    package var output = ""
    /// `CallIdentity.cache_expiry_minutes` of every identity: how long a phone reuses an answer.
    package var cacheExpiryMinutes: UInt32 = 1_440
    /// `CallIdentity.category` of every identity: 0 unspecified, 1 person, 2 business.
    package var category: UInt32 = 0
    /// The most numbers the directories may hold once their ranges are expanded.
    package var maximumNumbers = 10_000_000

    /// Options with every default.
    package init() {}
  }

  /// The `--category` words and the `IdentityCategory` values they stand for.
  static let identityCategories: [(String, UInt32)] = [("unspecified", 0), ("person", 1), ("business", 2)]

  /// Parses `export`'s arguments: `--live-caller-id` (the one form written so far), the
  /// directories, `-o OUTDIR` and the identity's options.
  static func parseExport(_ arguments: ArraySlice<String>) throws(UsageError) -> Command {
    typealias Table = OptionTable<ExportState>
    var state = ExportState()
    let table = Table(
      command: "export",
      options: [
        Table.Option(names: ["--live-caller-id"], action: .flag { $0.liveCallerID = true }),
        Table.Option(
          names: ["--allow", "-a"], action: .value { $0.options.directories.append(.init(path: $1, allowList: true)) }),
        Table.Option(
          names: ["--output", "-o"],
          action: .value { (state, text) throws(UsageError) in
            guard !text.isEmpty, text != "-" else { throw UsageError("-o needs a directory to write into", command: "export") }
            state.options.output = text
          }),
        Table.Option(
          names: ["--cache-expiry"],
          action: .value { (state, text) throws(UsageError) in
            guard let minutes = UInt32(text) else {
              throw UsageError("--cache-expiry takes whole minutes, 0...\(UInt32.max), not \(text)", command: "export")
            }
            state.options.cacheExpiryMinutes = minutes
          }),
        Table.Option(
          names: ["--category"],
          action: .value { (state, text) throws(UsageError) in
            guard let category = identityCategories.first(where: { $0.0 == text.lowercased() }) else {
              throw UsageError("--category takes unspecified, person or business, not \(text)", command: "export")
            }
            state.options.category = category.1
          }),
        Table.Option(
          names: ["--max-numbers"],
          action: .value { (state, text) throws(UsageError) in
            guard let count = Int(text), count >= 1 else {
              throw UsageError("--max-numbers takes a whole number of at least 1, not \(text)", command: "export")
            }
            state.options.maximumNumbers = count
          }),
      ],
      positional: { $0.options.directories.append(.init(path: $1)) })
    guard try table.parse(arguments, into: &state) else { return .help(topic: "export") }
    guard state.liveCallerID else {
      throw UsageError("export needs the form to write: --live-caller-id", command: "export")
    }
    guard !state.options.directories.isEmpty else { throw UsageError("export needs at least one directory", command: "export") }
    guard !state.options.output.isEmpty else {
      throw UsageError("export needs a directory to write the datasets into: -o OUTDIR", command: "export")
    }
    if state.options.directories.contains(where: { $0.path == "-" }) {
      throw UsageError("export reads directory files, not standard input", command: "export")
    }
    return .export(state.options)
  }

  /// The state of `export`'s parse.
  private struct ExportState {
    var options = ExportOptions()
    var liveCallerID = false
  }
}
