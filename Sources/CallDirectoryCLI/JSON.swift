/// A minimal JSON writer for the CLI's `--json` output: objects on one line, keys in the order given.
enum JSON {
  /// A JSON value.
  indirect enum Value {
    case string(String)
    case int(Int)
    /// An unsigned 64-bit number, written whole: a list version may exceed `Int.max`. (Readers
    /// that parse numbers as doubles keep it exactly up to 2^53.)
    case unsigned(UInt64)
    case double(Double)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])
  }

  /// `value` as compact JSON text.
  static func render(_ value: Value) -> String {
    var text = ""
    write(value, into: &text)
    return text
  }

  private static func write(_ value: Value, into text: inout String) {
    switch value {
    case .string(let string): quote(string, into: &text)
    case .int(let number): text += String(number)
    case .unsigned(let number): text += String(number)
    case .double(let number): text += number.isFinite ? String(number) : "null"
    case .bool(let flag): text += flag ? "true" : "false"
    case .null: text += "null"
    case .array(let values):
      text += "["
      for (index, element) in values.enumerated() {
        if index > 0 { text += "," }
        write(element, into: &text)
      }
      text += "]"
    case .object(let members):
      text += "{"
      for (index, (key, element)) in members.enumerated() {
        if index > 0 { text += "," }
        quote(key, into: &text)
        text += ":"
        write(element, into: &text)
      }
      text += "}"
    }
  }

  /// RFC 8259 string escaping: quote, backslash and control characters.
  private static func quote(_ string: String, into text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
