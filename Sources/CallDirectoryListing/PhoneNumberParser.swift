import CallDirectoryFormat

/// Turns a phone number as people write it into the integer form a call directory stores
/// (the digits of the full international number, as CallKit's `CXCallDirectoryPhoneNumber`).
///
/// Rules, applied in this order:
///
/// 1. Spaces and tabs around the number are ignored. A `tel:` prefix (any letter case) is accepted
///    for RFC 3966 global numbers (`tel:+1-202-555-0100`); everything from the first `;` of a
///    `tel:` URI on (its parameters, such as `;ext=7`) is ignored. A `tel:` URI whose number does
///    not begin with `+` is a local number and is rejected (``PhoneNumberError/Kind/localTelURI``).
/// 2. Inside the number the visual separators space, `-`, `.`, `(`, `)` and `/` are ignored. Any
///    other character (a letter, `*`, `#`, a tab between digits, a non-ASCII character) is an
///    error naming that character. A `+` is allowed only as the first character; a second `+`,
///    or a `+` after anything else, is ``PhoneNumberError/Kind/misplacedPlus(offset:)``.
/// 3. With a leading `+` the digits are the full international number; its first digit must not
///    be 0.
/// 4. Without `+` and without a default country, digits alone are the full international number
///    (CallKit's own form, `12025550100`); the first digit must not be 0. Digits written in a
///    national style are refused, because their country cannot be known
///    (``PhoneNumberError/Kind/nationalStyleWithoutCountry``): a first digit 0 (a trunk prefix),
///    a parenthesis, or a separator between two digits (`(818) 470-0711`, `818-470-0711`), or
///    ten digits whose first and fourth are 2 to 9, a North American number's national form
///    (`8184700711`, which read as international would be +81 84700711).
/// 5. Without `+` and with a default region (given by name, or as the main region of a default
///    country code), the digits are read as libphonenumber reads them with that region
///    (`NumberingRegion.read(national:)`): an international prefix of the region (`00`, `011`,
///    `810`) followed by a calling code begins an international number; the region's calling code
///    written out begins one when the rest fits the plan better (`1 202 555 0123` under `US`);
///    otherwise the region's national-prefix-for-parsing rule strips or transforms a trunk prefix
///    (`8 (912) 345-67-89` under `RU`, `06 20 123 4567` under `HU`, Argentina's mobile `15`),
///    unless the result would not be a possible length. Numbers that keep their leading 0
///    (Italy, Benin, Côte d'Ivoire) keep it. A default country code that no region has (such as
///    999) uses the older rule: `00` begins an international number, one leading 0 is dropped.
///    In a number beginning with `+`, `(0)` right after the calling code is the trunk prefix
///    written in parentheses (`+44 (0) 20 7946 0958`): it is dropped when the main region of the
///    calling code has the trunk prefix 0, and is ``PhoneNumberError/Kind/trunkPrefixAfterCountryCode``
///    otherwise.
/// 6. The count of digits of the international number (country code included, prefixes
///    excluded) must lie within ``digitLimits``, and its value within `1 ... Int64.max - 1`
///    (`Limits.isValidNumber`). Overflow is detected while accumulating; parsing never traps.
///
/// Parsing takes time linear in the input and, on success, allocates nothing for the byte-level
/// forms. A parser is an immutable value, safe to share across tasks.
///
///     let international = PhoneNumberParser.formatDomain
///     print(try international.parse("+1 (202) 555-0100"))   // 12025550100
///     let british = try PhoneNumberParser(defaultRegion: "GB")
///     print(try british.parse("+44 (0) 20 7946 0958"))       // 442079460958
public struct PhoneNumberParser: Sendable {
  /// The digit counts of numbers written by people: 7 ... 15, E.164's maximum being 15.
  public static let e164Digits: ClosedRange<Int> = 7...15
  /// The digit counts of every number the file format can store, `1 ... Int64.max - 1`:
  /// 1 ... 19. Used to read back listings, so that every stored number round-trips.
  public static let formatDomainDigits: ClosedRange<Int> = 1...19
  /// The country calling codes a parser accepts as its default: 1 ... 999.
  public static let countryCodes: ClosedRange<Int> = 1...999

