import CallDirectory

/// `calldir resolve`'s answer lines, written straight into bytes (`Spec/RESOLUTION.md` section 7):
/// a pipe answering a million lines a second has no time to build strings for them.
///
///     var output: [UInt8] = []
///     AnswerLine.appendText(resolution, to: &output)
///     // "+12025550100\tblock\tSpam Risk\tspam.calldir\n"
///
/// Every text field goes through the rules of `oneLine(_:)` and every JSON string through
/// RFC 8259 escaping as `JSON` writes it, byte for byte: in valid UTF-8 a byte below 0x80 is
/// always a whole scalar, so replacing or escaping bytes is replacing or escaping scalars.
enum AnswerLine {
  /// Appends `NUMBER<TAB>ACTION<TAB>LABEL<TAB>DIRECTORY` and an LF, with empty fields for no
  /// label or no directory; the action in its colour when `colored` (`--color`). O(length of
  /// the line).
  static func appendText(_ resolution: Resolution, colored: Bool = false, to output: inout [UInt8]) {
    appendNumber(resolution, to: &output)
    output.append(0x09)
    if colored {
      output += resolution.action.style.apply(resolution.action.rawValue, enabled: true).utf8
    } else {
      append(Fragment.word(resolution.action), to: &output)
    }
    output.append(0x09)
    if let label = resolution.label { appendField(label, to: &output) }
    output.append(0x09)
    if let directory = resolution.directory { appendField(directory.name, to: &output) }
    output.append(0x0A)
  }

  /// Appends `{"input":...,"number":...,"action":...,"label":...,"directory":...,"reason":...}`
  /// and an LF; `input` must be valid UTF-8. O(length of the line).
  static func appendJSON(input: some Collection<UInt8>, _ resolution: Resolution, to output: inout [UInt8]) {
    append(Fragment.input, to: &output)
    appendJSONString(input, to: &output)
    if resolution.reason == .withheld {
      append(Fragment.nullNumber, to: &output)
    } else {
      append(Fragment.number, to: &output)
      appendNumber(resolution, to: &output)  // `+` and digits, or an emergency code: nothing to escape
      output.append(0x22)
    }
    append(Fragment.action, to: &output)
    append(Fragment.word(resolution.action), to: &output)
    append(Fragment.label, to: &output)
    if let label = resolution.label {
      appendJSONString(label.utf8, to: &output)
    } else {
      append(Fragment.null, to: &output)
    }
    append(Fragment.directory, to: &output)
    if let directory = resolution.directory {
      appendJSONString(directory.name.utf8, to: &output)
    } else {
      append(Fragment.null, to: &output)
    }
    append(Fragment.reason, to: &output)
    append(Fragment.word(resolution.reason), to: &output)
    append(Fragment.end, to: &output)
  }

  /// The fixed pieces of an answer. Static strings, appended from their bytes in the binary:
  /// appending a literal's `utf8`, or an array held in a static, a line costs more than the rest
  /// of the line.
  private enum Fragment {
    static let input: StaticString = #"{"input":"#
    static let number: StaticString = #","number":""#
    static let nullNumber: StaticString = #","number":null"#
    static let action: StaticString = #","action":""#
    static let label: StaticString = #"","label":"#
    static let directory: StaticString = #","directory":"#
    static let reason: StaticString = #","reason":""#
    static let end: StaticString = "\"}\n"
    static let null: StaticString = "null"

    /// The action's raw value.
    static func word(_ action: Resolution.Action) -> StaticString {
      switch action {
      case .block: "block"
      case .identify: "identify"
      case .allow: "allow"
      }
    }

    /// The reason's raw value.
    static func word(_ reason: Resolution.Reason) -> StaticString {
      switch reason {
      case .emergency: "emergency"
      case .allowListed: "allowListed"
      case .blocked: "blocked"
      case .identified: "identified"
      case .notListed: "notListed"
      case .withheld: "withheld"
      }
    }
  }

  /// Appends the bytes of `text`.
  private static func append(_ text: StaticString, to output: inout [UInt8]) {
    // A static string's bytes live in the binary for the whole run.
    text.withUTF8Buffer { unsafe output.append(contentsOf: $0) }
  }

  /// The number as answers show it: `+` and the digits, or an emergency code as it was matched
  /// (ASCII digits), or nothing for a withheld caller.
  private static func appendNumber(_ resolution: Resolution, to output: inout [UInt8]) {
    if let number = resolution.number {
      output.appendInternational(number)
    } else if let code = resolution.emergencyCode {
      output.append(contentsOf: code.utf8)
    }
  }

  /// Appends a text field: each control character (below 0x20, or 0x7F) as a space, as
  /// `oneLine(_:)` has it.
  private static func appendField(_ text: String, to output: inout [UInt8]) {
    // Copied whole (a native string's bytes are contiguous), then the rare control bytes fixed.
    let start = output.count
    if unsafe text.utf8.withContiguousStorageIfAvailable({ unsafe output.append(contentsOf: $0) }) == nil {
      output.append(contentsOf: text.utf8)
    }
    for index in start..<output.count where output[index] < 0x20 || output[index] == 0x7F { output[index] = 0x20 }
  }

  /// Appends a JSON string: quotes, backslashes and control characters below 0x20 escaped, the
  /// rest as it is.
  private static func appendJSONString(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
    output.append(0x22)
    // Most strings need no escape: copied whole, then escaped from the first byte that does.
    let start = output.count
    output.append(contentsOf: bytes)
    if let first = output[start...].firstIndex(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      let rest = Array(output[first...])
      output.removeSubrange(first...)
      for byte in rest { appendEscaped(byte, to: &output) }
    }
    output.append(0x22)
  }

  private static func appendEscaped(_ byte: UInt8, to output: inout [UInt8]) {
    switch byte {
    case 0x22: output.append(contentsOf: #"\""#.utf8)
    case 0x5C: output.append(contentsOf: #"\\"#.utf8)
    case 0x0A: output.append(contentsOf: #"\n"#.utf8)
    case 0x0D: output.append(contentsOf: #"\r"#.utf8)
    case 0x09: output.append(contentsOf: #"\t"#.utf8)
    case ..<0x20:
      output.append(contentsOf: #"\u00"#.utf8)
      output.append(hexDigit(byte >> 4))
      output.append(hexDigit(byte & 0x0F))
    default: output.append(byte)
    }
  }

  /// The lowercase hex digit of `value` (0 ... 15), as `String(_:radix:)` writes it.
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? 0x30 &+ value : 0x61 &+ (value &- 10)  // value <= 15: no wrap
  }
}
