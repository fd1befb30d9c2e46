// The single pass behind every `PhoneNumberParser.parse` form. It keeps the first few digits
// aside because the prefix rules are decided only once the whole number has been seen, and it
// never builds a String unless it is about to throw. National numbers of a region in the
// numbering plan are handed to `readNational` (PhoneNumberParser+Plan.swift).

/// Powers of ten that fit in an `Int64`: 10^0 ... 10^18.
private let powersOfTen: [Int64] = {
  var powers: [Int64] = [1]
  for _ in 1...18 { powers.append(powers[powers.count - 1] * 10) }
  return powers
}()

extension PhoneNumberParser {
  func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(PhoneNumberError) -> Int64 {
    let end = bytes.endIndex
    var index = bytes.startIndex
    var offset = 0

    while index != end, bytes[index] == space || bytes[index] == tab {
      bytes.formIndex(after: &index)
      offset += 1
    }
    if index == end { throw Self.failure(.empty, bytes) }

    let isTelURI = Self.hasTelPrefix(bytes, at: index)
    if isTelURI {
      for _ in 0..<4 { bytes.formIndex(after: &index) }
      offset += 4
      while index != end, bytes[index] == space || bytes[index] == tab {
        bytes.formIndex(after: &index)
        offset += 1
      }
    }
    let contentOffset = offset

    var hasPlus = false
    var value: Int64 = 0
    var overflowed = false
    var digitCount = 0
    // The first four digits, most significant first, packed one per byte.
    var leading: UInt32 = 0
    // A tab is whitespace only when nothing but whitespace follows it.
    var pendingTabOffset = -1
    var sawNonSpace = false
    // National style, refused without `+` and a default country: a parenthesis, or a separator
    // between two digits (`separated` marks one seen since the last digit).
    var nationalStyle = false
    var separated = false
    // A `.`: the number may be a spreadsheet's numeric cell, `12025550100.0`.
    var sawDot = false
    // The region whose trunk prefix 0 was written as `(0)` after the calling code.
    var trunkZero: NumberingRegion? = nil

    scanning: while index != end {
      let byte = bytes[index]
      if byte != space && byte != tab {
        if pendingTabOffset >= 0 {
          throw Self.failure(.invalidCharacter("\t", offset: pendingTabOffset), bytes)
        }
        sawNonSpace = true
      }
      switch byte {
      case zero...nine:
        let digit = byte &- zero
        if separated { nationalStyle = true }
        separated = false
        if digitCount < 4 { leading |= UInt32(digit) << (8 * (3 - digitCount)) }
        digitCount += 1
        if !overflowed {
          let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
          let (sum, o2) = shifted.addingReportingOverflow(Int64(digit))
          if o1 || o2 { overflowed = true } else { value = sum }
        }
      case space:
        separated = digitCount > 0
      case tab:
        if pendingTabOffset < 0 { pendingTabOffset = offset }
      case 0x28
      where hasPlus && (1...3).contains(digitCount) && NumberingPlan.shared.isAssigned(callingCode: Int(value))
        && Self.isZeroInParentheses(bytes, at: index):
        // `+44 (0) 20 ...`: a trunk prefix in parentheses right after the calling code.
        guard let region = NumberingPlan.shared.mainRegion(callingCode: Int(value)), region.nationalPrefix == "0" else {
          throw Self.failure(.trunkPrefixAfterCountryCode, bytes)
        }
        trunkZero = region
        bytes.formIndex(after: &index)
        bytes.formIndex(after: &index)
        offset += 2
      case 0x28, 0x29:  // ( )
        nationalStyle = true
      case 0x2D, 0x2E, 0x2F:  // - . /
        separated = digitCount > 0
        if byte == 0x2E { sawDot = true }
      case plus:
        if offset != contentOffset { throw Self.failure(.misplacedPlus(offset: offset), bytes) }
        hasPlus = true
      case semicolon where isTelURI:
        break scanning
      case 0x45 where Self.isSpreadsheetNumber(bytes), 0x65 where Self.isSpreadsheetNumber(bytes):  // E, e: `1.20256E+10`
        throw Self.failure(.spreadsheetNumber, bytes)
      default:
        throw Self.failure(.invalidCharacter(Self.character(in: bytes, at: offset), offset: offset), bytes)
      }
      bytes.formIndex(after: &index)
      offset += 1
    }

    if digitCount == 0 {
      throw Self.failure(sawNonSpace || isTelURI ? .noDigits : .empty, bytes)
    }
    if isTelURI && !hasPlus { throw Self.failure(.localTelURI, bytes) }
    if sawDot && Self.isSpreadsheetNumber(bytes) { throw Self.failure(.spreadsheetNumber, bytes) }

    func digit(_ position: Int) -> UInt32 { (leading >> (8 * (3 - position))) & 0xFF }

    // The international number's digit count and value, before the limits are checked.
    var internationalDigits = digitCount
    var number = value
    if hasPlus {
      if digit(0) == 0 { throw Self.failure(.leadingZero, bytes) }
      if let region = trunkZero {
        (internationalDigits, number, overflowed) = try readTrunkZero(bytes, digitCount: digitCount, region: region)
      }
    } else if defaultCountryCode == nil {
      if digit(0) == 0 || nationalStyle || Self.isNorthAmericanNational(digitCount, digit(0), digit(3)) {
        throw Self.failure(.nationalStyleWithoutCountry, bytes)
      }
    } else if let region {
      (internationalDigits, number, overflowed) = try readNational(bytes, digitCount: digitCount, region: region)
    } else if digitCount >= 2 && digit(0) == 0 && digit(1) == 0 {
      internationalDigits = digitCount - 2
      if internationalDigits > 0 && digit(2) == 0 { throw Self.failure(.leadingZero, bytes) }
    } else {
      var nationalDigits = digitCount
      // A calling code no region has: one trunk prefix 0 is all that can be assumed.
      if digit(0) == 0 {
        nationalDigits -= 1
      }
      internationalDigits = countryCodeDigits + nationalDigits
      if nationalDigits == 0 {
        throw Self.failure(
          .tooFewDigits(found: internationalDigits, minimum: max(digitLimits.lowerBound, countryCodeDigits + 1)),
          bytes)
      }
      if !overflowed {
        if nationalDigits > 18 {
          overflowed = true
        } else {
          let (shifted, o1) = countryCode.multipliedReportingOverflow(by: powersOfTen[nationalDigits])
          let (sum, o2) = shifted.addingReportingOverflow(value)
          if o1 || o2 { overflowed = true } else { number = sum }
        }
      }
    }

    if internationalDigits < digitLimits.lowerBound {
      throw Self.failure(.tooFewDigits(found: internationalDigits, minimum: digitLimits.lowerBound), bytes)
    }
    if internationalDigits > digitLimits.upperBound {
      throw Self.failure(.tooManyDigits(found: internationalDigits, maximum: digitLimits.upperBound), bytes)
    }
    if overflowed || !(number >= 1 && number <= Int64.max - 1) {
      throw Self.failure(.outOfRange, bytes)
    }
    return number
  }

