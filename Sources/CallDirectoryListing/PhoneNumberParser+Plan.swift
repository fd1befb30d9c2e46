// The national reading of `PhoneNumberParser` when its default country has a region in the
// numbering plan: the scan has checked the characters and counted the digits; this collects
// them and lets the region's rules decide the calling code and the national number.

extension PhoneNumberParser {
  /// Reads the digits of `bytes`, written without `+`, by `region`'s rules.
  ///
  /// - Returns: the international number's digit count and value, and whether the value
  ///   overflowed `Int64` (the caller's limits then refuse it).
  /// - Throws: ``PhoneNumberError`` for more digits than ``DigitPattern/maximumDigits``, or an
  ///   international prefix followed by no assigned calling code.
  /// - Complexity: O(*p* · *n*) in the size of the region's patterns and the count of digits.
  func readNational<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, digitCount: Int, region: NumberingRegion
  ) throws(PhoneNumberError) -> (digits: Int, number: Int64, overflowed: Bool) {
    let digits = try digitValues(of: bytes, digitCount: digitCount, skipping: 0)
    guard let read = region.read(national: digits) else {
      // An international prefix with nothing after it, or no calling code after it.
      let bare = region.internationalPrefix?.prefixMatch(digits[...])?[0]?.upperBound == digits.count
      throw PhoneNumberError(
        kind: bare ? .tooFewDigits(found: 0, minimum: digitLimits.lowerBound) : .unassignedCallingCode,
        input: String(decoding: bytes, as: UTF8.self))
    }
    // Dialled without its area code, a number's area is unknown: reading it as a whole national
    // number would store another number (`555-0100` under US is not +1 555 0100). A number after
    // an international prefix is written in full (rule 5.4).
    if !read.international, read.code == region.callingCode, region.fit(read.national.count) == .localOnly {
      throw PhoneNumberError(
        kind: .localNumber(digits: read.national.count, region: region.name), input: String(decoding: bytes, as: UTF8.self))
    }
    return Self.international((read.code, read.national))
  }

  /// Reads `+CC (0) NATIONAL` as libphonenumber reads `+CC 0NATIONAL`: the 0 and what follows
  /// go through `region`'s trunk prefix rule, which drops the 0 unless the number without it is
  /// not a possible length (`+57 (0) 321 1234567` keeps it, as libphonenumber does).
  ///
  /// - Parameter digitCount: the digits of `bytes`, the `(0)` not counted.
  func readTrunkZero<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, digitCount: Int, region: NumberingRegion
  ) throws(PhoneNumberError) -> (digits: Int, number: Int64, overflowed: Bool) {
    // The digits after the calling code, the 0 of `(0)` first.
    let codeDigits = NumberingRegion.digits(of: region.callingCode).count
    let digits = try digitValues(of: bytes, digitCount: digitCount, skipping: codeDigits)
    return Self.international((region.callingCode, region.readingTrunkPrefix(digits)))
  }

  /// The values of the digits of `bytes` after the first `skipped`, which the scan counted as
  /// `digitCount` (a `(0)`'s digit not counted, so there may be one more).
  /// - Throws: ``PhoneNumberError`` for more digits than ``DigitPattern/maximumDigits``.
  private func digitValues<Bytes: Collection<UInt8>>(
    of bytes: Bytes, digitCount: Int, skipping skipped: Int
  ) throws(PhoneNumberError) -> [UInt8] {
    guard digitCount <= DigitPattern.maximumDigits else {
      throw PhoneNumberError(
        kind: .tooManyDigits(found: digitCount, maximum: digitLimits.upperBound),
        input: String(decoding: bytes, as: UTF8.self))
    }
    var digits: [UInt8] = []
    digits.reserveCapacity(digitCount + 1)  // at most maximumDigits + 1
    var seen = 0
    for byte in bytes where byte >= zero && byte <= zero + 9 {
      seen += 1
      if seen > skipped { digits.append(byte - zero) }
    }
    return digits
  }

  /// The digit count and value of a calling code followed by a national number.
  private static func international(
    _ read: (code: Int, national: [UInt8])
  ) -> (digits: Int, number: Int64, overflowed: Bool) {
    var number = Int64(read.code)
    var overflowed = false
    for digit in read.national {
      let (shifted, o1) = number.multipliedReportingOverflow(by: 10)
      let (sum, o2) = shifted.addingReportingOverflow(Int64(digit))
      if o1 || o2 {
        overflowed = true
        break
      }
      number = sum
    }
    return (NumberingRegion.digits(of: read.code).count + read.national.count, number, overflowed)
  }
}
