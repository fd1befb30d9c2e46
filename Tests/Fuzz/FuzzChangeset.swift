import CallDirectory

/// The changeset-reader harness.
enum FuzzChangeset {
  static func run(_ bytes: [UInt8]) {
    guard let changes = try? ChangesetReader(bytes: bytes) else { return }
    _ = (changes.base, changes.result, changes.resultLength, changes.counts)
    for kind in [EntryKind.blocking, .identification] {
      var taken = 0
      var previous: Int64? = nil
      _ = try? changes.forEachRemoval(kind) { (numbers) throws(EnoughEntries) in
        if let previous, numbers.lowerBound <= previous { fatalError("removals not ascending at \(numbers)") }
        previous = numbers.upperBound
        taken += 1
        if taken >= entriesPerStream { throw EnoughEntries() }
      }
      taken = 0
      previous = nil
      _ = try? changes.forEachAddition(kind) { (numbers, label) throws(EnoughEntries) in
        if let previous, numbers.lowerBound <= previous { fatalError("additions not ascending at \(numbers)") }
        if kind == .identification && (label ?? "").isEmpty { fatalError("an identification addition without a label") }
        previous = numbers.upperBound
        taken += 1
        if taken >= entriesPerStream { throw EnoughEntries() }
      }
    }
  }
}
