import CallDirectoryFormat

/// The canonical order of a directory's contents: numbers ascending without duplicates, labels in
/// ascending byte order (`Spec/FORMAT.md`, "Canonical order").
enum SortedEntries {
  /// The blocking numbers, sorted, each once.
  static func blocking(_ numbers: [Int64]) -> [Int64] {
    var sorted = numbers.sorted()
    sorted.removeAdjacentDuplicates()
    return sorted
  }

  /// The labels in ascending byte order, and for each original id its id in that order.
  static func labelOrder(_ labels: [[UInt8]]) -> (sorted: [[UInt8]], newId: [UInt32]) {
    let order = labels.indices.sorted { labels[$0].lexicographicallyPrecedes(labels[$1]) }
    var newId = [UInt32](repeating: 0, count: labels.count)
    for (rank, original) in order.enumerated() { newId[original] = UInt32(rank) }
    return (order.map { labels[$0] }, newId)
  }

  /// The identification entries sorted by number with their labels renumbered; exact duplicates merged.
  /// - Throws: `WriterError.conflictingLabels` naming the first number with two labels.
  static func identification(
    _ entries: [IdentificationEntry], labelOrder newId: [UInt32], labels: [[UInt8]]
  ) throws(WriterError) -> (numbers: [Int64], labels: [UInt32]) {
    let sorted = entries.sorted { $0.number < $1.number || ($0.number == $1.number && $0.label < $1.label) }
    var numbers: [Int64] = []
    var ids: [UInt32] = []
    numbers.reserveCapacity(sorted.count)
    ids.reserveCapacity(sorted.count)
    var previous: IdentificationEntry?
    for entry in sorted {
      if let previous, previous.number == entry.number {
        if previous.label == entry.label { continue }
        throw .conflictingLabels(
          number: entry.number, first: String(decoding: labels[Int(previous.label)], as: UTF8.self),
          second: String(decoding: labels[Int(entry.label)], as: UTF8.self))
      }
      numbers.append(entry.number)
      ids.append(newId[Int(entry.label)])
      previous = entry
    }
    return (numbers, ids)
  }
}

extension Array where Element: Equatable {
  /// Removes each element equal to the one before it.
  mutating func removeAdjacentDuplicates() {
    guard count > 1 else { return }
    var kept = 1
    for index in 1..<count where self[index] != self[kept - 1] {
      self[kept] = self[index]
      kept += 1
    }
    removeLast(count - kept)
  }
}
