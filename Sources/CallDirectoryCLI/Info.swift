import CallDirectory
import CallDirectorySystem

/// `calldir info`: what is inside a file and what each part costs.
struct Info {
  let file: String
  let json: Bool
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let reader = try Inputs.openDirectory(file, console: console)
    let summary: DirectorySummary
    let content: ContentSummary
    do {
      summary = try DirectorySummary(reader)
      content = try ContentSummary(reader, labels: true)
    } catch {
      throw CommandFailure("\(Inputs.displayName(file)): \(error)")
    }
    let text = json ? JSON.render(Self.json(summary, content, file: file)) : Self.text(summary, content, file: file)
    do { try console.print(text) } catch { throw CommandFailure("cannot write: \(error.message)") }
    return CLI.ExitCode.success
  }

  /// The summary's lines, then the top labels and the countries.
  static func text(_ summary: DirectorySummary, _ content: ContentSummary, file: String) -> String {
    var lines = [summary.text(file: file)]
    let labels = content.topLabels()
    if !labels.isEmpty {
      lines.append("top labels:")
      let width = labels.map { String($0.entries).count }.max() ?? 1
      for row in labels { lines.append("  " + pad(String(row.entries), width) + "  " + oneLine(row.label)) }
    }
    let countries = content.countries
    if !countries.isEmpty {
      lines.append("countries (by calling code):")
      let width = countries.map { String($0.entries).count }.max() ?? 1
      for row in countries {
        let code = "+\(row.code)"
        lines.append(
          "  " + code + String(repeating: " ", count: max(0, 5 - code.count)) + pad(String(row.entries), width)
            + "  " + pad(content.percent(row.entries), 6))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The summary's keys (kept, as scripts read them), then `topLabels` and `countries`.
  static func json(_ summary: DirectorySummary, _ content: ContentSummary, file: String) -> JSON.Value {
    guard case .object(var members) = summary.json(file: file) else { return summary.json(file: file) }
    members.append(("topLabels", content.topLabelsJSON))
    members.append(("countries", content.countriesJSON))
    return .object(members)
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}

/// The figures `info` shows: the reader's statistics (no block is decoded except the last of
/// each kind, for its last number).
struct DirectorySummary {
  typealias Kind = DirectoryStatistics.Kind

  var version: (UInt16, UInt16)
  var size: Int
  var blocking: Kind
  var identification: Kind
  var labels: Int
  var labelBlocks: Int
  var sections: [DirectoryStatistics.Section]
  var listVersion: UInt64 = 0
  /// The key id of the signature, if any: shown, not checked (verify --trust checks).
  var signer: String?

  init(_ reader: CallDirectoryReader) throws(FormatError) {
    let statistics = try reader.statistics()
    version = statistics.version
    size = statistics.fileSize
    blocking = statistics.blocking
    identification = statistics.identification
    labels = statistics.labelCount
    labelBlocks = statistics.labelBlocks
    sections = statistics.sections
    listVersion = statistics.listVersion
    signer = statistics.signer?.id
  }

  /// Whether the label blocks are prefix-coded (`LPFX`, format 2.3).
  var prefixCodedLabels: Bool { sections.contains { $0.type == "LPFX" } }

  var bytesPerEntry: Double {
    let entries = blocking.entries + identification.entries
    return entries == 0 ? 0 : Double(size) / Double(entries)
  }

  func text(file: String) -> String {
    var lines = [
      "file:            \(Inputs.displayName(file))",
      "format version:  \(version.0).\(version.1)",
      "list version:    \(listVersion)",
      "signature:       " + (signer.map { "by key \($0) (not checked here: calldir verify --trust KEY.pub)" } ?? "none"),
      "size:            \(counted(size, "byte"))",
      "blocking:        \(describe(blocking))",
      "identification:  \(describe(identification))",
      "labels:          \(labels) distinct, in \(counted(labelBlocks, prefixCodedLabels ? "prefix-coded block" : "block"))",
      "bytes per entry: \(format(bytesPerEntry))",
      "sections:",
    ]
    for section in sections {
      lines.append("  \(section.type)  \(pad(String(section.length), 10)) bytes at \(section.offset)")
    }
    return lines.joined(separator: "\n")
  }

  func json(file: String) -> JSON.Value {
    func kind(_ kind: Kind) -> JSON.Value {
      .object([
        ("entries", .int(kind.entries)), ("blocks", .int(kind.blocks)), ("entriesPerBlock", .int(kind.entriesPerBlock)),
        ("deflatedBlocks", .int(kind.deflatedBlocks)), ("ranges", .int(kind.ranges)),
        ("rangeNumbers", .int(kind.rangeNumbers)),
        ("first", kind.first.map { .string(formatInternational($0)) } ?? .null),
        ("last", kind.last.map { .string(formatInternational($0)) } ?? .null),
      ])
    }
    return .object([
      ("file", .string(Inputs.displayName(file))), ("version", .string("\(version.0).\(version.1)")),
      ("listVersion", .unsigned(listVersion)), ("signer", signer.map { .string($0) } ?? .null), ("size", .int(size)),
      ("blocking", kind(blocking)), ("identification", kind(identification)),
      (
        "labels",
        .object([("count", .int(labels)), ("blocks", .int(labelBlocks)), ("prefixCoded", .bool(prefixCodedLabels))])
      ),
      ("bytesPerEntry", .double((bytesPerEntry * 1000).rounded() / 1000)),
      (
        "sections",
        .array(
          sections.map {
            .object([("type", .string($0.type)), ("offset", .int(Int($0.offset))), ("length", .int(Int($0.length)))])
          })
      ),
    ])
  }

  private func describe(_ kind: Kind) -> String {
    // Version 2 blocks hold up to B entries (they end early at wide gaps); version 1 blocks exactly B.
    var text =
      "\(counted(kind.entries, "entry", "entries")) in \(counted(kind.blocks, "block")) of at most \(kind.entriesPerBlock)"
    if kind.deflatedBlocks > 0 { text += " (\(kind.deflatedBlocks) deflated)" }
    if let first = kind.first, let last = kind.last { text += ", \(formatInternational(first)) to \(formatInternational(last))" }
    if kind.ranges > 0 { text += "; \(counted(kind.ranges, "range")) covering \(counted(kind.rangeNumbers, "number"))" }
    return text
  }

  private func format(_ value: Double) -> String {
    let scaled = Int((value * 1000).rounded())
    let fraction = String(scaled % 1000)
    return "\(scaled / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }

  private func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
