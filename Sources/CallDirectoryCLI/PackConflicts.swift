import CallDirectory

/// `pack --on-conflict`: what to do with a number given two or more different labels.
enum OnConflict: String, CaseIterable {
  /// End the pack naming two of the lines; with `--keep-going`, report every line of every such
  /// number, leave the numbers out, and pack the rest.
  case error
  /// Keep the label given first (inputs in the order named, lines in file order).
  case first
  /// Keep the label given last.
  case last

  /// The writer's policy for this choice.
  func policy(keepGoing: Bool) -> LabelConflictPolicy {
    switch self {
    case .error: keepGoing ? .leaveOut : .refuse
    case .first: .keepFirst
    case .last: .keepLast
    }
  }

  /// The summary's words for `count` numbers settled this way.
  func summary(_ count: Int) -> String {
    let numbers = counted(count, "number", "numbers") + " given conflicting labels"
    switch self {
    case .error: return "left out \(numbers)"
    case .first: return "kept the first label of \(numbers)"
    case .last: return "kept the last label of \(numbers)"
    }
  }
}

extension PackInputs {
  /// Reports each line that gave one of `numbers` (left out for conflicting labels) as a bad
  /// line, reading the inputs again: standard input cannot be, and its lines are reported by
  /// number only.
  /// - Parameters:
  ///   - rejectInvalid: skip the lines `--reject-invalid` refused the first time, which the
  ///     writer never saw.
  ///   - onBadLine: takes each such line, as `--keep-going` takes a bad line.
  func reportConflicts(
    _ numbers: [Int64], rejectInvalid: Bool, console: Console, onBadLine: @escaping (BadLine) throws(ListingError) -> Void
  ) throws(CommandFailure) {
    let conflicting = Set(numbers)
    var placed = Set<Int64>()
    var validity = PlanValidity(reject: rejectInvalid)
    var thrown = false
    _ = try forEachEntry(
      skipStandardInput: true,
      onBadLine: { (bad) throws(ListingError) in
        // Lines refused the first time were reported then.
        guard thrown else { return }
        thrown = false
        try onBadLine(bad)
      }
    ) { (entry, _, path) throws(ListingError) in
      guard entry.kind == .identification, entry.numbers.lowerBound == entry.numbers.upperBound,
        conflicting.contains(entry.numbers.lowerBound)
      else {
        return
      }
      do throws(ListingError) { try validity.check(entry, file: path) } catch { return }
      placed.insert(entry.numbers.lowerBound)
      thrown = true
      throw ListingError(
        file: path, line: entry.line,
        message: "+\(entry.numbers.lowerBound) is given other labels too: every entry of the number is left out")
    }
    for number in numbers where !placed.contains(number) {
      console.diagnose("<stdin>: +\(number) is given conflicting labels: every entry of the number is left out")
    }
  }
}
