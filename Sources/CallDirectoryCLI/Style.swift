import CallDirectory

/// The colours output uses for verdicts, as ANSI SGR sequences: one meaning for each colour in
/// every command (red refuses, green passes, yellow names), so a glance reads the same everywhere.
enum Style {
  /// A refusal: `block`, `INVALID`.
  case bad
  /// A pass: `allow`, `ok`.
  case good
  /// An identification: `identify`.
  case notice
  /// The program name that starts a diagnostic.
  case strong

  private var code: String {
    switch self {
    case .bad: return "31"
    case .good: return "32"
    case .notice: return "33"
    case .strong: return "1"
    }
  }

  /// `text` in this style when `enabled`, else `text` itself.
  func apply(_ text: String, enabled: Bool) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}

extension Resolution.Action {
  /// The colour this action is shown in: red blocks, yellow identifies, green allows.
  var style: Style {
    switch self {
    case .block: return .bad
    case .identify: return .notice
    case .allow: return .good
    }
  }
}
