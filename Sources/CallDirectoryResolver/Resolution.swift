/// A resolver's answer for one incoming number: what to do, with which label, who decided, and why.
///
/// `Spec/RESOLUTION.md` section 2 defines each field. The answer holds no reference to a
/// directory's reader: it stays valid after the directory is reloaded.
///
///     let answer = try resolver.resolve(caller: "+1 (202) 555-0100")
///     switch answer.action {
///     case .block: print("rejected")
///     case .identify: print("ringing, showing \(answer.label ?? "")")
///     case .allow: print("ringing")
///     }
public struct Resolution: Sendable, Equatable, CustomStringConvertible {
  /// What to do with the call.
  public enum Action: String, Sendable, Equatable, CaseIterable {
    /// Reject the call.
    case block
    /// Let it ring, showing the label.
    case identify
    /// Let it ring (a label, if any, is still shown).
    case allow
  }

  /// Why the answer is what it is: the precedence rule that decided (`Spec/RESOLUTION.md` section 4).
  public enum Reason: String, Sendable, Equatable, CaseIterable {
    /// The caller is an emergency number: never blocked, no directory consulted.
    case emergency
    /// An allow list lists the number, which overrides every block.
    case allowListed
    /// The first directory in stack order that lists the number blocks it.
    case blocked
    /// The first directory in stack order that lists the number identifies it without blocking it.
    case identified
    /// No directory lists the number.
    case notListed
    /// The caller withheld the number (`anonymous`, `restricted`, an empty caller): allowed, or
    /// blocked when the resolver blocks withheld callers.
    case withheld

    /// The action this reason leads to.
    public var action: Action {
      switch self {
      case .blocked: return .block
      case .identified: return .identify
      case .emergency, .allowListed, .notListed, .withheld: return .allow
      }
    }
  }

  /// A directory of the stack: its position (0 is the top) and its name.
  public struct Directory: Sendable, Equatable, CustomStringConvertible {
    /// The position in the stack, 0 for the top (consulted first).
    public var index: Int
    /// The name the directory was given in the stack.
    public var name: String

    /// A reference to directory `index`, named `name`.
    public init(index: Int, name: String) {
      self.index = index
      self.name = name
    }

    /// `"#INDEX NAME"`.
    public var description: String { "#\(index) \(name)" }
  }

  /// Why the answer is what it is.
  public var reason: Reason
  /// The normalised number (CallKit's form: the international digits), or `nil` when the caller
  /// matched an emergency code as written and was not parsed.
  public var number: Int64?
  /// The emergency code that matched, when `reason` is `.emergency`.
  public var emergencyCode: String?
  /// The label to show, if any: the deciding directory's, or for an allow-listed number the allow
  /// list's, else the first label in stack order (`Spec/RESOLUTION.md` section 2).
  public var label: String?
  /// The directory that decided; `nil` for `.emergency` and `.notListed`.
  public var directory: Directory?
  /// The directory the label came from; `nil` when there is no label.
  public var labelDirectory: Directory?
  /// Whether a withheld caller is blocked (the resolver's `blocksWithheld`).
  private var blocksWithheld = false

  /// An answer with the given fields.
  public init(
    reason: Reason, number: Int64?, emergencyCode: String? = nil, label: String? = nil, directory: Directory? = nil,
    labelDirectory: Directory? = nil
  ) {
    self.reason = reason
    self.number = number
    self.emergencyCode = emergencyCode
    self.label = label
    self.directory = directory
    self.labelDirectory = labelDirectory
  }

  /// The answer for a withheld caller: allowed, or blocked when `blocksWithheld`.
  init(reason: Reason, number: Int64?, blocksWithheld: Bool) {
    self.init(reason: reason, number: number)
    self.blocksWithheld = blocksWithheld
  }

  /// What to do with the call: follows from `reason`, except that a withheld caller is blocked
  /// by a resolver that blocks withheld callers.
  public var action: Action { reason == .withheld && blocksWithheld ? .block : reason.action }

  /// A one-line summary, such as `block "Spam Risk" (blocked by #1 spam.calldir)`.
  public var description: String {
    var text = action.rawValue
    if let label { text += " \"\(label)\"" }
    text += " (\(reason.rawValue)"
    if let directory { text += " by \(directory)" }
    if let emergencyCode { text += " \(emergencyCode)" }
    return text + ")"
  }
}
