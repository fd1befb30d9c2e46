import CallDirectoryFormat

/// The problems found so far, capped so that a file damaged everywhere costs bounded memory.
struct ProblemList: Sendable {
  private let limit: Int
  private(set) var problems: [VerificationProblem] = []
  /// Set by the first problem past the cap: from then on the checks stop.
  private(set) var isOverflowing = false

  init(limit: Int) {
    self.limit = max(1, limit)
  }

  /// Adds `error`, or marks the list overflowing when it is full.
  mutating func record(_ error: FormatError, callKitLimit: Bool = false) {
    guard !isOverflowing else { return }
    guard problems.count < limit else {
      isOverflowing = true
      return
    }
    problems.append(VerificationProblem(error: error, isCallKitLimit: callKitLimit))
  }

  /// Adds the problems of `other`, found by checks that ran beside this list's, as if they had
  /// been recorded here after the others: the cap applies to both together.
  mutating func append(_ other: ProblemList) {
    for problem in other.problems { record(problem.error, callKitLimit: problem.isCallKitLimit) }
    if other.isOverflowing { isOverflowing = true }
  }
}
