import CallDirectory
import Foundation
import Testing

/// Nested entries (`Spec/INPUT.md` section 3.6): the spec's table row by row, a seeded model of
/// the rules, and the edges of every range.
@Suite struct NestingTests {
  /// One entry of a table row or a generated list.
  struct Entry: CustomStringConvertible {
    var kind: ListingKind
    var numbers: ClosedRange<Int64>
    var label: String?

    var description: String {
      let numbers =
        self.numbers.count == 1 ? "+\(self.numbers.lowerBound)" : "+\(self.numbers.lowerBound)..+\(self.numbers.upperBound)"
      return "\(kind.rawValue) \(numbers)" + (label.map { " \($0)" } ?? "")
    }
  }

  /// A table row: its entries, and each probe's number and answers (blocking, identification),
  /// or `nil` when the pack is refused.
  struct Row: CustomStringConvertible {
    var entries: [Entry]
    var probes: [(number: Int64, answers: [String])]?
    var description: String { entries.map(\.description).joined(separator: "; ") }
  }

  static func table() throws -> [Row] {
    let text = try String(contentsOf: SpecVectorTests.root.appendingPathComponent("Spec/INPUT.md"), encoding: .utf8)
    guard let section = text.range(of: "### 3.6 ") else { throw TableError.missing }
    var rows: [Row] = []
    for line in text[section.upperBound...].split(separator: "\n") {
      if line.hasPrefix("#") { break }
      guard line.hasPrefix("| `") else { continue }
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let entries = try cells[0].trimmingCharacters(in: ["`"]).split(separator: "; ").map { (text) throws -> Entry in
        let words = text.split(separator: " ")
        guard let kind = ListingKind(rawValue: String(words[0])) else { throw TableError.bad(String(text)) }
        return Entry(kind: kind, numbers: try numbers(words[1]), label: words.count > 2 ? String(words[2]) : nil)
      }
      let probes =
        cells[1] == "refused"
        ? nil
        : try cells[1].trimmingCharacters(in: ["`"]).split(separator: "; ").map {
          (text) throws -> (Int64, [String]) in
          let words = text.split(separator: " ").map(String.init)
          return (try numbers(Substring(words[0])).lowerBound, Array(words.dropFirst()))
        }
      rows.append(Row(entries: entries, probes: probes))
    }
    return rows
  }

  enum TableError: Error {
    case missing
    case bad(String)
  }

  static func numbers(_ text: Substring) throws -> ClosedRange<Int64> {
    let ends = text.split(separator: "..").map { Int64($0.dropFirst()) }
    guard let first = ends.first ?? nil, let last = ends.last ?? nil else { throw TableError.bad(String(text)) }
    return first...last
  }

