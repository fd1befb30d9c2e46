import CallDirectoryFormat

/// What a listing's entry asks for: one of a directory's two kinds, or an exception to blocking.
///
/// The raw values are the words of a listing's `kind` column (`Spec/INPUT.md`, section 3).
///
///     let kind = ListingKind(rawValue: "allow")  // .exception
///     print(kind?.entryKind == .blocking)        // true: an exception cuts holes in blocking ranges
public enum ListingKind: String, Sendable, Hashable, CaseIterable {
  /// Numbers to block.
  case blocking = "block"
  /// Numbers to identify, each with a label.
  case identification = "identify"
  /// Numbers not to block, though a blocking range of the same list holds them: the numbers are
  /// holes in the ranges around them (`Spec/INPUT.md`, section 3.5). A directory stores no
  /// exceptions, only the ranges they cut, so `unpack` never lists one.
  case exception = "allow"

  /// The listing kind of a directory's entries of `kind`.
  public init(_ kind: EntryKind) {
    switch kind {
    case .blocking: self = .blocking
    case .identification: self = .identification
    }
  }

  /// The directory kind whose entries this kind adds to or cuts: blocking for exceptions.
  public var entryKind: EntryKind {
    self == .identification ? .identification : .blocking
  }

  /// Whether entries of this kind carry a label.
  public var isLabelled: Bool { self == .identification }

  /// The words of the kind column, for messages: `"block", "identify" or "allow"`.
  static let expectedWords = "\"block\", \"identify\" or \"allow\""
}
