import CallDirectory

// `--country`: a region (`GB`, `us`) or a calling code (`44`, `+44`), which selects the main
// region of the code, resolved once as the arguments are parsed.

extension Command {
  /// The region `--country TEXT` names.
  ///
  /// - Throws: `UsageError` (exit code 2) for a code no region has or a name that is no region,
  ///   suggesting the nearest region name when one is close.
  static func countryRegion(_ text: String, command: String) throws(UsageError) -> String {
    let plan = NumberingPlan.shared
    let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
    if let code = Int(digits), digits.allSatisfy(\.isASCII) {
      guard digits.first != "0", let region = plan.mainRegion(callingCode: code),
        region.name != NumberingRegion.nonGeographic
      else {
        throw UsageError(
          "--country \(text) is no calling code of a region; give one such as 1 or 44, or a region such as US or GB",
          command: command)
      }
      return region.name
    }
    let name = text.uppercased()
    if plan.region(named: name) != nil { return name }
    var message = "--country \(text) is no region; give an ISO 3166 code such as US or GB, or a calling code such as 1 or 44"
    // Two-letter names are all near one another: suggest only a name one letter away, or GB
    // for UK, the one common name that is not the ISO code.
    let near = name == "UK" ? "GB" : plan.regionNames.first { Suggestion.distance(Array(name), Array($0)) == 1 }
    if let near { message += "; did you mean \(near)?" }
    throw UsageError(message, command: command)
  }
}

extension PhoneNumberParser {
  /// A parser for `--country`'s region, or with no default country when it is `nil`.
  init(region: String?, digitLimits: ClosedRange<Int> = PhoneNumberParser.e164Digits) throws(ConfigurationError) {
    if let region {
      try self.init(defaultRegion: region, digitLimits: digitLimits)
    } else {
      try self.init(defaultCountryCode: nil, digitLimits: digitLimits)
    }
  }
}
