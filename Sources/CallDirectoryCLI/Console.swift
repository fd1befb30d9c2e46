import CallDirectorySystem

/// Where a command's input comes from and its output goes: the process's standard streams, or
/// buffers in tests.
package final class Console {
  /// Reads all of standard input.
  let readInput: () throws(SystemError) -> [UInt8]
  /// Reads the next bytes of standard input as they arrive, at most 64 KiB (a pipe's capacity,
  /// so one read takes whatever a pipe holds); empty at the end.
  let readChunk: () throws(SystemError) -> [UInt8]
  /// Writes bytes to standard output.
  let writeOutput: ([UInt8]) throws(SystemError) -> Void
  /// Writes text to standard error.
  let writeError: (String) -> Void
  /// Whether standard error is a terminal: summaries and progress are shown only then.
  let errorIsTerminal: Bool
  /// Whether standard output is a terminal.
  let outputIsTerminal: Bool
  /// Whether summaries are written even when standard error is not a terminal (`--verbose`).
  package var verbose = false
  /// Whether what goes to standard output is coloured.
  package var colorsOutput = false
  /// Whether what goes to standard error is coloured.
  package var colorsError = false

  /// A console over the given functions.
  ///
  /// - Parameters:
  ///   - readInput: reads all of standard input.
  ///   - readChunk: reads the next bytes of standard input, empty at the end; when not given,
  ///     what `readInput` returns is the one chunk. Line-by-line commands (`resolve`) read
  ///     through it, asking for the next chunk only when no whole line is left.
  ///   - writeOutput: writes bytes to standard output.
  ///   - writeError: writes text to standard error.
  ///   - errorIsTerminal: whether standard error is a terminal.
  ///   - outputIsTerminal: whether standard output is a terminal.
  package init(
    readInput: @escaping () throws(SystemError) -> [UInt8],
    readChunk: (() throws(SystemError) -> [UInt8])? = nil, writeOutput: @escaping ([UInt8]) throws(SystemError) -> Void,
    writeError: @escaping (String) -> Void,
    errorIsTerminal: Bool = false, outputIsTerminal: Bool = false
  ) {
    self.errorIsTerminal = errorIsTerminal
    self.outputIsTerminal = outputIsTerminal
    self.readInput = readInput
    if let readChunk {
      self.readChunk = readChunk
    } else {
      var delivered = false  // all of the input at once: the next chunk is its end
      self.readChunk = { () throws(SystemError) in
        if delivered { return [] }
        delivered = true
        return try readInput()
      }
    }
    self.writeOutput = writeOutput
    self.writeError = writeError
  }

  /// The process's standard input, output and error.
  ///
  /// Lines are read as they arrive, so a program that writes one line and waits for the answer
  /// gets it; output is written unbuffered, so every line is delivered when it is printed.
  package static func standard() -> Console {
    Console(
      readInput: { () throws(SystemError) in try FileDescriptor.standardInput.readAll() },
      readChunk: { () throws(SystemError) in try FileDescriptor.standardInput.readAvailable(maximum: 1 << 16) },
      writeOutput: { (bytes) throws(SystemError) in try FileDescriptor.standardOutput.writeAll(bytes) },
      writeError: { text in try? FileDescriptor.standardError.writeAll(Array(text.utf8)) },
      errorIsTerminal: FileDescriptor.standardError.isTerminal, outputIsTerminal: FileDescriptor.standardOutput.isTerminal)
  }

  /// Applies the global options: verbosity, and colour by `--color` and the environment.
  package func apply(_ options: GlobalOptions, environment: (String) -> String? = Environment.value) {
    verbose = options.verbose
    let variables = ["NO_COLOR", "TERM"].reduce(into: [String: String]()) { $0[$1] = environment($1) }
    colorsOutput = options.colors(terminal: outputIsTerminal, environment: variables)
    colorsError = options.colors(terminal: errorIsTerminal, environment: variables)
  }

  /// Writes a line of text to standard output.
  func print(_ line: String) throws(SystemError) {
    try writeOutput(Array((line + "\n").utf8))
  }

  /// Writes a one-line summary of finished work to standard error: at a terminal (quiet when
  /// piped, as scripts expect), or always with `--verbose`. Every command's summary goes through
  /// here, and a command's `--quiet` skips the call.
  func summary(_ line: String) {
    if errorIsTerminal || verbose { writeError(line + "\n") }
  }

  /// Writes a diagnostic line to standard error, prefixed with the program name.
  func diagnose(_ line: String) {
    writeError(Style.strong.apply("calldir:", enabled: colorsError) + " " + line + "\n")
  }

  /// Writes a problem report, `FILE: PROBLEM`, to standard error (where reports go, so that
  /// standard output keeps only results).
  func report(_ line: String) {
    writeError(line + "\n")
  }

  /// `text` in `style` when standard output is coloured.
  func styledOutput(_ text: String, _ style: Style) -> String { style.apply(text, enabled: colorsOutput) }
}

/// A console that keeps what commands write, for tests and embedding.
package final class CapturedConsole {
  /// What was written to standard output.
  package private(set) var output: [UInt8] = []
  /// What was written to standard error.
  package private(set) var error = ""
  /// What standard input holds.
  package var input: [UInt8]

  /// A capture with `input` as standard input.
  package init(input: [UInt8] = []) {
    self.input = input
  }

  /// The console writing into this capture.
  package var console: Console {
    Console(
      readInput: { () throws(SystemError) in self.input },
      writeOutput: { (bytes) throws(SystemError) in self.output.append(contentsOf: bytes) },
      writeError: { self.error += $0 })
  }

  /// Standard output as text.
  package var outputText: String { String(decoding: output, as: UTF8.self) }
}