  /// A parser for listings written from call directories: no default country code, digit
  /// limits ``formatDomainDigits``.
  public static let formatDomain = PhoneNumberParser(checked: nil, digitLimits: formatDomainDigits)

  /// The region whose rules read numbers written without `+` (`GB`), or `nil` when they are
  /// full international numbers or the default country code has no region.
  public var defaultRegion: String? { region?.name }
  /// The country calling code applied to numbers written without `+`, or `nil` when such
  /// numbers are full international numbers.
  public let defaultCountryCode: Int?
  /// The allowed count of digits of the international number, country code included.
  public let digitLimits: ClosedRange<Int>

  /// The region whose rules read national numbers, or `nil` when there is no default country
  /// or its code has no region.
  private(set) var region: NumberingRegion?

  /// The default country code as a value to prefix, and its count of digits.
  let countryCode: Int64
  let countryCodeDigits: Int

  /// A parser with no default country code and the digit limits ``e164Digits``: digits without
  /// `+` are a full international number (`12025550100`).
  public init() {
    self.init(checked: nil, digitLimits: Self.e164Digits)
  }

  /// Creates a parser.
  ///
  ///     let parser = try PhoneNumberParser(defaultCountryCode: 44)
  ///     print(try parser.parse("020 7946 0958"))  // 442079460958
  ///
  /// - Parameters:
  ///   - defaultCountryCode: The calling code (1 ... 999) applied to numbers written without
  ///     `+`, for example 1 for the North American Numbering Plan or 44 for the United Kingdom.
  ///     When `nil`, digits without `+` are a full international number (`12025550100`).
  ///   - digitLimits: The allowed count of digits, country code included; must lie within
  ///     ``formatDomainDigits``. Defaults to ``e164Digits``.
  /// - Throws: `ConfigurationError` naming `defaultCountryCode` when it is not in
  ///   ``countryCodes``, or `digitLimits` when they do not lie within ``formatDomainDigits``.
  public init(
    defaultCountryCode: Int? = nil, digitLimits: ClosedRange<Int> = PhoneNumberParser.e164Digits
  ) throws(ConfigurationError) {
    if let code = defaultCountryCode, !Self.countryCodes.contains(code) {
      throw ConfigurationError(parameter: "defaultCountryCode", value: "\(code)", allowed: "\(Self.countryCodes)")
    }
    guard
      digitLimits.lowerBound >= Self.formatDomainDigits.lowerBound
        && digitLimits.upperBound <= Self.formatDomainDigits.upperBound
    else {
      throw ConfigurationError(parameter: "digitLimits", value: "\(digitLimits)", allowed: "\(Self.formatDomainDigits)")
    }
    self.init(checked: defaultCountryCode, digitLimits: digitLimits)
  }

  /// Creates a parser that reads numbers written without `+` by a region's rules.
  ///
  ///     let parser = try PhoneNumberParser(defaultRegion: "RU")
  ///     print(try parser.parse("8 (912) 345-67-89"))  // 79123456789
  ///
  /// - Parameters:
  ///   - defaultRegion: An ISO 3166 region code of ``NumberingPlan``, in any letter case (`GB`).
  ///   - digitLimits: As for ``init(defaultCountryCode:digitLimits:)``.
  /// - Throws: `ConfigurationError` naming `defaultRegion` when the plan has no such region, or
  ///   `digitLimits` when they do not lie within ``formatDomainDigits``.
  public init(
    defaultRegion: String, digitLimits: ClosedRange<Int> = PhoneNumberParser.e164Digits
  ) throws(ConfigurationError) {
    guard let region = NumberingPlan.shared.region(named: defaultRegion.uppercased()) else {
      throw ConfigurationError(parameter: "defaultRegion", value: defaultRegion, allowed: "the regions of NumberingPlan")
    }
    try self.init(defaultCountryCode: region.callingCode, digitLimits: digitLimits)
    self.region = region
  }

