// How libphonenumber reads digits written without '+' when a region is the default: first an
// international prefix, then the region's own calling code written out, then a trunk prefix
// by the region's national-prefix-for-parsing rule. Each step keeps the digits unchanged when
// the change would make a number that fits the plan worse, as libphonenumber's does.

extension NumberingRegion {
  /// How a digit count compares with the region's possible lengths (libphonenumber's
  /// `ValidationResult`).
  enum LengthFit { case possible, localOnly, tooShort, tooLong, invalid }

  /// Reads `digits` (values 0 ... 9, no `+` before them) as written in this region.
  ///
  /// - Returns: the calling code and the national number that follows it (the national number
  ///   may be empty or too long, which the caller's digit limits then refuse), and whether an
  ///   international prefix was read (the number is then written in full, whatever its length);
  ///   or `nil` when an international prefix is followed by no assigned calling code.
  /// - Complexity: O(*p* · *n*) in the patterns' size and the count of digits.
  func read(national digits: [UInt8]) -> (code: Int, national: [UInt8], international: Bool)? {
    if let international = internationalPrefix, let match = international.prefixMatch(digits[...]),
      let end = match[0]?.upperBound, end > 0
    {
      // A 0 after the prefix means the prefix was part of a national number: no calling code
      // begins with 0.
      if end == digits.count || digits[end] != 0 {
        let rest = Array(digits[end...])
        guard let (code, length) = Self.callingCode(prefixing: rest) else { return nil }
        return (code, Array(rest[length...]), true)
      }
    }
    let code = callingCodeDigits
    if digits.starts(with: code) {
      let rest = strippingNationalPrefix(Array(digits[code.count...]))
      if (!matchesNational(digits) && matchesNational(rest)) || fit(digits.count) == .tooLong {
        return (callingCode, rest, false)
      }
    }
    return (callingCode, readingTrunkPrefix(digits), false)
  }

  /// The national number behind a trunk prefix: `digits` stripped by
  /// ``strippingNationalPrefix(_:)``, unless the result is not a possible length.
  func readingTrunkPrefix(_ digits: [UInt8]) -> [UInt8] {
    let stripped = strippingNationalPrefix(digits)
    switch fit(stripped.count) {
    case .tooShort, .localOnly, .invalid: return digits
    case .possible, .tooLong: return stripped
    }
  }

  /// The digits with the region's trunk prefix (and any carrier code) removed or transformed by
  /// its national-prefix-for-parsing rule, unless the digits fit the plan and the result would not.
  func strippingNationalPrefix(_ digits: [UInt8]) -> [UInt8] {
    guard !digits.isEmpty, let prefix = prefixForParsing, let match = prefix.prefixMatch(digits[...]),
      let whole = match[0]
    else { return digits }
    let viable = matchesNational(digits)
    let last = match[match.count - 1]
    let result: [UInt8]
    if let rule = transformRule, last != nil {
      result = Self.apply(rule, match, digits) + digits[whole.upperBound...]
    } else {
      result = Array(digits[whole.upperBound...])
    }
    if viable && !matchesNational(result) { return digits }
    return result
  }

  /// Whether the whole of `digits` matches the region's pattern of valid national numbers.
  func matchesNational(_ digits: [UInt8]) -> Bool {
    nationalNumberPattern?.wholeMatch(digits[...]) ?? false
  }

  /// libphonenumber's `testNumberLength` for a national number of `count` digits.
  func fit(_ count: Int) -> LengthFit {
    guard let minimum = possibleLengths.first, let maximum = possibleLengths.last else { return .invalid }
    if localOnlyLengths.contains(count) { return .localOnly }
    if count == minimum { return .possible }
    if count < minimum { return .tooShort }
    if count > maximum { return .tooLong }
    return possibleLengths.contains(count) ? .possible : .invalid
  }

  /// `rule` with `$1` ... `$9` replaced by the groups' digits (nothing for a group that took no part).
  static func apply(_ rule: String, _ match: [Range<Int>?], _ digits: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    var reference = false
    for byte in rule.utf8 {
      if reference {
        reference = false
        let group = Int(byte) - 0x30
        if group >= 1, group < match.count, let range = match[group] { result += digits[range] }
      } else if byte == UInt8(ascii: "$") {
        reference = true
      } else if byte >= 0x30 && byte <= 0x39 {
        result.append(byte - 0x30)
      }
    }
    return result
  }

  /// The assigned calling code among the first one, two or three of `digits`, and its length.
  static func callingCode(prefixing digits: [UInt8]) -> (code: Int, length: Int)? {
    guard let first = digits.first, first != 0 else { return nil }
    var code = 0
    for length in 1...min(3, digits.count) {
      code = code * 10 + Int(digits[length - 1])
      if NumberingPlan.shared.isAssigned(callingCode: code) { return (code, length) }
    }
    return nil
  }

  /// The decimal digit values of a positive `value`, most significant first.
  static func digits(of value: Int) -> [UInt8] {
    var result: [UInt8] = []
    var rest = value
    repeat {
      result.append(UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    return result.reversed()
  }
}
