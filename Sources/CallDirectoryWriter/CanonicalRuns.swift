/// The canonical form of one kind's entries and ranges (`Spec/FORMAT.md`, section 10), made in
/// one pass over runs given in ascending order of their first number: exact duplicates merged,
/// blocking ranges merged when they overlap or touch, identification ranges when they do with the
/// same label, and single entries dropped when a range of their kind covers them.
///
/// Memory: one held single and one held range. A single is held until a run starting after it
/// arrives, since only a range starting at that very number can still cover it; a range is held
/// while a later one may still extend it.
struct CanonicalRuns {
  /// A run's numbers and its label id (0 for blocking runs).
  struct Run: Equatable {
    var numbers: ClosedRange<Int64>
    var label: UInt32
  }

  /// What an added run released: at most one single entry and one range, each final.
  struct Released {
    var single: Run?
    var range: Run?
  }

  /// A rule the runs broke, with the ids of the labels involved.
  enum Violation: Error {
    /// A run starts before the one given before it.
    case outOfOrder(previous: Int64, next: Int64)
    /// One number with two labels.
    case conflictingLabels(number: Int64, first: UInt32, second: UInt32)
    /// Two identification ranges overlap with different labels.
    case overlappingRanges(first: Run, second: Run)
    /// A single identification entry inside a range with another label.
    case numberInsideRange(single: Run, range: Run)
  }

  /// Whether ranges carry labels: identification merges only runs with equal labels.
  let labelled: Bool
  /// What the canonical form dropped or joined so far.
  private(set) var statistics = CanonicalStatistics()
  private var heldSingle: Run?
  private var heldRange: Run?
  private var lastStart: Int64 = .min
  /// The last range as it was given, and the last single found covered, for telling exact
  /// repeats (duplicates) from merges: equal runs arrive next to each other.
  private var lastRange: Run?
  private var lastCovered: Int64?

  init(labelled: Bool) {
    self.labelled = labelled
  }

  /// Adds a run (one number when its ends are equal) with its label id.
  /// - Throws: a `Violation` when the run is out of order or conflicts with an earlier one.
  mutating func add(_ numbers: ClosedRange<Int64>, label: UInt32) throws(Violation) -> Released {
    guard numbers.lowerBound >= lastStart else { throw .outOfOrder(previous: lastStart, next: numbers.lowerBound) }
    let run = Run(numbers: numbers, label: labelled ? label : 0)
    // A refused run changes nothing: both paths check before they change any state.
    let released = numbers.lowerBound == numbers.upperBound ? try addSingle(run) : try addRange(run)
    lastStart = numbers.lowerBound
    return released
  }

  private mutating func addSingle(_ run: Run) throws(Violation) -> Released {
    let number = run.numbers.lowerBound
    if let range = heldRange, number <= range.numbers.upperBound {
      guard range.label == run.label else { throw .numberInsideRange(single: run, range: range) }
      if lastCovered == number { statistics.duplicates += 1 } else { statistics.covered += 1 }
      lastCovered = number
      return Released()
    }
    var released = Released()
    if let single = heldSingle {
      if single.numbers.lowerBound == number {
        guard single.label == run.label else {
          throw .conflictingLabels(number: number, first: single.label, second: run.label)
        }
        statistics.duplicates += 1
        return released
      }
      released.single = single
    }
    heldSingle = run
    return released
  }

  private mutating func addRange(_ run: Run) throws(Violation) -> Released {
    if lastRange == run {
      statistics.duplicates += 1
      return Released()
    }
    // The checks first, so that a refused range leaves the state as it was.
    let coversSingle = heldSingle?.numbers.lowerBound == run.numbers.lowerBound
    if coversSingle, let single = heldSingle, single.label != run.label {
      throw .numberInsideRange(single: single, range: run)
    }
    // upperBound <= Int64.max - 1, so + 1 cannot overflow.
    let overlaps = heldRange.map { run.numbers.lowerBound <= $0.numbers.upperBound } ?? false
    let touches = heldRange.map { run.numbers.lowerBound == $0.numbers.upperBound + 1 } ?? false
    if overlaps, let range = heldRange, range.label != run.label { throw .overlappingRanges(first: range, second: run) }

    lastRange = run
    var released = Released()
    if let single = heldSingle {
      if coversSingle {
        statistics.covered += 1
        lastCovered = single.numbers.lowerBound
      } else {
        released.single = single
      }
      heldSingle = nil
    }
    guard let range = heldRange else {
      heldRange = run
      return released
    }
    if overlaps || (touches && range.label == run.label) {
      statistics.rangesMerged += 1
      heldRange?.numbers = range.numbers.lowerBound...max(range.numbers.upperBound, run.numbers.upperBound)
    } else {
      released.range = range
      heldRange = run
    }
    return released
  }

  /// Releases what is still held, once every run has been added.
  mutating func finish() -> Released {
    defer { (heldSingle, heldRange) = (nil, nil) }
    return Released(single: heldSingle, range: heldRange)
  }
}

extension CanonicalRuns.Violation {
  /// The violation as a writer error; `kind` names the list and `label` gives a label id's text.
  func writerError(kind: String, label: (UInt32) -> String) -> WriterError {
    switch self {
    case .outOfOrder(let previous, let next): return .outOfOrder(kind: kind, previous: previous, next: next)
    case .conflictingLabels(let number, let first, let second):
      return .conflictingLabels(number: number, first: label(first), second: label(second))
    case .overlappingRanges(let first, let second):
      return .overlappingRanges(
        first: first.numbers, firstLabel: label(first.label), second: second.numbers, secondLabel: label(second.label))
    case .numberInsideRange(let single, let range):
      return .numberInsideRange(
        number: single.numbers.lowerBound, label: label(single.label), range: range.numbers,
        rangeLabel: label(range.label))
    }
  }
}

/// What making the canonical form dropped or joined (`Spec/INPUT.md`, section 3).
public struct CanonicalStatistics: Sendable, Equatable {
  /// Entries and ranges that repeat an earlier one exactly (same kind, numbers and label).
  public var duplicates = 0
  /// Single numbers dropped because a range of the same kind (and label) covers them.
  public var covered = 0
  /// Ranges joined into another because they overlap or touch it.
  public var rangesMerged = 0

  /// No entries dropped or joined.
  public init() {}

  static func + (a: CanonicalStatistics, b: CanonicalStatistics) -> CanonicalStatistics {
    var sum = a
    sum.duplicates += b.duplicates
    sum.covered += b.covered
    sum.rangesMerged += b.rangesMerged
    return sum
  }
}
