/// One line of JSON Lines that holds one object of string members: the strict reader behind
/// ``ListingJSONLines`` and the service's batch requests.
///
/// It accepts exactly `{"name":"value",...}` with whitespace between tokens, and refuses an
/// unknown or duplicate member, another value type, a raw control character, a lone surrogate,
/// ill-formed UTF-8 and anything after the object.
package enum JSONObjectLine {
  /// The values of the members `names` in `bytes[range]`, in the order of `names`, `nil` for a
  /// member the object does not give; decoded to UTF-8.
  ///
  ///     try JSONObjectLine.members(of: Array(#"{"number":"+33"}"#.utf8), in: 0..<16, names: ["number"])
  ///
  /// - Throws: ``SyntaxError`` naming the first problem.
  /// - Complexity: O(length of the line).
  package static func members(of bytes: [UInt8], in range: Range<Int>, names: [String]) throws(SyntaxError) -> [[UInt8]?] {
    var scanner = ObjectScanner(bytes: bytes, position: range.lowerBound, end: range.upperBound)
    scanner.skipWhitespace()
    return try scanner.object(names: names)
  }

  /// Whether `bytes[range]` holds only spaces and tabs. O(length).
  package static func isBlank(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
    bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }

  /// A problem inside one line; the caller adds the file and line.
  package struct SyntaxError: Error, Equatable {
    /// What is wrong, for a message that names the line.
    package var message: String
  }

  /// A cursor over one line.
  private struct ObjectScanner {
    let bytes: [UInt8]
    var position: Int
    let end: Int

    mutating func skipWhitespace() {
      while position < end, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    /// `{ "name" : "value" , ... }` and nothing after it but whitespace: the values of `names`.
    mutating func object(names: [String]) throws(SyntaxError) -> [[UInt8]?] {
      try expect(0x7B, "expected '{' (one JSON object a line)")
      var members = [[UInt8]?](repeating: nil, count: names.count)
      skipWhitespace()
      if peek() == 0x7D {
        position += 1
      } else {
        while true {
          skipWhitespace()
          let name = try string(what: "a member name")
          skipWhitespace()
          try expect(0x3A, "expected ':' after a member name")
          skipWhitespace()
          let value = try string(what: "a string value")
          let shown = String(decoding: name, as: UTF8.self)
          guard let slot = names.firstIndex(of: shown) else {
            throw SyntaxError(message: "unknown member \"\(shown)\" (expected \(names.joined(separator: ", ")))")
          }
          try set(&members[slot], value, shown)
          skipWhitespace()
          if peek() == 0x2C {
            position += 1
            continue
          }
          try expect(0x7D, "expected ',' or '}'")
          break
        }
      }
      skipWhitespace()
      if position < end { throw SyntaxError(message: "text after the object") }
      return members
    }

    private func set(_ slot: inout [UInt8]?, _ value: [UInt8], _ name: String) throws(SyntaxError) {
      if slot != nil { throw SyntaxError(message: "duplicate member \"\(name)\"") }
      slot = value
    }

    private func peek() -> UInt8? { position < end ? bytes[position] : nil }

    private mutating func expect(_ byte: UInt8, _ message: String) throws(SyntaxError) {
      guard peek() == byte else { throw SyntaxError(message: message) }
      position += 1
    }

    /// A JSON string, decoded to UTF-8.
    mutating func string(what: String) throws(SyntaxError) -> [UInt8] {
      guard peek() == 0x22 else {
        throw SyntaxError(message: position < end ? "expected \(what) in double quotes" : "line ends where \(what) should be")
      }
      position += 1
      var output: [UInt8] = []
      var runStart = position
      while true {
        guard position < end else { throw SyntaxError(message: "string is not closed") }
        let byte = bytes[position]
        if byte == 0x22 {
          try appendRaw(runStart..<position, to: &output)
          position += 1
          return output
        }
        if byte < 0x20 {
          throw SyntaxError(message: "control character 0x\(String(byte, radix: 16, uppercase: true)) in a string (escape it)")
        }
        if byte != 0x5C {
          position += 1
          continue
        }
        try appendRaw(runStart..<position, to: &output)
        position += 1
        guard let escaped = peek() else { throw SyntaxError(message: "string is not closed") }
        position += 1
        switch escaped {
        case 0x22, 0x5C, 0x2F: output.append(escaped)
        case 0x62: output.append(0x08)
        case 0x66: output.append(0x0C)
        case 0x6E: output.append(0x0A)
        case 0x72: output.append(0x0D)
        case 0x74: output.append(0x09)
        case 0x75: try appendUnicodeEscape(to: &output)
        default:
          let shown = escaped >= 0x20 && escaped < 0x7F ? "\\\(Character(Unicode.Scalar(escaped)))" : "\\ and a byte"
          throw SyntaxError(message: "unknown escape \(shown)")
        }
        runStart = position
      }
    }

    /// Copies unescaped string bytes, checking that they are well-formed UTF-8.
    private func appendRaw(_ range: Range<Int>, to output: inout [UInt8]) throws(SyntaxError) {
      if bytes.firstInvalidUTF8Index(in: range) != nil { throw SyntaxError(message: "invalid UTF-8") }
      output.append(contentsOf: bytes[range])
    }

    /// After `\u`: four hex digits, and a second `\uXXXX` when they are a high surrogate.
    private mutating func appendUnicodeEscape(to output: inout [UInt8]) throws(SyntaxError) {
      let first = try hex4()
      var value = UInt32(first)
      if (0xDC00...0xDFFF).contains(first) {
        throw SyntaxError(message: "lone low surrogate \\u\(String(first, radix: 16, uppercase: true))")
      }
      if (0xD800...0xDBFF).contains(first) {
        guard position + 1 < end, bytes[position] == 0x5C, bytes[position + 1] == 0x75 else {
          throw SyntaxError(message: "high surrogate \\u\(String(first, radix: 16, uppercase: true)) without a low one")
        }
        position += 2
        let second = try hex4()
        guard (0xDC00...0xDFFF).contains(second) else {
          throw SyntaxError(message: "high surrogate \\u\(String(first, radix: 16, uppercase: true)) without a low one")
        }
        // Both halves are in range, so the sum is at most 0x10FFFF.
        value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
      }
      guard let scalar = Unicode.Scalar(value) else { throw SyntaxError(message: "invalid \\u escape") }
      output.append(contentsOf: String(Character(scalar)).utf8)
    }

    private mutating func hex4() throws(SyntaxError) -> UInt16 {
      guard position + 4 <= end else { throw SyntaxError(message: "\\u needs four hex digits") }
      var value: UInt16 = 0
      for _ in 0..<4 {
        let byte = bytes[position]
        let digit: UInt8
        switch byte {
        case 0x30...0x39: digit = byte - 0x30
        case 0x41...0x46: digit = byte - 0x41 + 10
        case 0x61...0x66: digit = byte - 0x61 + 10
        default: throw SyntaxError(message: "\\u needs four hex digits")
        }
        value = value << 4 | UInt16(digit)
        position += 1
      }
      return value
    }
  }
}
