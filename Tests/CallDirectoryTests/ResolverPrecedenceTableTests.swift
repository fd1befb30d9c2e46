import CallDirectory
import Foundation
import Testing

/// The precedence table of `Spec/RESOLUTION.md` section 4.1 and its caller-string table
/// (section 6), read from the spec and checked row by row.
@Suite struct ResolverPrecedenceTableTests {
  struct Row: CustomStringConvertible, Sendable {
    var number: Int
    var stack: String
    var caller: String
    var action: String
    var label: String
    var decidedBy: String
    var reason: String
    var description: String { "row \(number): \(stack) | \(caller)" }
  }

  static let spec = SpecVectorTests.root.appendingPathComponent("Spec/RESOLUTION.md")

  /// The table's cells, for lines of `cellCount` cells (counting the empty ones outside the bars).
  static func cells(_ cellCount: Int) throws -> [[String]] {
    let text = try String(contentsOf: spec, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> [String]? in
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      return cells.count == cellCount ? cells : nil
    }
  }

  static func unquoted(_ cell: String) -> String? {
    guard cell.count >= 2, cell.hasPrefix("`"), cell.hasSuffix("`") else { return nil }
    return String(cell.dropFirst().dropLast())
  }

  static func rows() throws -> [Row] {
    try cells(9).compactMap { cells -> Row? in
      guard let number = Int(cells[1]), let stack = unquoted(cells[2]), let caller = unquoted(cells[3]) else { return nil }
      return Row(
        number: number, stack: stack, caller: caller, action: cells[4], label: cells[5], decidedBy: cells[6],
        reason: cells[7])
    }
  }

  @Test func tableIsThereAndNumbered() throws {
    let rows = try Self.rows()
    #expect(rows.count >= 20)
    #expect(rows.map(\.number) == Array(1...rows.count))
    let reasons = Set(rows.map(\.reason))
    #expect(reasons == Set(Resolution.Reason.allCases.map(\.rawValue)), "every reason has a row")
  }

  @Test(arguments: try rows())
  func row(_ row: Row) throws {
    let stack = try #require(StackEntry.stack(row.stack), "stack notation of \(row)")
    // The entries are for the number the caller normalises to, when it is a number at all.
    let number = try? PhoneNumberParser.formatDomain.parse(row.caller)
    let resolver = try ResolverFixtures.resolver(stack, number: number)
    let answer = try resolver.resolve(caller: row.caller)
    #expect(answer.action.rawValue == row.action, "\(row)")
    #expect(answer.reason.rawValue == row.reason, "\(row)")
    #expect(answer.label == (row.label.isEmpty ? nil : row.label), "\(row)")
    #expect(answer.directory.map { String($0.index) } ?? "-" == row.decidedBy, "\(row)")
    #expect(answer.directory.map(\.name) == answer.directory.map { "d\($0.index)" })
    #expect((answer.labelDirectory == nil) == (answer.label == nil), "\(row)")
  }

  struct CallerRow: CustomStringConvertible, Sendable {
    var caller: String
    /// The default country as the table gives it: a calling code, a region, or empty.
    var country: String
    var expected: Int64
    var description: String { "\(caller) [\(country.isEmpty ? "-" : country)]" }
  }

  static func callerRows() throws -> [CallerRow] {
    try cells(5).compactMap { cells -> CallerRow? in
      guard let caller = unquoted(cells[1]), let expected = Int64(cells[3]) else { return nil }
      return CallerRow(caller: caller, country: cells[2], expected: expected)
    }
  }

  @Test func callerTableIsThere() throws {
    #expect(try Self.callerRows().count >= 5)
  }

  @Test(arguments: try callerRows())
  func callerRow(_ row: CallerRow) throws {
    var builder = DirectoryBuilder()
    try builder.block(row.expected)
    let sources = [Resolver.Source(name: "list", provider: try CallDirectoryReader(bytes: try builder.encoded()))]
    let resolver =
      if let code = Int(row.country) {
        try Resolver(sources: sources, defaultCountryCode: code)
      } else if row.country.isEmpty {
        try Resolver(sources: sources)
      } else {
        try Resolver(sources: sources, defaultRegion: row.country)
      }
    let answer = try resolver.resolve(caller: row.caller)
    #expect(answer.number == row.expected)
    #expect(answer.action == .block)
  }
}
