import CallDirectory

/// The changeset-reader harness.
enum FuzzChangeset {
  static func run(_ bytes: [UInt8]) {
    guard let changes = try? ChangesetReader(bytes: bytes) else { return }
    _ = (changes.base, changes.result, changes.resultLength, changes.counts)
    checkOrder(changes)
    // The oracle compares with a changeset that reads whole: a damaged input says nothing.
    let truth = transcript(changes)
    if truth.allSatisfy({ !$0.failed }) && (try? changes.checkBlocks()) != nil { differential(bytes, truth: truth) }
  }

  /// The differential oracle: a changeset that reads whole, with one bit changed (eight places,
  /// each alone), hands out what it hands out, or a first part of it and then an error: never
  /// another run.
  static func differential(_ bytes: [UInt8], truth: [Stream]) {
    for (bit, damaged) in oneBitChanges(bytes) {
      guard let changes = try? ChangesetReader(bytes: damaged) else { continue }
      for (got, expected) in zip(transcript(changes), truth) {
        let prefix = got.runs.count <= expected.runs.count && Array(expected.runs.prefix(got.runs.count)) == got.runs
        guard prefix, got.failed || expected.failed || got.runs == expected.runs else {
          fatalError("bit \(bit) changed: a stream handed out \(got.runs.prefix(4)), the input \(expected.runs.prefix(4))")
        }
      }
    }
  }

  /// What one stream handed out, and whether it ended in an error of the changeset.
  struct Stream {
    var runs: [String] = []
    var failed = false
  }

  /// The removals and additions of both kinds, up to `entriesPerStream` runs each.
  static func transcript(_ changes: ChangesetReader) -> [Stream] {
    var streams: [Stream] = []
    for kind in [EntryKind.blocking, .identification] {
      var removals = Stream()
      do {
        try changes.forEachRemoval(kind) { (numbers) throws(EnoughEntries) in
          removals.runs.append("\(numbers)")
          if removals.runs.count >= entriesPerStream { throw EnoughEntries() }
        }
      } catch { if case .format = error { removals.failed = true } }
      var additions = Stream()
      do {
        try changes.forEachAddition(kind) { (numbers, label) throws(EnoughEntries) in
          additions.runs.append("\(numbers) \(label ?? "")")
          if additions.runs.count >= entriesPerStream { throw EnoughEntries() }
        }
      } catch { if case .format = error { additions.failed = true } }
      streams += [removals, additions]
    }
    return streams
  }

  /// Runs ascend, and identification additions have labels.
  static func checkOrder(_ changes: ChangesetReader) {
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
