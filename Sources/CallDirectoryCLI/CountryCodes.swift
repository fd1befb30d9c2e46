/// ITU-T E.164 country calling codes, as data: the leading digits of an international number
/// that name its country or zone, for `info`'s and `stats`' breakdowns.
///
/// E.164 codes are prefix-free and one to three digits long: `1` (the North American Numbering
/// Plan) and `7` (Russia and Kazakhstan) are the only one-digit codes; the two-digit codes are
/// listed below; every other code is three digits (`44` is the United Kingdom, `353` Ireland).
/// So the code of a number is found from its first digits alone, without a full numbering plan.
enum CountryCodes {
  /// The one-digit codes.
  static let oneDigit: Set<Int> = [1, 7]

  /// The two-digit codes (ITU-T E.164 list of assigned country codes).
  static let twoDigit: Set<Int> = [
    20, 27,
    30, 31, 32, 33, 34, 36, 39,
    40, 41, 43, 44, 45, 46, 47, 48, 49,
    51, 52, 53, 54, 55, 56, 57, 58,
    60, 61, 62, 63, 64, 65, 66,
    81, 82, 84, 86,
    90, 91, 92, 93, 94, 95, 98,
  ]

  /// The calling code of `number` (full international digits, CallKit's form): its first digit
  /// when that is a one-digit code, else its first two when they are a two-digit code, else its
  /// first three (or the whole number when it is shorter: a short code such as 112).
  /// - Complexity: O(number of digits).
  static func code(of number: Int64) -> Int {
    var leading = number
    // Reduce to the first three digits; numbers are positive, so the loop ends.
    while leading >= 1000 { leading /= 10 }
    guard leading >= 100 else { return Int(leading) }
    if oneDigit.contains(Int(leading / 100)) { return Int(leading / 100) }
    if twoDigit.contains(Int(leading / 10)) { return Int(leading / 10) }
    return Int(leading)
  }
}