  static func pack(_ entries: [Entry], entriesPerBlock: Int = 512) throws(WriterError) -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = entriesPerBlock
    for entry in entries {
      switch entry.kind {
      case .blocking: try builder.block(entry.numbers)
      case .exception: try builder.allow(entry.numbers)
      case .identification: try builder.identify(entry.numbers, label: entry.label ?? "")
      }
    }
    return try builder.encoded()
  }

  @Test func theTableHasEveryRule() throws {
    let rows = try Self.table()
    #expect(rows.count >= 20)
    #expect(rows.contains { $0.probes == nil && $0.entries.contains { $0.kind == .exception } })
  }

  @Test(arguments: try table())
  func specRow(_ row: Row) throws {
    guard let probes = row.probes else {
      #expect(throws: WriterError.self, "\(row)") { try Self.pack(row.entries) }
      // The same refusal whatever the order of the entries.
      #expect(throws: WriterError.self, "\(row)") { try Self.pack(row.entries.reversed()) }
      return
    }
    let bytes = try Self.pack(row.entries)
    #expect(try Self.pack(row.entries.reversed()) == bytes, "the order of the entries changes the file: \(row)")
    let reader = try CallDirectoryReader(bytes: bytes)
    let kinds = Set(row.entries.map(\.kind.entryKind))
    for (number, answers) in probes {
      var expected = answers[...]
      if kinds.contains(.blocking) {
        #expect(try reader.isBlocked(number) == (expected.removeFirst() == "blocked"), "\(row): +\(number)")
      }
      if kinds.contains(.identification) {
        let label = expected.removeFirst()
        #expect(try reader.label(for: number) == (label == "-" ? nil : label), "\(row): +\(number)")
      }
    }
    #expect(Verifier.verify(bytes).isValid)
    #expect(try Self.repacked(reader) == bytes, "\(row)")
  }

  /// The directory's listing, packed again.
  static func repacked(_ reader: CallDirectoryReader, entriesPerBlock: Int = 512) throws -> [UInt8] {
    try SpecVectorTests.pack(listing: try SpecVectorTests.unpack(reader), entriesPerBlock: entriesPerBlock)
  }

  /// The rules as a naive model: every number of a small universe gets the answer of its entry,
  /// else of the narrowest range that holds it; `nil` when rule 4 refuses the list.
  static func model(_ entries: [Entry], universe: ClosedRange<Int64>) -> (blocked: [Bool], labels: [String?])? {
    func label(_ entry: Entry) -> String { entry.kind == .identification ? entry.label! : entry.kind.rawValue }
    for kind in [EntryKind.blocking, .identification] {
      let mine = entries.filter { $0.kind.entryKind == kind }
      for (index, a) in mine.enumerated() {
        for b in mine[(index + 1)...] where label(a) != label(b) {
          let same = a.numbers == b.numbers
          let overlap = a.numbers.overlaps(b.numbers)
          let nested =
            (a.numbers.lowerBound <= b.numbers.lowerBound && b.numbers.upperBound <= a.numbers.upperBound)
            || (b.numbers.lowerBound <= a.numbers.lowerBound && a.numbers.upperBound <= b.numbers.upperBound)
          if same || (overlap && !nested) { return nil }
        }
      }
    }
    func answer(_ number: Int64, _ kind: EntryKind) -> String? {
      let holding = entries.filter { $0.kind.entryKind == kind && $0.numbers.contains(number) }
      return holding.min { $0.numbers.count < $1.numbers.count }.map(label)
    }
    let numbers = Array(universe)
    return (numbers.map { answer($0, .blocking) == "block" }, numbers.map { answer($0, .identification) })
  }

  /// Random lists of nested and overlapping ranges, entries and exceptions over a few labels:
  /// the writer refuses exactly what the model refuses, and otherwise every number answers as the
  /// model says, the file verifies, its listing packs back to the same bytes and expands to the
  /// model's numbers.
  @Test("Nested lists agree with a naive model of the rules", arguments: 0..<12)
  func modelAgrees(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0x4E57 &+ seed &* 7919)
    let universe: ClosedRange<Int64> = 1_000...1_300
    var refused = 0
    for round in 0..<60 {
      var entries: [Entry] = []
      for _ in 0..<Int.random(in: 1...12, using: &rng) {
        let kind = [ListingKind.blocking, .identification, .exception, .identification].randomElement(using: &rng)!
        let first = Int64.random(in: (universe.lowerBound + 1)...(universe.upperBound - 1), using: &rng)
        // Widths of every scale, so that ranges nest; a third are single numbers.
        let width =
          Bool.random(using: &rng) ? 0 : Int64.random(in: 0...(Int64(1) << Int64.random(in: 1...8, using: &rng)), using: &rng)
        let last = min(first + width, universe.upperBound - 1)
        let label = kind == .identification ? ["A", "B", "C"].randomElement(using: &rng) : nil
        entries.append(Entry(kind: kind, numbers: first...last, label: label))
      }
      let expected = Self.model(entries, universe: universe)
      let entriesPerBlock = [1, 2, 512].randomElement(using: &rng)!
      let packed = Result { () throws(WriterError) in
        try Self.pack(entries.shuffled(using: &rng), entriesPerBlock: entriesPerBlock)
      }
      guard let expected else {
        refused += 1
        switch packed {
        case .failure(.overlappingRanges), .failure(.conflictingLabels): break
        default: Issue.record("seed \(seed) round \(round): refused by the model, not by the writer: \(entries)")
        }
        continue
      }
      let bytes: [UInt8]
      switch packed {
      case .success(let made): bytes = made
      case .failure(let error):
        Issue.record("seed \(seed) round \(round): \(error) for \(entries)")
        continue
      }
      let reader = try CallDirectoryReader(bytes: bytes)
      for (offset, number) in universe.enumerated() {
        #expect(try reader.isBlocked(number) == expected.blocked[offset], "seed \(seed) round \(round): +\(number) in \(entries)")
        #expect(try reader.label(for: number) == expected.labels[offset], "seed \(seed) round \(round): +\(number) in \(entries)")
      }
      #expect(Verifier.verify(bytes).isValid, "seed \(seed) round \(round)")
      #expect(try Self.repacked(reader, entriesPerBlock: entriesPerBlock) == bytes, "seed \(seed) round \(round): \(entries)")
      var expanded: Set<Int64> = []
      try reader.forEachBlockingRun { for number in $0 { expanded.insert(number) } }
      #expect(expanded == Set(universe.enumerated().filter { expected.blocked[$0.offset] }.map(\.element)))
    }
    #expect(refused > 0 && refused < 60, "seed \(seed): \(refused) of 60 lists refused")
  }

  /// Every range boundary of a deeply nested list: its first and last numbers and one beyond
  /// each, against the model.
  @Test func edgesOfNestedRanges() throws {
    var entries: [Entry] = []
    // Ranges nested ten deep, alternating labels, with an entry and an exception at the heart.
    for depth in 0..<10 {
      let first = Int64(10_000 + depth * 10)
      entries.append(
        Entry(
          kind: .identification, numbers: first...(first + 999 - Int64(depth) * 20),
          label: depth.isMultiple(of: 2) ? "Even" : "Odd"))
      entries.append(
        Entry(kind: depth.isMultiple(of: 2) ? .blocking : .exception, numbers: first...(first + 999 - Int64(depth) * 20)))
    }
    entries.append(Entry(kind: .identification, numbers: 10_500...10_500, label: "Heart"))
    let universe: ClosedRange<Int64> = 9_990...11_010
    let expected = try #require(Self.model(entries, universe: universe))
    let reader = try CallDirectoryReader(bytes: try Self.pack(entries))
    let probes = entries.flatMap {
      [$0.numbers.lowerBound - 1, $0.numbers.lowerBound, $0.numbers.upperBound, $0.numbers.upperBound + 1]
    }
    for number in probes {
      let offset = Int(number - universe.lowerBound)
      #expect(try reader.isBlocked(number) == expected.blocked[offset], "+\(number)")
      #expect(try reader.label(for: number) == expected.labels[offset], "+\(number)")
    }
  }
}
