import CallDirectoryFormat
import CallDirectoryListing

/// Answers an incoming call across an ordered stack of directories: block, identify or allow,
/// with the label to show and the directory that decided.
///
/// The rules are `Spec/RESOLUTION.md`'s, in this order: an emergency number is never blocked; an
/// allow list that lists the number overrides every block; otherwise the first directory in stack
/// order that lists the number decides, blocking winning over identification within it; a number
/// no directory lists is allowed.
///
///     let resolver = try Resolver(
///       sources: [
///         .init(name: "contacts", role: .allowList, provider: try ReloadingDirectory(path: "contacts.calldir")),
///         .init(name: "spam", provider: try ReloadingDirectory(path: "spam.calldir")),
///         .init(name: "business", provider: try ReloadingDirectory(path: "business.calldir")),
///       ],
///       defaultCountryCode: 1)
///     let answer = try resolver.resolve(caller: "(202) 555-0100")
///     print(answer.action)                  // block
///     print(answer.label ?? "")             // Spam Risk
///     print(answer.directory?.name ?? "")   // spam
///
/// A resolver is an immutable value and `Sendable`: share it between threads. Each query asks
/// each provider for its reader once, so it is answered from one version of every directory even
/// while files are being replaced.
public struct Resolver: Sendable {
  /// What a directory's entries mean to the resolver.
  public enum Role: String, Sendable, Equatable {
    /// Blocking entries block, identification entries identify, in stack order.
    case standard
    /// Every entry, of either kind, allows the number, overriding blocks anywhere in the stack.
    /// Identification labels name the caller (the way a phone's contacts do).
    case allowList
  }

  /// One directory of the stack.
  public struct Source: Sendable {
    /// The name answers report (a file name, or "contacts").
    public var name: String
    /// What the directory's entries mean.
    public var role: Role
    /// Where the directory's current reader comes from.
    public var provider: any DirectoryProvider

    /// A directory named `name` with role `role`, read through `provider`.
    public init(name: String, role: Role = .standard, provider: any DirectoryProvider) {
      self.name = name
      self.role = role
      self.provider = provider
    }
  }

  /// The directories, top (consulted first) to bottom.
  public let sources: [Source]
  /// The numbers never blocked.
  public let emergencyNumbers: EmergencyNumbers
  /// The normaliser applied to caller strings.
  public let parser: PhoneNumberParser
  /// The index of the lowest allow list, or -1: below it, the first decision is final.
  let lastAllowList: Int

  /// A resolver over `sources`, top first.
  ///
  /// - Parameters:
  ///   - sources: the stack, top (consulted first) to bottom; may be empty (every number is then
  ///     allowed as not listed).
  ///   - emergencyNumbers: the numbers never blocked; ``EmergencyNumbers/standard`` by default.
  ///   - defaultCountryCode: the calling code (1 ... 999) for caller strings written without `+`,
  ///     or `nil` when such strings are full international numbers (`12025550100`).
  ///   - digitLimits: the digit counts a caller's international number may have; by default every
  ///     count a directory can store (1 ... 19, as `calldir lookup` reads numbers).
  /// - Throws: `ConfigurationError` when `defaultCountryCode` or `digitLimits` is outside what
  ///   `PhoneNumberParser` accepts.
  public init(
    sources: [Source], emergencyNumbers: EmergencyNumbers = .standard, defaultCountryCode: Int? = nil,
    digitLimits: ClosedRange<Int> = PhoneNumberParser.formatDomainDigits
  ) throws(ConfigurationError) {
    self.init(
      sources: sources, emergencyNumbers: emergencyNumbers,
      parser: try PhoneNumberParser(defaultCountryCode: defaultCountryCode, digitLimits: digitLimits))
  }

  /// A resolver over `sources` that reads caller strings written without `+` by the rules of
  /// `defaultRegion`, as someone there would dial: its trunk prefix and its local numbers (a
  /// 7-digit Barbados number is +1 246 and those digits, which the calling code 1 alone cannot
  /// tell).
  ///
  ///     let resolver = try Resolver(sources: [], defaultRegion: "BB")
  ///     print(try resolver.resolve(caller: "430-1234").number ?? 0)  // 12464301234
  ///
  /// - Parameters:
  ///   - defaultRegion: an ISO 3166 region code of `NumberingPlan`, in any letter case (`GB`).
  ///   - sources: the stack, top first, as for the calling-code initializer.
  ///   - emergencyNumbers: the numbers never blocked.
  ///   - digitLimits: the digit counts a caller's international number may have.
  /// - Throws: `ConfigurationError` when the plan has no such region, or `digitLimits` is outside
  ///   what `PhoneNumberParser` accepts.
  public init(
    sources: [Source], emergencyNumbers: EmergencyNumbers = .standard, defaultRegion: String,
    digitLimits: ClosedRange<Int> = PhoneNumberParser.formatDomainDigits
  ) throws(ConfigurationError) {
    self.init(
      sources: sources, emergencyNumbers: emergencyNumbers,
      parser: try PhoneNumberParser(defaultRegion: defaultRegion, digitLimits: digitLimits))
  }

  private init(sources: [Source], emergencyNumbers: EmergencyNumbers, parser: PhoneNumberParser) {
    self.sources = sources
    self.emergencyNumbers = emergencyNumbers
    self.parser = parser
    self.lastAllowList = sources.lastIndex { $0.role == .allowList } ?? -1
  }

  /// Whether a withheld caller (`anonymous`, `restricted`, an empty caller; `Spec/RESOLUTION.md`
  /// section 6) is blocked rather than allowed. Off by default.
  public var blocksWithheld = false

  /// The calling code applied to caller strings written without `+`, if any.
  public var defaultCountryCode: Int? { parser.defaultCountryCode }

  /// The region whose rules read caller strings written without `+`, if any: the one given, or
  /// the main region of the calling code given (`US` for 1).
  public var defaultRegion: String? { parser.defaultRegion }
}
