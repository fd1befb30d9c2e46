import CallDirectory

/// A directory version for changeset tests: slots of 1,000 numbers, each empty or holding one
/// single number or one range, per kind, so runs never overlap or touch and the runs a directory
/// stores are exactly the items (what diff must then list is known in advance).
struct SlotVersion {
  enum Item: Equatable {
    case single(Int64, String?)
    case range(ClosedRange<Int64>, String?)

    /// Labels compare as bytes, as the format compares them.
    static func == (a: Item, b: Item) -> Bool {
      guard a.numbers == b.numbers else { return false }
      if case .single = a, case .range = b { return false }
      if case .range = a, case .single = b { return false }
      return a.label.map { Array($0.utf8) } == b.label.map { Array($0.utf8) }
    }

    var numbers: ClosedRange<Int64> {
      switch self {
      case .single(let number, _): number...number
      case .range(let range, _): range
      }
    }
    var label: String? {
      switch self {
      case .single(_, let label), .range(_, let label): label
      }
    }
  }

  static let base: Int64 = 12_025_550_000
  var blocking: [Int: Item] = [:]
  var identification: [Int: Item] = [:]

  static func random(slots: Int, fill: Double, using rng: inout SeededGenerator) -> SlotVersion {
    var version = SlotVersion()
    for slot in 0..<slots {
      if Double.random(in: 0..<1, using: &rng) < fill { version.blocking[slot] = item(slot, labelled: false, using: &rng) }
      if Double.random(in: 0..<1, using: &rng) < fill { version.identification[slot] = item(slot, labelled: true, using: &rng) }
    }
    return version
  }

  static func item(_ slot: Int, labelled: Bool, using rng: inout SeededGenerator) -> Item {
    let start = base + Int64(slot) * 1_000 + 1
    let label =
      labelled ? ["Spam Risk", "Acme Support", "Telemarketer", "Ünïcödé Ltd", "Clinic"].randomElement(using: &rng) : nil
    if Bool.random(using: &rng) {
      return .single(start + Int64.random(in: 0..<990, using: &rng), label)
    }
    let first = start + Int64.random(in: 0..<500, using: &rng)
    return .range(first...(first + Int64.random(in: 1..<400, using: &rng)), label)
  }

  /// A copy with about `share` of the slots changed: items removed, added, relabelled or moved.
  func mutated(slots: Int, share: Double, using rng: inout SeededGenerator) -> SlotVersion {
    var next = self
    for slot in 0..<slots where Double.random(in: 0..<1, using: &rng) < share {
      switch Int.random(in: 0..<4, using: &rng) {
      case 0: next.blocking[slot] = next.blocking[slot] == nil ? Self.item(slot, labelled: false, using: &rng) : nil
      case 1: next.identification[slot] = next.identification[slot] == nil ? Self.item(slot, labelled: true, using: &rng) : nil
      case 2: next.identification[slot] = Self.item(slot, labelled: true, using: &rng)
      default: next.blocking[slot] = Self.item(slot, labelled: false, using: &rng)
      }
    }
    return next
  }

  func encoded(entriesPerBlock: Int = 512) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = entriesPerBlock
    for item in blocking.values { try builder.block(item.numbers) }
    for item in identification.values { try builder.identify(item.numbers, label: item.label ?? "") }
    return try builder.encoded()
  }

  /// What diff must list for `kind`: OLD's items NEW does not have as they are, and the reverse.
  static func expected(from old: [Int: Item], to new: [Int: Item]) -> (removals: [ClosedRange<Int64>], additions: [Item]) {
    let removals = old.filter { new[$0.key] != $0.value }.values.map(\.numbers).sorted { $0.lowerBound < $1.lowerBound }
    let additions = new.filter { old[$0.key] != $0.value }.values.sorted { $0.numbers.lowerBound < $1.numbers.lowerBound }
    return (removals, additions)
  }
}

/// A changeset's lists as plain values.
struct ChangesetListing: Equatable {
  var removals: [EntryKind: [ClosedRange<Int64>]] = [:]
  var additions: [EntryKind: [String]] = [:]

  static func read(_ changes: ChangesetReader) throws -> ChangesetListing {
    var listing = ChangesetListing()
    for kind in EntryKind.allCases {
      var removals: [ClosedRange<Int64>] = []
      try changes.forEachRemoval(kind) { removals.append($0) }
      var additions: [String] = []
      try changes.forEachAddition(kind) { additions.append(describe($0, $1)) }
      listing.removals[kind] = removals
      listing.additions[kind] = additions
    }
    return listing
  }

  static func describe(_ numbers: ClosedRange<Int64>, _ label: String?) -> String {
    let run =
      numbers.lowerBound == numbers.upperBound ? "+\(numbers.lowerBound)" : "+\(numbers.lowerBound)..+\(numbers.upperBound)"
    return label.map { "\(run),\($0)" } ?? run
  }

  /// The listing as text, one line a run: `-block,+N`, `+identify,+A..+B,Label`.
  var text: String {
    var lines: [String] = []
    for kind in [EntryKind.blocking, .identification] {
      for run in removals[kind] ?? [] { lines.append("-\(kind.rawValue),\(Self.describe(run, nil))") }
    }
    for kind in [EntryKind.blocking, .identification] {
      for run in additions[kind] ?? [] { lines.append("+\(kind.rawValue),\(run)") }
    }
    return lines.map { $0 + "\n" }.joined()
  }
}
