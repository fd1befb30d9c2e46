import CallDirectoryFormat

/// The written international form of a stored number: `+` and its decimal digits.
///
/// `formatInternational(12025550100)` is `"+12025550100"`. Every number in `1 ... Int64.max - 1`
/// gives text that ``PhoneNumberParser/formatDomain`` parses back to the same number. Other
/// values give `+` followed by their decimal form (`"+0"`, `"+-5"`), which no parser accepts.
///
/// - Complexity: O(1); allocates the returned string.
public func formatInternational(_ number: Int64) -> String {
  "+" + String(number)
}

extension Array where Element == UInt8 {
  /// Appends the international form of `number` (`+` and its digits) without building a String.
  package mutating func appendInternational(_ number: Int64) {
    append(0x2B)
    appendDecimal(number)
  }

  /// Appends `+FIRST..+LAST`, or `+NUMBER` when the range holds one number: how every listing
  /// form writes a run.
  /// - Precondition: both ends are in `1 ... Int64.max - 1`.
  mutating func appendInternational(_ numbers: ClosedRange<Int64>) {
    precondition(
      Limits.isValidNumber(numbers.lowerBound) && Limits.isValidNumber(numbers.upperBound),
      "number \(numbers) is outside 1...Int64.max-1")
    appendInternational(numbers.lowerBound)
    if numbers.upperBound > numbers.lowerBound {
      append(contentsOf: "..".utf8)
      appendInternational(numbers.upperBound)
    }
  }

  /// Appends the decimal digits of `number`, with `-` when it is negative.
  package mutating func appendDecimal(_ number: Int64) {
    if number < 0 { append(0x2D) }
    // The magnitude, so that Int64.min needs no special case.
    let magnitude = number.magnitude
    var digits = 1
    var probe = magnitude
    while probe >= 10 {
      probe /= 10
      digits &+= 1  // at most 19 for a UInt64 below 2^63 + 1
    }
    // Room first, then the digits from the last: no reversal of a slice afterwards.
    append(contentsOf: repeatElement(0x30, count: digits))
    var rest = magnitude
    var index = count &- 1  // count >= digits >= 1
    repeat {
      self[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
      rest /= 10
      index &-= 1  // stops at the first digit: `rest` has exactly `digits` digits
    } while rest != 0
  }
}
