extension PhoneNumberParser {
  /// Parses a number, or a range of numbers, as block and identify inputs write them.
  ///
  /// - `FIRST..LAST`: both ends are numbers under the rules of ``parse(_:)``, `LAST >= FIRST`
  ///   (`+33 899 000 000..+33 899 999 999`).
  /// - A pattern whose last digits are wildcards, each `#` or `X` standing for one digit
  ///   (`+33899######`, `+1 202 555 XXXX`): the range from the pattern with every wildcard 0 to
  ///   the pattern with every wildcard 9. A digit after a wildcard is an error: the numbers would
  ///   not be one interval; so is a wildcard before the first digit.
  /// - Anything else: a single number, a range of one.
  ///
  /// National forms work as for single numbers (`0899 ### ###` under country code 33).
  /// - Throws: ``PhoneNumberError`` for either end, ``PhoneNumberError/Kind/invertedRange``,
  ///   ``PhoneNumberError/Kind/wildcardNotAtEnd``, or ``PhoneNumberError/Kind/wildcardFirst``.
  /// - Complexity: O(n) in the field's length; allocates only for patterns.
  public func parseEntry(utf8 bytes: ArraySlice<UInt8>) throws(PhoneNumberError) -> ClosedRange<Int64> {
    // One pass tells the common case, a single number, from the rest: without a `.`, `#`, `X`
    // or `;` the field is neither a range, a pattern nor a tel: URI with parameters.
    guard bytes.contains(where: { $0 == 0x2E || $0 == 0x23 || $0 == 0x58 || $0 == 0x3B }) else {
      let single = try parse(utf8: bytes)
      return single...single
    }
    if let dots = Self.rangeOperator(in: bytes) {
      let (start, end) = (bytes[bytes.startIndex..<dots], bytes[(dots + 2)...])
      let first = try parse(utf8: start)
      let last = try parse(utf8: end)
      // Under a default country an end without `+` may be read with its calling code written or
      // as a national number: both ends must be read alike.
      if defaultCountryCode != nil && !(Self.isInternational(start) && Self.isInternational(end))
        && !NumberingPlan.shared.readAlike(first, last)
      {
        throw PhoneNumberError(
          kind: .endsReadDifferently(first: first, last: last), input: String(decoding: bytes, as: UTF8.self))
      }
      guard first <= last else { throw PhoneNumberError(kind: .invertedRange, input: String(decoding: bytes, as: UTF8.self)) }
      return first...last
    }
    // A tel: URI's parameters (`;ext=7`) are not part of the number: no wildcards there.
    let number = bytes.prefix { $0 != 0x3B }
    guard number.contains(where: Self.isWildcard) else {
      let single = try parse(utf8: bytes)
      return single...single
    }
    var sawWildcard = false
    var sawDigit = false
    for byte in number {
      if Self.isWildcard(byte) {
        guard sawDigit else { throw PhoneNumberError(kind: .wildcardFirst, input: String(decoding: bytes, as: UTF8.self)) }
        sawWildcard = true
      } else if byte >= 0x30 && byte <= 0x39 {
        sawDigit = true
        guard !sawWildcard else { throw PhoneNumberError(kind: .wildcardNotAtEnd, input: String(decoding: bytes, as: UTF8.self)) }
      }
    }
    // The bounds keep what follows the number, so that the parser judges it as it judges it
    // after a single number: a tel: URI's parameters, and nothing else.
    let rest = bytes[number.endIndex...]
    let low = number.map { Self.isWildcard($0) ? 0x30 : $0 } + rest
    let high = number.map { Self.isWildcard($0) ? 0x39 : $0 } + rest
    let first: Int64
    let last: Int64
    do {
      first = try parse(utf8: low[...])
      last = try parse(utf8: high[...])
    } catch {
      // Named as written, not as a bound made from it; offsets are the same in both.
      throw PhoneNumberError(kind: error.kind, input: String(decoding: bytes, as: UTF8.self))
    }
    // Each end is read on its own, and a default country's rules may read the two differently
    // (`33 #########` under FR: +33 00000000 and +33 999999999). The pattern means what it says
    // only when the wildcards are the last digits of both ends as read: its digits but those
    // alike, zeros at the start's end, nines at the end's.
    guard Self.wildcardsEndBoth(first, last, wildcards: number.count(where: Self.isWildcard)) else {
      throw PhoneNumberError(
        kind: .endsReadDifferently(first: first, last: last), input: String(decoding: bytes, as: UTF8.self))
    }
    return first...last
  }

  /// Whether `first` and `last` have as many digits, the same digits but their last
  /// `wildcards`, and there all zeros and all nines.
  private static func wildcardsEndBoth(_ first: Int64, _ last: Int64, wildcards: Int) -> Bool {
    var (low, high) = (first, last)
    for _ in 0..<wildcards {
      guard low % 10 == 0, high % 10 == 9 else { return false }
      (low, high) = (low / 10, high / 10)
    }
    return low == high && low > 0
  }

  /// Whether the number `bytes` begins with `+` (after spaces, and a `tel:` prefix): its digits
  /// are then read as written, whatever the default country.
  private static func isInternational(_ bytes: ArraySlice<UInt8>) -> Bool {
    var rest = bytes.drop { $0 == 0x20 || $0 == 0x09 }
    if rest.count >= 4, rest.prefix(4).map({ $0 | 0x20 }) == Array("tel:".utf8) {
      rest = rest.dropFirst(4).drop { $0 == 0x20 || $0 == 0x09 }
    }
    return rest.first == 0x2B
  }

  /// Parses a number or range given as text; see ``parseEntry(utf8:)``.
  /// - Throws: ``PhoneNumberError``.
  public func parseEntry(_ text: some StringProtocol) throws(PhoneNumberError) -> ClosedRange<Int64> {
    let bytes = Array(text.utf8)
    return try parseEntry(utf8: bytes[...])
  }

  /// The index of the first `..` in `bytes`, if any.
  private static func rangeOperator(in bytes: ArraySlice<UInt8>) -> Int? {
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex {
      if bytes[index] == 0x2E && bytes[index + 1] == 0x2E { return index }
      index += 1
    }
    return nil
  }

  /// `#` or `X`. A lower-case `x` is not a wildcard: in `555-0100 x12` it is a typo or an extension.
  private static func isWildcard(_ byte: UInt8) -> Bool { byte == 0x23 || byte == 0x58 }
}