  /// A parser from values already checked against ``countryCodes`` and ``formatDomainDigits``.
  private init(checked defaultCountryCode: Int?, digitLimits: ClosedRange<Int>) {
    self.defaultCountryCode = defaultCountryCode
    self.digitLimits = digitLimits
    let code = defaultCountryCode ?? 0
    self.countryCode = Int64(code)
    self.countryCodeDigits = code >= 100 ? 3 : (code >= 10 ? 2 : 1)
    self.region = defaultCountryCode.flatMap { NumberingPlan.shared.mainRegion(callingCode: $0) }
  }

  /// Parses `text` under the rules above.
  ///
  /// - Returns: The international number, in `1 ... Int64.max - 1`.
  /// - Throws: ``PhoneNumberError``, whose `input` is `text`.
  /// - Complexity: O(*n*) in the length of `text`; copies its UTF-8 once.
  public func parse(_ text: some StringProtocol) throws(PhoneNumberError) -> Int64 {
    let bytes = Array(text.utf8)
    return try scan(bytes[...])
  }

  /// Parses the UTF-8 bytes of one field, the fast path used by the file parsers.
  ///
  /// - Returns: The international number, in `1 ... Int64.max - 1`.
  /// - Throws: ``PhoneNumberError``, whose `input` is the bytes decoded as UTF-8.
  /// - Complexity: O(*n*) in the count of bytes; allocates nothing unless it throws.
  public func parse(utf8 bytes: ArraySlice<UInt8>) throws(PhoneNumberError) -> Int64 {
    if let number = international(bytes) { return number }
    return try scan(bytes)
  }

  /// The number when `bytes` is in the form listings and CallKit use, nothing but its digits
  /// after a `+` (or with no `+` when there is no default country code), the first not 0, and
  /// their count within `digitLimits`; `nil` for anything else, which `scan` then reads (and
  /// words the error for).
  private func international(_ bytes: ArraySlice<UInt8>) -> Int64? {
    unsafe bytes.withUnsafeBytes { raw in unsafe international(in: raw, from: 0, to: raw.count) }
  }

  /// `international(_:)` over `raw[start ..< end]`, for a caller that reads a whole line in one
  /// borrow (`PlainLine`). Up to 18 digits, so the value cannot overflow; a longer number is
  /// left to `scan`.
  /// - Precondition: `0 <= start <= end <= raw.count`.
  package func international(in raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int64? {
    precondition(start >= 0 && start <= end && end <= raw.count, "a range inside the bytes")
    var index = start
    let hasPlus = unsafe index < end && raw[index] == 0x2B
    if hasPlus {
      index &+= 1
    } else if defaultCountryCode != nil {
      return nil
    }
    let digits = end &- index  // index <= end: it moved past a byte below end at most once
    guard unsafe digits >= 1 && digits <= 18 && digitLimits.contains(digits) && raw[index] != 0x30 else { return nil }
    // Ten bare digits of a North American shape go to `scan`, which refuses them as national.
    if unsafe !hasPlus && digits == 10
      && Self.isNorthAmericanNational(10, UInt32(raw[index] &- 0x30), UInt32(raw[index &+ 3] &- 0x30))
    {
      return nil
    }
    var value: Int64 = 0  // at most 18 digits: below 10^18
    while end &- index >= 8 {
      let word = UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      guard DigitWords.nonDigits(word) == 0 else { return nil }
      value = value &* 100_000_000 &+ Int64(DigitWords.value(of: word))
      index &+= 8
    }
    while index < end {
      let digit = unsafe raw[index] &- 0x30
      guard digit <= 9 else { return nil }
      value = value &* 10 &+ Int64(digit)
      index &+= 1
    }
    return value
  }

  /// Parses the UTF-8 bytes of one field held in any collection.
  ///
  /// Prefer ``parse(utf8:)-(ArraySlice<UInt8>)`` where the bytes are in an array: this form is
  /// generic, so it is slower when called from another module.
  ///
  /// - Returns: The international number, in `1 ... Int64.max - 1`.
  /// - Throws: ``PhoneNumberError``, whose `input` is the bytes decoded as UTF-8.
  /// - Complexity: O(*n*) in the count of bytes; allocates nothing unless it throws.
  public func parse(utf8 bytes: some Collection<UInt8>) throws(PhoneNumberError) -> Int64 {
    try scan(bytes)
  }
}
