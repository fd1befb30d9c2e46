/// What a caller string names before its number is read (`Spec/RESOLUTION.md` section 6): a
/// withheld caller, or the text of a number, taken out of a SIP or SIPS URI, a display-name form
/// or angle brackets as PBXs pass them.
enum CallerString: Equatable {
  /// No number: the caller withheld it (`anonymous`, `restricted`, an empty string, RFC 3323's
  /// `sip:anonymous@anonymous.invalid`).
  case withheld
  /// The text to read as a number (a `tel:` URI is left to the number parser).
  case number(Substring)
  /// The user part of a SIP URI, to read as a number (a name there is said to be one).
  case sipUser(Substring)
  /// A SIP user part with a `phone-context` parameter: a local number, whose context is not
  /// read (RFC 3966 section 5.1.5), as a `tel:` URI's is not. The user part, parameters and all.
  case localSIPUser(Substring)
  /// A SIP URI whose user part is missing.
  case noUserPart
  /// Angle brackets that do not hold the one address of a name-addr: two addresses
  /// (`<tel:...>, <sip:...>`, as a P-Asserted-Identity header holds), text after the `>` other
  /// than header parameters, a bracket without its pair. Why, as a phrase.
  case malformedAddress(String)

  /// The words PBXs pass for a caller who withheld the number, compared without letter case.
  static let withheldWords: Set<String> = ["anonymous", "restricted", "unavailable", "private", "unknown", "withheld"]

  /// Reads `text`. O(length).
  init(_ text: String) {
    var rest = Substring(text).trimmingWhitespace
    // `"Name" <sip:...>;tag=1` or `Name <tel:...>`: the address is what the brackets hold.
    switch Self.bracketedAddress(rest) {
    case .success(let address?): rest = address
    case .success(nil): break
    case .failure(let reason):
      self = .malformedAddress(reason.message)
      return
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
    // The user part ends at its first parameter (`;npdi`, `;isub=...`), but a phone-context
    // there makes its number a local one, which is no more read as a guess here than in a tel: URI.
    let userPart = address[..<at]
    let user = userPart.prefix { $0 != ";" }
    if userPart.lowercased().contains(";phone-context=") && user.first != "+" {
      self = .localSIPUser(userPart)
      return
    }
    let host = address[address.index(after: at)...].prefix { $0 != ";" && $0 != ">" && $0 != ":" }
    if user.isEmpty {
      self = .noUserPart
    } else if Self.withheldWords.contains(user.lowercased()) || host.lowercased() == "anonymous.invalid" {
      self = .withheld
    } else {
      self = .sipUser(user)
    }
  }
}

extension CallerString {
  /// Why a string's angle brackets hold no one address.
  struct AddressError: Error {
    var message: String
  }

  /// The address a name-addr holds (RFC 3261 section 20.10): an optional display name (a quoted
  /// string, whose `\` escapes its next character, or words), then `<`, the address, `>`, and
  /// only header parameters after it (`;tag=...`, ignored). `nil` when `text` has no bracket
  /// outside a quoted display name.
  /// - Complexity: O(length).
  static func bracketedAddress(_ text: Substring) -> Result<Substring?, AddressError> {
    func fail(_ message: String) -> Result<Substring?, AddressError> { .failure(AddressError(message: message)) }
    var index = text.startIndex
    if text.first == "\"" {
      // The display name's closing quote, past escaped characters.
      index = text.index(after: index)
      while index < text.endIndex && text[index] != "\"" {
        if text[index] == "\\" && text.index(after: index) < text.endIndex { index = text.index(after: index) }
        index = text.index(after: index)
      }
      guard index < text.endIndex else { return fail("has a display name whose quote is never closed") }
      index = text.index(after: index)
    }
    let name = text[index...]
    guard let open = name.firstIndex(where: { $0 == "<" || $0 == ">" }) else {
      return index == text.startIndex ? .success(nil) : fail("has a display name but no <address>")
    }
    guard name[open] == "<", let close = name[open...].firstIndex(of: ">") else {
      return fail("has an angle bracket without its pair")
    }
    // An address before the brackets (`sip:a@x, <sip:b@x>`) is a second one, not a display name.
    let before = name[..<open].lowercased()
    if ["sip:", "sips:", "tel:"].contains(where: { before.contains($0) }) {
      return fail("holds more than one address: which is the caller cannot be known")
    }
    let address = name[name.index(after: open)..<close]
    let after = name[name.index(after: close)...].trimmingWhitespace
    guard !address.contains("<"), after.isEmpty || after.first == ";", !after.contains("<"), !after.contains(",") else {
      return fail("holds more than one address, or text after its '>': which is the caller cannot be known")
    }
    return .success(address.trimmingWhitespace)
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
