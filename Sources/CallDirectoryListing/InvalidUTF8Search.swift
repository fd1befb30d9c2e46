import CallDirectoryFormat

// A validator instead of `String(validating:)`: it allocates nothing and reports where the
// first bad byte is, which the readers turn into a line number.

extension Array where Element == UInt8 {
  /// The index of the first byte in `range` that starts an ill-formed UTF-8 sequence, or `nil`
  /// when the whole range is well-formed (Unicode table 3-7: no overlong forms, no surrogates,
  /// nothing above U+10FFFF, no sequence cut off by the end of the range).
  func firstInvalidUTF8Index(in range: Range<Int>) -> Int? {
    // Almost every input is valid: the format's validator (ASCII eight bytes at a time) says so
    // quickly, and the walk below, which finds the bad byte, runs only when it is not.
    if UTF8Validation.isValid(self[range]) { return nil }
    var index = range.lowerBound
    let end = range.upperBound
    while index < end {
      let lead = self[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var secondLow: UInt8 = 0x80
      var secondHigh: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        secondLow = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        secondHigh = 0x9F
      case 0xF0:
        length = 4
        secondLow = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        secondHigh = 0x8F
      default: return index
      }
      if end - index < length { return index }
      let second = self[index + 1]
      if second < secondLow || second > secondHigh { return index }
      var continuation = index + 2
      while continuation < index + length {
        if self[continuation] & 0xC0 != 0x80 { return index }
        continuation += 1
      }
      index += length
    }
    return nil
  }
}
