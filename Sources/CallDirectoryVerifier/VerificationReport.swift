import CallDirectoryFormat

/// The outcome of verifying one file: every problem found, in the order found, and the counts the
/// file declares.
///
///     let report = try Verifier.verify(path: "list.calldir")
///     if !report.isValid { report.problems.forEach { print($0) } }
public struct VerificationReport: Sendable, Equatable {
  /// The problems found, at most `VerificationOptions.maximumProblems` of them, in the order
  /// checked: section checksums, the index headers, the CallKit limit, then blocking entries,
  /// identification entries and labels, each in file order. A header or section table that
  /// cannot be read is the only problem: without it nothing else can be located.
  public var problems: [VerificationProblem]
  /// Whether verification stopped because there were more problems than the list may hold.
  public var truncatedProblemList: Bool
  /// The blocking entries the file's index declares (0 when the header cannot be read).
  public var blockingCount: Int
  /// The identification entries the file's index declares (0 when the header cannot be read).
  public var identificationCount: Int
  /// The labels the file's label index declares (0 when the header cannot be read).
  public var labelCount: Int
  /// The blocking ranges the file's range table declares, besides `blockingCount` single
  /// entries (0 when the header cannot be read).
  public var blockingRangeCount = 0
  /// The identification ranges the file's range table declares, besides
  /// `identificationCount` single entries (0 when the header cannot be read).
  public var identificationRangeCount = 0
  /// The provider's list version the file carries (0 when it has none or cannot be read).
  public var listVersion: UInt64 = 0
  /// The trusted key whose signature verified, when `VerificationOptions.trust` has keys and the
  /// file passed; `nil` otherwise.
  public var signer: PublicKey? = nil
  /// Why `VerificationOptions.trust` refuses the file, when it does: checked after the bytes,
  /// whatever their problems, so a damaged file that is also unsigned says both.
  public var authenticityFailure: AuthenticityFailure? = nil

  /// Whether no problem was found and the trust policy accepts the file: the reader may trust
  /// every byte of it, and, when the CallKit checks were asked for, CallKit would accept it.
  public var isValid: Bool { problems.isEmpty && authenticityFailure == nil }
}
