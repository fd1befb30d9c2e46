import CallDirectory
import Foundation
import Testing

/// `DirectoryBuilder.Options.onLabelConflict`: one number given different labels, settled by the
/// policy the same way by all three writers, against a model that keeps the input order.
@Suite struct LabelConflictTests {
  typealias Entry = (number: Int64, label: String)

  /// What `policy` makes of `entries` given in this order: each number's label, and the numbers
  /// whose labels conflict.
  static func model(_ entries: [Entry], _ policy: LabelConflictPolicy) -> (labels: [Int64: String], conflicts: [Int64]) {
    var given: [Int64: [String]] = [:]
    for entry in entries { given[entry.number, default: []].append(entry.label) }
    var labels: [Int64: String] = [:]
    var conflicts: [Int64] = []
    for (number, all) in given {
      guard Set(all).count > 1 else {
        labels[number] = all[0]
        continue
      }
      conflicts.append(number)
      switch policy {
      case .keepFirst: labels[number] = all.first
      case .keepLast: labels[number] = all.last
      case .leaveOut, .refuse: break
      }
    }
    return (labels, conflicts.sorted())
  }

  /// The file and statistics each writer makes of `entries` under `policy`.
  static func written(_ entries: [Entry], _ policy: LabelConflictPolicy, scratch: ScratchDirectory) throws -> [(
    bytes: [UInt8], statistics: CanonicalStatistics
  )] {
    var options = DirectoryBuilder.Options()
    options.onLabelConflict = policy
    options.entriesPerBlock = 4
    var builder = DirectoryBuilder(options: options)
    // A tiny memory limit: the sorting writer spills runs, whose merge must keep the input order.
    var sorting = try SortingDirectoryWriter(options: options, temporaryDirectory: scratch.url.path, memoryLimit: 1)
    var ascending = try AscendingDirectoryWriter(options: options)
    for entry in entries {
      try builder.identify(entry.number, label: entry.label)
      try sorting.identify(entry.number, label: entry.label)
    }
    // The ascending writer takes them by number, in the order given among equal numbers.
    for entry in entries.enumerated().sorted(by: { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }) {
      try ascending.identify(entry.element.number, label: entry.element.label)
    }
    var fromSorting: [UInt8] = []
    let sortingStatistics = try sorting.finish { fromSorting += $0 }
    var fromAscending: [UInt8] = []
    let ascendingStatistics = ascending.statistics
    try ascending.finish { fromAscending += $0 }
    return [(try builder.encoded(), sortingStatistics), (fromSorting, sortingStatistics), (fromAscending, ascendingStatistics)]
  }

  static func labels(of bytes: [UInt8]) throws -> [Int64: String] {
    let reader = try CallDirectoryReader(bytes: bytes)
    var labels: [Int64: String] = [:]
    try reader.forEachIdentification { (number, label) throws(Never) in labels[number] = label }
    return labels
  }

  @Test("Each policy settles a number given A, B, A", arguments: LabelConflictPolicy.allCases)
  func eachPolicy(_ policy: LabelConflictPolicy) throws {
    let scratch = try ScratchDirectory()
    let entries: [Entry] = [
      (12_025_550_100, "Acme"), (12_025_550_101, "Bank"), (12_025_550_100, "Acme Support"), (12_025_550_100, "Acme"),
      (12_025_550_102, "Clinic"), (12_025_550_102, "Clinic"),
    ]
    guard policy != .refuse else {
      #expect(throws: WriterError.conflictingLabels(number: 12_025_550_100, first: "Acme", second: "Acme Support")) {
        _ = try Self.written(entries, policy, scratch: scratch)
      }
      return
    }
    let expected = Self.model(entries, policy)
    for (bytes, statistics) in try Self.written(entries, policy, scratch: scratch) {
      #expect(try Self.labels(of: bytes) == expected.labels)
      #expect(statistics.conflictingNumbers == [12_025_550_100])
      #expect(Verifier.verify(bytes).isValid)
      // The table holds exactly the labels used: a label only a losing entry had is gone.
      #expect(try CallDirectoryReader(bytes: bytes).labelCount == Set(expected.labels.values).count)
    }
    #expect(expected.labels[12_025_550_100] == ["keepFirst": "Acme", "keepLast": "Acme", "leaveOut": nil][policy.rawValue]!)
  }

  @Test("A losing label used nowhere else leaves the table; the file is the one made without the loser")
  func losingLabelsLeaveTheTable() throws {
    let scratch = try ScratchDirectory()
    let entries: [Entry] = [(12_025_550_100, "Old name"), (12_025_550_100, "New name"), (12_025_550_101, "Other")]
    let last = try Self.written(entries, .keepLast, scratch: scratch)
    let clean = try Self.written([(12_025_550_100, "New name"), (12_025_550_101, "Other")], .keepLast, scratch: scratch)
    for (made, reference) in zip(last, clean) { #expect(made.bytes == reference.bytes) }
    let first = try Self.written(entries, .keepFirst, scratch: scratch)
    let cleanFirst = try Self.written([(12_025_550_100, "Old name"), (12_025_550_101, "Other")], .refuse, scratch: scratch)
    for (made, reference) in zip(first, cleanFirst) { #expect(made.bytes == reference.bytes) }
  }

  @Test("Seeded random lists: every writer agrees with the model", arguments: [1, 2, 3, 4, 5] as [UInt64])
  func againstTheModel(seed: UInt64) throws {
    let scratch = try ScratchDirectory()
    var random = SeededGenerator(seed: seed)
    let names = ["A", "B", "C", "Dé", "日本"]
    for round in 0..<12 {
      let count = Int.random(in: 0...60, using: &random)
      let base: Int64 = round.isMultiple(of: 3) ? Int64.max - 40 : 12_025_550_000
      let entries: [Entry] = (0..<count).map { _ in
        (base + Int64.random(in: 0..<30, using: &random), names.randomElement(using: &random)!)
      }
      for policy in [LabelConflictPolicy.keepFirst, .keepLast, .leaveOut] {
        let expected = Self.model(entries, policy)
        let made = try Self.written(entries, policy, scratch: scratch)
        for (bytes, statistics) in made {
          #expect(try Self.labels(of: bytes) == expected.labels, "seed \(seed) round \(round) \(policy)")
          #expect(statistics.conflictingNumbers == expected.conflicts, "seed \(seed) round \(round) \(policy)")
          #expect(try CallDirectoryReader(bytes: bytes).labelCount == Set(expected.labels.values).count)
        }
        #expect(made[0].bytes == made[1].bytes && made[1].bytes == made[2].bytes, "seed \(seed) round \(round) \(policy)")
      }
    }
  }

  @Test("The default policy refuses, and files without conflicts do not depend on the policy")
  func defaultsAndAgreement() throws {
    #expect(DirectoryBuilder.Options().onLabelConflict == .refuse)
    let scratch = try ScratchDirectory()
    let entries: [Entry] = [(12_025_550_101, "B"), (12_025_550_100, "A"), (12_025_550_101, "B")]
    let reference = try Self.written(entries, .refuse, scratch: scratch)[0].bytes
    for policy in LabelConflictPolicy.allCases {
      for (bytes, statistics) in try Self.written(entries, policy, scratch: scratch) {
        #expect(bytes == reference, "\(policy)")
        #expect(statistics.conflictingNumbers.isEmpty)
      }
    }
  }
}