  /// Whether `(0)` starts at `start`, which holds `(`.
  /// Whether `bytes`, without spaces and tabs around them, are a spreadsheet's numeric cell: an
  /// optional `+` and digits, then a `.` and only zeros (`12025550100.0`), or then an optional
  /// `.` and digits, `E` or `e`, an optional `+` and digits (`1.20256E+10`). A number written
  /// with dots as separators (`202.555.0100`, `+1.202.555.0100`) is neither.
  /// - Complexity: O(*n*); called only for a text with a `.`, `E` or `e`.
  private static func isSpreadsheetNumber<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
    var rest = trimmingBlanks(ArraySlice(bytes))
    func digits() -> ArraySlice<UInt8> {
      let run = rest.prefix { $0 &- zero <= 9 }
      rest = rest.dropFirst(run.count)
      return run
    }
    if rest.first == plus { rest = rest.dropFirst() }
    guard !digits().isEmpty else { return false }
    if rest.first == 0x2E {
      rest = rest.dropFirst()
      let fraction = digits()
      if rest.isEmpty { return !fraction.isEmpty && fraction.allSatisfy { $0 == zero } }
    }
    guard rest.first == 0x45 || rest.first == 0x65 else { return false }
    rest = rest.dropFirst()
    if rest.first == plus { rest = rest.dropFirst() }
    return !digits().isEmpty && rest.isEmpty
  }

  private static func isZeroInParentheses<Bytes: Collection<UInt8>>(_ bytes: Bytes, at start: Bytes.Index) -> Bool {
    var index = bytes.index(after: start)
    guard index != bytes.endIndex, bytes[index] == zero else { return false }
    bytes.formIndex(after: &index)
    return index != bytes.endIndex && bytes[index] == 0x29
  }

  /// Whether `tel:` in any letter case starts at `index`.
  private static func hasTelPrefix<Bytes: Collection<UInt8>>(_ bytes: Bytes, at start: Bytes.Index) -> Bool {
    let expected: (UInt8, UInt8, UInt8, UInt8) = (0x74, 0x65, 0x6C, 0x3A)  // t e l :
    var index = start
    for position in 0..<4 {
      guard index != bytes.endIndex else { return false }
      var byte = bytes[index]
      // ASCII letters differ from their upper case only in bit 5; ':' must match exactly.
      if position < 3 { byte |= 0x20 }
      let want: UInt8
      switch position {
      case 0: want = expected.0
      case 1: want = expected.1
      case 2: want = expected.2
      default: want = expected.3
      }
      if byte != want { return false }
      bytes.formIndex(after: &index)
    }
    return true
  }

  /// The Unicode scalar starting at byte `offset`, or U+FFFD where the bytes are not UTF-8.
  private static func character<Bytes: Collection<UInt8>>(in bytes: Bytes, at offset: Int) -> Character {
    let tail = bytes.dropFirst(offset).prefix(4)
    var iterator = tail.makeIterator()
    var decoder = UTF8()
    switch decoder.decode(&iterator) {
    case .scalarValue(let scalar): return Character(scalar)
    case .emptyInput, .error: return "\u{FFFD}"
    }
  }

  /// Whether `count` digits beginning `first` and with `fourth` as their fourth are a North
  /// American number's national form: ten digits, an area code and an exchange that begin with
  /// 2 to 9 (`2025550100`). Without `+` and without a country they are refused as national
  /// (Spec/INPUT.md section 1, rule 4): read as international they would be another country's
  /// number (+20 2555 0100, in Egypt), and a list written this way is most often North American.
  static func isNorthAmericanNational(_ count: Int, _ first: UInt32, _ fourth: UInt32) -> Bool {
    count == 10 && first >= 2 && fourth >= 2
  }

  private static func failure<Bytes: Collection<UInt8>>(_ kind: PhoneNumberError.Kind, _ bytes: Bytes)
    -> PhoneNumberError
  {
    PhoneNumberError(kind: kind, input: String(decoding: bytes, as: UTF8.self))
  }
}
