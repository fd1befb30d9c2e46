import CallDirectory
import CallDirectorySystem

/// `calldir resolve`: one answer line per number, from the arguments or, in the long-running
/// form, from standard input as the lines arrive.
///
/// Every directory is followed on disk: in the long-running form, before each line, a replaced
/// file is reopened (`Spec/RESOLUTION.md` section 5), and a replacement that cannot be opened is
/// reported once while the previous version keeps answering.
struct Resolve {
  let options: Command.ResolveOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let keys = try Keys.trusted(options.trust)
    let trust = TrustPolicy(trustedKeys: keys.map(\.0), installedVersion: options.installedVersion)
    var directories: [ReloadingDirectory] = []
    for directory in options.directories {
      do {
        // Checked between lines by `refresh()`, not on a timer: a query never waits on a stat.
        directories.append(try ReloadingDirectory(path: directory.path, checkInterval: nil, trust: trust))
      } catch {
        throw CommandFailure(opening: directory.path, error)
      }
    }
    let region = options.country.flatMap { NumberingPlan.shared.region(named: $0) }
    // The region's own emergency numbers join the set, unless the set is empty (`none`) on purpose.
    let emergency = region.map { options.emergency.codes.isEmpty ? options.emergency : options.emergency.adding(region: $0) }
    var resolver: Resolver
    do {
      resolver = try Resolver(
        sources: zip(options.directories, directories).map { option, directory in
          Resolver.Source(name: option.path, role: option.allowList ? .allowList : .standard, provider: directory)
        },
        emergencyNumbers: emergency ?? options.emergency,
        // The resolver takes a calling code: its main region's rules read national callers.
        defaultCountryCode: region?.callingCode)
    } catch {
      throw CommandFailure.usage("\(error)", command: "resolve")
    }
    resolver.blocksWithheld = options.blockWithheld

    var status = CLI.ExitCode.success
    if options.standardInput {
      // Lines are read as they come: a program that writes one and waits gets its answer.
      var lines = LineReader(name: "<stdin>", chunks: console.readChunk, maximumLineLength: LineReader.maximumCallerLineLength)
      while let line = try readLine(&lines) {
        for directory in directories { reload(directory) }
        if line.count > LineReader.maximumCallerLineLength {
          try refuseLongLine(line)
          status = CLI.ExitCode.failure
          continue
        }
        if try !answer(String(decoding: line, as: UTF8.self), resolver) { status = CLI.ExitCode.failure }
      }
    } else {
      for number in options.numbers where try !answer(number, resolver) { status = CLI.ExitCode.failure }
    }
    return status
  }

  /// Answers one caller string with one line.
  /// - Returns: whether it was answered (`false`: an invalid number or a damaged directory).
  /// - Throws: `CommandFailure` when the answer cannot be written.
  private func answer(_ text: String, _ resolver: Resolver) throws(CommandFailure) -> Bool {
    let line: String
    let resolved: Bool
    do {
      let resolution = try resolver.resolve(caller: text)
      line = options.json ? Self.json(text, resolution) : Self.text(resolution, colored: console.colorsOutput)
      resolved = true
    } catch {
      switch error {
      case .invalidNumber, .invalidCaller: console.diagnose("invalid number: \(error)")
      case .damagedDirectory: console.diagnose("cannot resolve \(oneLine(text)): \(error)")
      }
      line = errorLine(text, error.description)
      resolved = false
    }
    try write(line)
    return resolved
  }

  /// The answer to an input that has no answer: `INPUT<TAB>error<TAB>MESSAGE<TAB>`, or its JSON.
  private func errorLine(_ input: String, _ message: String) -> String {
    options.json
      ? JSON.render(.object([("input", .string(input)), ("error", .string(message))]))
      : [oneLine(input), "error", oneLine(message), ""].joined(separator: "\t")
  }

  /// Answers a line longer than any caller string with one error, quoting its start only
  /// (the reader has already dropped the rest of it).
  private func refuseLongLine(_ line: [UInt8]) throws(CommandFailure) {
    let message = "line longer than \(LineReader.maximumCallerLineLength) bytes"
    let start = String(String(decoding: line, as: UTF8.self).prefix(PhoneNumberError.quotedCharacters)) + "..."
    console.diagnose("cannot resolve \(oneLine(start)): \(message)")
    try write(errorLine(start, message))
  }

  private func write(_ line: String) throws(CommandFailure) {
    // When nobody reads the answers any more, stop, as a pipeline expects.
    do { try console.print(line) } catch { throw CommandFailure("cannot write: \(error.message)") }
  }

  /// Reloads `directory` if its file was replaced, saying so once when the new file fails.
  private func reload(_ directory: ReloadingDirectory) {
    switch directory.refresh() {
    case .unchanged: break
    case .reloaded: console.summary("\(directory.path): reloaded")
    case .failed(let error):
      let reason: String
      if case .system(let failure) = error { reason = failure.message } else { reason = error.description }
      console.diagnose("\(directory.path): cannot reload: \(reason); still answering from the previous version")
    }
  }

  private func readLine(_ lines: inout LineReader) throws(CommandFailure) -> [UInt8]? {
    do {
      return try lines.nextLine { (line) in
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.count)
        for index in line.indices { bytes.append(line[index]) }
        return bytes
      }
    } catch {
      guard case .unreadable(let message) = error.kind else { throw CommandFailure(error.description) }
      throw CommandFailure("cannot read standard input: \(message)")
    }
  }

  /// `NUMBER<TAB>ACTION<TAB>LABEL<TAB>DIRECTORY`, empty fields for no label or no directory.
  static func text(_ resolution: Resolution, colored: Bool = false) -> String {
    [
      number(resolution), resolution.action.style.apply(resolution.action.rawValue, enabled: colored),
      oneLine(resolution.label ?? ""),
      oneLine(resolution.directory?.name ?? ""),
    ].joined(separator: "\t")
  }

  /// `{"input":...,"number":...,"action":...,"label":...,"directory":...,"reason":...}`.
  static func json(_ input: String, _ resolution: Resolution) -> String {
    JSON.render(
      .object([
        ("input", .string(input)), ("number", resolution.reason == .withheld ? .null : .string(number(resolution))),
        ("action", .string(resolution.action.rawValue)), ("label", resolution.label.map { .string($0) } ?? .null),
        ("directory", resolution.directory.map { .string($0.name) } ?? .null),
        ("reason", .string(resolution.reason.rawValue)),
      ]))
  }

  /// The number as answers show it: `+` and the digits, or an emergency code as it was matched.
  static func number(_ resolution: Resolution) -> String {
    if let number = resolution.number { return formatInternational(number) }
    return resolution.emergencyCode ?? ""
  }

}
