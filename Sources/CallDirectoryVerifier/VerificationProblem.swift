import CallDirectoryFormat

/// One problem the verifier found: what is wrong and where, as a `FormatError`.
///
///     for problem in report.problems { print(problem) }
///     // block 3 checksum mismatch (stored 0x1c291ca3, computed 0x5e0a5b6f) at byte 911 (section BDAT)
public struct VerificationProblem: Sendable, Equatable, CustomStringConvertible {
  /// What is wrong (`error.kind`), the byte offset in the file where it was found
  /// (`error.offset`) and the section it lies in (`error.section`).
  public var error: FormatError
  /// Whether this is a CallKit limit rather than a format rule: the file is well formed, but a
  /// CallKit load would refuse it. Only reported with `VerificationOptions.callKit`.
  public var isCallKitLimit: Bool

  /// A problem with the given fields.
  public init(error: FormatError, isCallKitLimit: Bool = false) {
    self.error = error
    self.isCallKitLimit = isCallKitLimit
  }

  /// A one-line message: the error's, marked when it is a CallKit limit.
  public var description: String {
    isCallKitLimit ? "CallKit limit: \(error)" : error.description
  }
}
