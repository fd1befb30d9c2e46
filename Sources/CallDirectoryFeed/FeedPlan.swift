/// The size of a load, known before its first entry is sent.
///
/// Counts are of numbers, ranges expanded, and saturate at `Int.max` instead of wrapping.
/// `fits` says whether one load can take every addition; when it cannot, feed it in
/// `loadsNeeded` parts with a `FeedCursor`.
///
///     let plan = try DirectoryFeed(reader).plan()
///     if !plan.fits { print("\(plan.additions) additions: \(plan.loadsNeeded) loads of \(plan.limit)") }
public struct FeedPlan: Sendable, Hashable {
  /// Blocking numbers to add.
  public var blockingAdditions: Int
  /// Identification numbers to add.
  public var identificationAdditions: Int
  /// Blocking numbers to remove (incremental loads only; zero for a full load).
  public var blockingRemovals: Int
  /// Identification numbers to remove (incremental loads only; zero for a full load).
  public var identificationRemovals: Int
  /// The most additions one load may send (CallKit's `Limits.callKitMaximumEntriesPerLoad` by default).
  public var limit: Int

  /// A plan of these counts under `limit`.
  public init(
    blockingAdditions: Int, identificationAdditions: Int, blockingRemovals: Int = 0, identificationRemovals: Int = 0,
    limit: Int
  ) {
    self.blockingAdditions = blockingAdditions
    self.identificationAdditions = identificationAdditions
    self.blockingRemovals = blockingRemovals
    self.identificationRemovals = identificationRemovals
    self.limit = limit
  }

  /// Every addition, both kinds, saturating.
  public var additions: Int { Saturating.add(blockingAdditions, identificationAdditions) }

  /// Every removal, both kinds, saturating.
  public var removals: Int { Saturating.add(blockingRemovals, identificationRemovals) }

  /// Whether one load takes every addition.
  public var fits: Bool { additions <= limit }

  /// How many loads of at most `limit` additions the work needs (at least 1).
  public var loadsNeeded: Int {
    guard limit > 0, additions > 0 else { return 1 }
    return additions / limit + (additions % limit == 0 ? 0 : 1)
  }
}

/// Counting that stops at `Int.max`: a hostile range count must not wrap into a small one.
enum Saturating {
  static func add(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  /// The count of numbers in `range`; at most `Int64.max`, so it fits in a 64-bit `Int`.
  static func count(_ range: ClosedRange<Int64>) -> Int {
    let (span, overflow) = range.upperBound.subtractingReportingOverflow(range.lowerBound)
    guard !overflow, span < .max else { return .max }
    return Int(exactly: span + 1) ?? .max  // span < Int64.max: the + 1 cannot wrap
  }
}
