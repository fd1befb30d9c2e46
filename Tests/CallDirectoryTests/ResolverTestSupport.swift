import CallDirectory
import Foundation
import Testing

/// A directory of a test stack, in the notation of `Spec/RESOLUTION.md` section 4.1:
/// `std(...)` or `allow(...)` around `-`, `B`, `I:label` or `B+I:label`.
struct StackEntry: Equatable, CustomStringConvertible {
  var role: Resolver.Role
  var blocks: Bool
  var label: String?

  var description: String {
    let content = blocks ? (label.map { "B+I:\($0)" } ?? "B") : (label.map { "I:\($0)" } ?? "-")
    return "\(role == .allowList ? "allow" : "std")(\(content))"
  }

  /// Parses one directory of the notation; `nil` when it is malformed.
  init?(notation text: Substring) {
    let text = text.trimmingCharacters(in: .whitespaces)
    let prefixes: [(String, Resolver.Role)] = [("std(", .standard), ("allow(", .allowList)]
    guard let (prefix, role) = prefixes.first(where: { text.hasPrefix($0.0) }), text.hasSuffix(")") else { return nil }
    let content = String(text.dropFirst(prefix.count).dropLast())
    self.role = role
    if content == "-" {
      (blocks, label) = (false, nil)
    } else if content == "B" {
      (blocks, label) = (true, nil)
    } else if content.hasPrefix("B+I:") {
      (blocks, label) = (true, String(content.dropFirst(4)))
    } else if content.hasPrefix("I:") {
      (blocks, label) = (false, String(content.dropFirst(2)))
    } else {
      return nil
    }
  }

  init(_ role: Resolver.Role, blocks: Bool = false, label: String? = nil) {
    self.role = role
    self.blocks = blocks
    self.label = label
  }

  /// Parses a whole stack, top first, directories separated by `, `.
  static func stack(_ notation: String) -> [StackEntry]? {
    var entries: [StackEntry] = []
    for part in notation.split(separator: "), ") {
      let text = part.hasSuffix(")") ? part : part + ")"
      guard let entry = StackEntry(notation: text) else { return nil }
      entries.append(entry)
    }
    return entries
  }
}

enum ResolverFixtures {
  /// The number most tests ask about: +1 202 555 0100.
  static let number: Int64 = 12_025_550_100

  /// A directory holding, for `number`, what `entry` says, plus unrelated neighbours so that the
  /// number is not alone in its block.
  static func directory(_ entry: StackEntry, number: Int64?) throws -> CallDirectoryReader {
    var builder = DirectoryBuilder()
    try builder.block(19_995_550_001)
    try builder.identify(19_995_550_002, label: "Neighbour")
    if let number {
      if entry.blocks { try builder.block(number) }
      if let label = entry.label { try builder.identify(number, label: label) }
    }
    return try CallDirectoryReader(bytes: try builder.encoded())
  }

  /// A resolver over `entries`, directories named `d0`, `d1`, ...
  static func resolver(
    _ entries: [StackEntry], number: Int64? = ResolverFixtures.number, emergency: EmergencyNumbers = .standard,
    country: Int? = nil
  ) throws -> Resolver {
    let sources = try entries.enumerated().map { index, entry in
      Resolver.Source(name: "d\(index)", role: entry.role, provider: try directory(entry, number: number))
    }
    return try Resolver(sources: sources, emergencyNumbers: emergency, defaultCountryCode: country)
  }

  /// The bytes of a directory with these entries.
  static func bytes(blocking: [Int64] = [], identification: [(Int64, String)] = []) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    for number in blocking { try builder.block(number) }
    for (number, label) in identification { try builder.identify(number, label: label) }
    return try builder.encoded()
  }

  /// Writes a directory with these entries to `path`, atomically.
  static func write(_ path: String, blocking: [Int64] = [], identification: [(Int64, String)] = []) throws {
    var builder = DirectoryBuilder()
    for number in blocking { try builder.block(number) }
    for (number, label) in identification { try builder.identify(number, label: label) }
    try builder.write(to: path)
  }
}
