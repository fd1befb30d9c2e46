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
  /// label or no directory. O(length of the line).
  static func appendText(_ resolution: Resolution, to output: inout [UInt8]) {
    appendNumber(resolution, to: &output)
    output.append(0x09)
    output.append(contentsOf: resolution.action.rawValue.utf8)
    output.append(0x09)
    if let label = resolution.label { appendField(label.utf8, to: &output) }
    output.append(0x09)
    if let directory = resolution.directory { appendField(directory.name.utf8, to: &output) }
    output.append(0x0A)
  }

  /// Appends `{"input":...,"number":...,"action":...,"label":...,"directory":...,"reason":...}`
  /// and an LF; `input` must be valid UTF-8. O(length of the line).
  static func appendJSON(input: some Collection<UInt8>, _ resolution: Resolution, to output: inout [UInt8]) {
    output.append(contentsOf: #"{"input":"#.utf8)
    appendJSONString(input, to: &output)
    output.append(contentsOf: #","number":"#.utf8)
    if resolution.reason == .withheld {
      output.append(contentsOf: "null".utf8)
    } else {
      output.append(0x22)
      appendNumber(resolution, to: &output)  // `+` and digits, or an emergency code: nothing to escape
      output.append(0x22)
    }
    output.append(contentsOf: #","action":""#.utf8)
    output.append(contentsOf: resolution.action.rawValue.utf8)
    output.append(contentsOf: #"","label":"#.utf8)
    if let label = resolution.label { appendJSONString(label.utf8, to: &output) } else { output.append(contentsOf: "null".utf8) }
    output.append(contentsOf: #","directory":"#.utf8)
    if let directory = resolution.directory {
      appendJSONString(directory.name.utf8, to: &output)
    } else {
      output.append(contentsOf: "null".utf8)
    }
    output.append(contentsOf: #","reason":""#.utf8)
    output.append(contentsOf: resolution.reason.rawValue.utf8)
    output.append(contentsOf: "\"}\n".utf8)
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
  private static func appendField(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
    for byte in bytes { output.append(byte < 0x20 || byte == 0x7F ? 0x20 : byte) }
  }

  /// Appends a JSON string: quotes, backslashes and control characters below 0x20 escaped, the
  /// rest as it is.
  private static func appendJSONString(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
    output.append(0x22)
    for byte in bytes {
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
    output.append(0x22)
  }

  /// The lowercase hex digit of `value` (0 ... 15), as `String(_:radix:)` writes it.
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? 0x30 &+ value : 0x61 &+ (value &- 10)  // value <= 15: no wrap
  }
}
