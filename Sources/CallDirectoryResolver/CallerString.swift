/// What a caller string names before its number is read (`Spec/RESOLUTION.md` section 6): a
/// withheld caller, or the text of a number, taken out of a SIP or SIPS URI, a display-name form
/// or angle brackets as PBXs pass them.
enum CallerString: Equatable {
  /// No number: the caller withheld it (`anonymous`, `restricted`, an empty string, RFC 3323's
  /// `sip:anonymous@anonymous.invalid`).
  case withheld
  /// The text to read as a number (a `tel:` URI is left to the number parser).
  case number(Substring)
  /// A SIP URI whose user part is missing.
  case noUserPart

  /// The words PBXs pass for a caller who withheld the number, compared without letter case.
  static let withheldWords: Set<String> = ["anonymous", "restricted", "unavailable", "private", "unknown", "withheld"]

  /// Reads `text`. O(length).
  init(_ text: String) {
    var rest = Substring(text).trimmingWhitespace
    // `"Name" <sip:...>` or `Name <tel:...>`: the address is what the brackets hold.
    if let open = rest.lastIndex(of: "<"), rest.last == ">" {
      rest = rest[rest.index(after: open)..<rest.index(before: rest.endIndex)].trimmingWhitespace
    }
    guard !rest.isEmpty, !Self.withheldWords.contains(rest.lowercased()) else {
      self = .withheld
      return
    }
    let lowered = rest.prefix(5).lowercased()
    let scheme = lowered.hasPrefix("sips:") ? 5 : lowered.hasPrefix("sip:") ? 4 : 0
    guard scheme > 0 else {
      self = .number(rest)
      return
    }
    let address = rest.dropFirst(scheme)
    guard let at = address.firstIndex(of: "@") else {
      self = .noUserPart
      return
    }
    // The user part ends at its first parameter (`;npdi`, `;isub=...`).
    let user = address[..<at].prefix { $0 != ";" }
    let host = address[address.index(after: at)...].prefix { $0 != ";" && $0 != ">" && $0 != ":" }
    if user.isEmpty {
      self = .noUserPart
    } else if Self.withheldWords.contains(user.lowercased()) || host.lowercased() == "anonymous.invalid" {
      self = .withheld
    } else {
      self = .number(user)
    }
  }
}

extension Substring {
  /// The text without spaces and tabs at either end.
  fileprivate var trimmingWhitespace: Substring {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
    return self[first...last]
  }
}
