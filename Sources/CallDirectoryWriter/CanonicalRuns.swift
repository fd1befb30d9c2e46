/// The canonical form of one kind's entries and ranges (`Spec/FORMAT.md`, section 10, and
/// `Spec/INPUT.md`, section 3.5), made in one sweep over runs given in ascending order of their
/// first number.
///
/// The runs may nest: each number answers to its own entry if it has one, else to the narrowest
/// range that holds it (the most specific entry wins). Ranges with different labels must be nested
/// or apart; two that are the same numbers, or overlap without one holding the other, are refused.
/// The sweep flattens what it accepts into what the format stores: ascending, disjoint ranges,
/// touching ones with the same label joined, and single entries that no range of the same answer
/// covers. A label can stand for "not listed" (a blocking list's exceptions): its numbers are
/// holes in the ranges around them and are never released.
///
/// Memory: the ranges open at the sweep's position (nested or overlapping it), the ranges and the
/// single given at that position, and one range piece waiting to be joined to the next.
struct CanonicalRuns {
  /// A run's numbers and its label id (for blocking runs, 0 or the exception label).
  struct Run: Equatable {
    var numbers: ClosedRange<Int64>
    var label: UInt32
  }

  /// What the runs added so far released, final and in ascending order.
  struct Released {
    /// Single entries.
    var singles: [Run] = []
    /// Ranges, each of two numbers or more.
    var ranges: [Run] = []

    /// Whether nothing was released.
    var isEmpty: Bool { singles.isEmpty && ranges.isEmpty }
  }

  /// A rule the runs broke, with the ids of the labels involved.
  enum Violation: Error {
    /// A run starts before one given before it.
    case outOfOrder(previous: Int64, next: Int64)
    /// One number given twice with two labels.
    case conflictingLabels(number: Int64, first: UInt32, second: UInt32)
    /// Two ranges with different labels are the same numbers, or overlap with neither holding
    /// the other: no entry is the more specific.
    case overlappingRanges(first: Run, second: Run)
  }

  /// Open ranges of one label that lie next to each other in the order of their last numbers
  /// (the innermost first): together they answer for a stretch of numbers.
  private struct Segment {
    var label: UInt32
    /// The last number of the segment's last range to end.
    var last: Int64
    var members = OpenRangeHeap()
  }

  /// The label whose numbers are not listed (exceptions), if the kind has one.
  let exceptionLabel: UInt32?
  /// What to do with a number given two single entries with different labels. Such entries
  /// arrive one after the other, in the order the policy judges them by.
  let labelConflicts: LabelConflictPolicy
  /// What the canonical form dropped or joined so far.
  private(set) var statistics = CanonicalStatistics()
  /// What the sweep has released and the caller has not taken yet.
  var released = Released()

  /// The first number of the runs given last: no run may start before it, refused ones included.
  private var position: Int64 = .min
  /// The ranges that start at `position`, by last number, with their labels.
  private var rangesHere: [Int64: UInt32] = [:]
  /// The single entry given at `position`, if any.
  private var singleHere: Run?
  /// The open ranges started before `position`, the outermost segment first. Every last number
  /// in a segment is at or below every last number of the segment before it, and neighbouring
  /// segments carry different labels.
  private var open: [Segment] = []
  /// The first number whose range answer is not released yet.
  private var next: Int64 = .min
  /// The last range piece released by the sweep, held until the next shows it cannot be joined.
  private var piece: Run?
  /// Where the last range that opened a segment of its own starts: a piece starting there that
  /// joins the held piece is a range merged with one it touches, not a range going on.
  private var enteredAt: Int64?
  /// The last number found with conflicting labels: counted once, and under `.leaveOut` every
  /// single entry of it is left out.
  private var conflictAt: Int64?

  /// A sweep whose runs labelled `exceptionLabel` are holes, not entries.
  init(exceptionLabel: UInt32? = nil, labelConflicts: LabelConflictPolicy = .refuse) {
    self.exceptionLabel = exceptionLabel
    self.labelConflicts = labelConflicts
  }

