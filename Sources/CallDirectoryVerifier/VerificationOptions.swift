import CallDirectoryFormat

/// What `Verifier` checks besides the format's own rules, and how much it reports.
///
///     var options = VerificationOptions()
///     options.callKit = true  // also flag what a CallKit load would refuse
///     let report = try Verifier.verify(path: "list.calldir", options: options)
///     print(report.isValid)
public struct VerificationOptions: Sendable, Equatable {
  /// Whether to flag what a CallKit load would refuse although the format allows it: more than
  /// `Limits.callKitMaximumEntriesPerLoad` entries, blocking and identification together.
  public var callKit: Bool = false
  /// The most problems a report lists (values below 1 count as 1). Verification stops at the
  /// first problem past it and marks the report `truncatedProblemList`, so a badly damaged file
  /// costs no more memory or time than this many problems.
  public var maximumProblems: Int = 1000
  /// Whether the label table is checked on a second thread while this one checks the entries.
  /// The report is the same either way; on one core there is nothing to gain.
  public var concurrent: Bool = true
  /// What the file must satisfy to be trusted: a signature by one of the trusted keys, a list
  /// version no lower than the installed one. The default requires neither.
  public var trust = TrustPolicy()

  /// The default options: format checks only, at most 1,000 problems.
  public init() {}
}
