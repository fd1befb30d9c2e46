import CallDirectory
import Foundation
import Testing

/// The examples table of `Spec/INPUT.md` section 1, checked row by row against the parser.
@Suite struct SpecInputTableTests {
  struct Row: CustomStringConvertible, Sendable {
    var written: String
    /// A calling code (`44`) or a region (`GB`), or `nil`.
    var country: String?
    var expected: String
    var description: String { "\(written) [\(country ?? "-")]" }
  }

  static func rows() throws -> [Row] {
    let url = SpecVectorTests.root.appendingPathComponent("Spec/INPUT.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    // Section 1 and its subsections: later tables have other columns.
    guard let start = text.range(of: "\n## 1."), let end = text.range(of: "\n## 2.", range: start.upperBound..<text.endIndex)
    else {
      return []
    }
    return text[start.lowerBound..<end.lowerBound].split(separator: "\n").compactMap { line -> Row? in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 5, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
      return Row(written: String(cells[1].dropFirst().dropLast()), country: cells[2].isEmpty ? nil : cells[2], expected: cells[3])
    }
  }

  @Test func tableIsThere() throws {
    #expect(try Self.rows().count >= 16)
  }

  /// Number rows give one number (`12025550100`), range rows two (`33899000000 ... 33899999999`),
  /// error rows words of the message (`error: ends below its start`).
  @Test(arguments: try rows())
  func row(_ row: Row) throws {
    let parser =
      if let country = row.country, Int(country) == nil {
        try PhoneNumberParser(defaultRegion: country)
      } else {
        try PhoneNumberParser(defaultCountryCode: row.country.flatMap { Int($0) })
      }
    if row.expected.hasPrefix("error:") {
      // The row names the error by words its message holds.
      let words = row.expected.dropFirst("error:".count).trimmingCharacters(in: .whitespaces)
      #expect(
        performing: { try parser.parseEntry(row.written) },
        throws: { error in
          "\(error)".contains(words)
        })
      return
    }
    let ends = row.expected.components(separatedBy: " ... ").compactMap { Int64($0) }
    guard let first = ends.first, let last = ends.last, (1...2).contains(ends.count) else {
      Issue.record("row \(row) has no number")
      return
    }
    #expect((try? parser.parseEntry(row.written)) == first...last)
    if ends.count == 1 { #expect((try? parser.parse(row.written)) == first) }
  }
}