  /// Adds a run (one number when its ends are equal) with its label id. What it makes final is
  /// appended to `released`, except a single entry released on the fast path below, which is
  /// returned.
  /// - Throws: a `Violation` when the run is out of order or conflicts with an earlier one. A
  ///   refused run is left out; the runs after it must still not start before it.
  /// - Complexity: O(log d) amortised, for d ranges open at its first number; O(k log k) for the
  ///   first run after k ranges sharing a first number.
  mutating func add(_ numbers: ClosedRange<Int64>, label: UInt32) throws(Violation) -> Run? {
    let first = numbers.lowerBound
    guard first >= position else { throw .outOfOrder(previous: position, next: first) }
    // Most lists are single numbers with no range about: the single held before is then final,
    // and is handed back without going through `released`, as `advance` would have released it.
    if first > position, numbers.upperBound == first, open.isEmpty, rangesHere.isEmpty, piece == nil {
      let held = singleHere
      singleHere = Run(numbers: numbers, label: label)
      (position, next) = (first, first)
      return held?.label == exceptionLabel ? nil : held
    }
    if first > position { advance(to: first) }
    let run = Run(numbers: numbers, label: label)
    if numbers.upperBound == first {
      if conflictAt == first {
        // A third entry or more of a number whose labels conflict.
        if labelConflicts == .keepLast { singleHere = run }
      } else if let single = singleHere {
        if single.label == label {
          statistics.duplicates += 1
        } else {
          try conflict(single, run)
        }
      } else {
        singleHere = run
      }
      return nil
    }
    if let known = rangesHere[numbers.upperBound] {
      guard known == label else { throw .overlappingRanges(first: Run(numbers: numbers, label: known), second: run) }
      statistics.duplicates += 1
      return nil
    }
    try checkNesting(run)
    rangesHere[numbers.upperBound] = label
    return nil
  }

  /// Settles a second single entry `run` at `position` whose label differs from the one held.
  private mutating func conflict(_ held: Run, _ run: Run) throws(Violation) {
    switch labelConflicts {
    case .refuse: throw .conflictingLabels(number: position, first: held.label, second: run.label)
    case .keepFirst: break
    case .keepLast: singleHere = run
    case .leaveOut: singleHere = nil
    }
    conflictAt = position
    statistics.conflictingNumbers.append(position)
  }

  /// Releases what is still held, once every run has been added; a run added after is out of
  /// order, and finishing again does nothing.
  mutating func finish() {
    advance(to: .max)
    releasePiece()
  }

  /// Checks that `run`, which starts at `position`, lies inside or apart from every open range
  /// with another label. Ranges starting at `position` too are nested with it whatever their ends.
  private mutating func checkNesting(_ run: Run) throws(Violation) {
    guard !open.isEmpty else { return }
    let last = run.numbers.upperBound
    let top = open.count - 1
    open[top].members.removeEnding(before: position)
    // Not empty: the segment's last range ends at or after `position`, or `advance` closed it.
    guard let innermost = open[top].members.earliestEnding, innermost.last < last else { return }
    guard open[top].label == run.label else { throw .overlappingRanges(first: member(innermost, of: top), second: run) }
    // It overlaps ranges of its own label: the segment outside them must hold it.
    guard top > 0 else { return }
    open[top - 1].members.removeEnding(before: position)
    if let outer = open[top - 1].members.earliestEnding, outer.last < last {
      throw .overlappingRanges(first: member(outer, of: top - 1), second: run)
    }
  }

  private func member(_ member: OpenRangeHeap.Member, of segment: Int) -> Run {
    Run(numbers: member.first...member.last, label: open[segment].label)
  }

  /// Moves the sweep from `position` to `number`: the ranges and the single given at `position`
  /// take their place, and every answer below `number` is released.
  private mutating func advance(to number: Int64) {
    // Most runs are single numbers with no range open: that path allocates nothing.
    if !rangesHere.isEmpty {
      for last in rangesHere.keys.sorted(by: >) { enter(Run(numbers: position...last, label: rangesHere[last]!)) }
      rangesHere.removeAll(keepingCapacity: true)
    }
    if let single = singleHere {
      settle(single)
      singleHere = nil
    }
    if !open.isEmpty { release(upTo: number - 1) }  // number > position >= .min, so number - 1 does not wrap
    next = max(next, number)
    position = number
  }

  /// Adds a range starting at `position`, after every wider one starting there, to the open ranges.
  private mutating func enter(_ run: Run) {
    let member = OpenRangeHeap.Member(last: run.numbers.upperBound, first: run.numbers.lowerBound)
    if let top = open.indices.last, open[top].label == run.label {
      open[top].members.insert(member)
      open[top].last = max(open[top].last, member.last)
      statistics.rangesMerged += 1
      return
    }
    enteredAt = position
    var segment = Segment(label: run.label, last: member.last)
    segment.members.insert(member)
    open.append(segment)
  }

  /// Keeps or drops the single entry at `position`, whose ranges have all entered.
  private mutating func settle(_ single: Run) {
    if let top = open.last, top.label == single.label {
      statistics.covered += 1  // the range gives it the same answer
      return
    }
    releasePiece()
    if single.label != exceptionLabel { released.singles.append(single) }
    next = position + 1  // the single's number is a hole in the ranges; position < Int64.max
  }

  /// Releases the range answers from `next` up to `limit`, closing the segments that end there.
  private mutating func release(upTo limit: Int64) {
    while let top = open.last {
      if top.last < next {
        open.removeLast()
        continue
      }
      guard next <= limit else { break }
      let end = min(top.last, limit)
      join(Run(numbers: next...end, label: top.label))
      next = end + 1  // end <= Int64.max - 1
      if top.last <= limit { open.removeLast() }
    }
    next = max(next, limit &+ 1)  // limit < Int64.max
  }

  /// Joins `run` to the held piece when they touch with the same label; otherwise releases the
  /// held piece and holds `run`.
  private mutating func join(_ run: Run) {
    if let held = piece, held.label == run.label, held.numbers.upperBound + 1 == run.numbers.lowerBound {
      piece = Run(numbers: held.numbers.lowerBound...run.numbers.upperBound, label: run.label)
      if run.numbers.lowerBound == enteredAt { statistics.rangesMerged += 1 }
      return
    }
    releasePiece()
    piece = run
  }

  private mutating func releasePiece() {
    guard let held = piece else { return }
    piece = nil
    guard held.label != exceptionLabel else { return }
    if held.numbers.lowerBound == held.numbers.upperBound {
      released.singles.append(held)
    } else {
      released.ranges.append(held)
    }
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
    }
  }
}

/// What making the canonical form dropped or joined, and what the file stores
/// (`Spec/INPUT.md`, section 3.5).
///
///     var writer = try SortingDirectoryWriter(temporaryDirectory: "/tmp")
///     try writer.block(12_025_550_100)
///     try writer.block(12_025_550_100)
///     var file: [UInt8] = []
///     let statistics = try writer.finish { file += $0 }
///     print(statistics.duplicates, statistics.entriesStored)  // 1 1
public struct CanonicalStatistics: Sendable, Equatable {
  /// Entries and ranges that repeat an earlier one exactly (same kind, numbers and label).
  public var duplicates = 0
  /// Single numbers dropped because a range of the same kind (and label) covers them.
  public var covered = 0
  /// Ranges joined into another because they overlap or touch it.
  public var rangesMerged = 0
  /// Single entries the file stores, both kinds (counted as the writer releases them: all of them
  /// once it has finished).
  public var entriesStored = 0
  /// Ranges the file stores, both kinds, counted likewise.
  public var rangesStored = 0
  /// The numbers given two or more different labels, ascending, which the writer's
  /// `LabelConflictPolicy` settled (a writer that refuses them throws at the first instead).
  public var conflictingNumbers: [Int64] = []

  /// No entries dropped or joined.
  public init() {}

  static func + (a: CanonicalStatistics, b: CanonicalStatistics) -> CanonicalStatistics {
    var sum = a
    sum.duplicates += b.duplicates
    sum.covered += b.covered
    sum.rangesMerged += b.rangesMerged
    sum.entriesStored += b.entriesStored
    sum.rangesStored += b.rangesStored
    sum.conflictingNumbers += b.conflictingNumbers
    return sum
  }
}
