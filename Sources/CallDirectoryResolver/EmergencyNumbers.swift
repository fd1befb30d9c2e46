/// The emergency numbers a resolver never blocks: short codes such as 112 and 911, matched
/// before any directory is consulted.
///
/// A code is a string of 1 to 15 ASCII digits, kept as a string because leading zeros matter
/// (Australia's `000` is not `0`). A caller matches a code in one of two ways
/// (`Spec/RESOLUTION.md` section 3):
///
/// - **as written**: the caller's digits, after the separators the number parser ignores are
///   removed, are exactly the code (`"9-1-1"`, `" 112 "`, `"tel:911"`). No `+` may be present.
/// - **as a number**: the normalised number's decimal digits are the code (a code that does not
///   begin with 0, such as a full number `18002738255` added to the set, or `+911`).
///
///     let emergency = try EmergencyNumbers(["112", "911", "116117"])
///     print(emergency.match(caller: "1-1-2") ?? "-")  // 112
///     print(emergency.match(911) ?? "-")             // 911
///
/// Matching allocates nothing; it is a scan over the caller's bytes and a binary search over the
/// codes.
public struct EmergencyNumbers: Sendable, Equatable, CustomStringConvertible {
  /// The default codes: `000` (Australia), `110` (police in Germany, Japan, China), `112` (the
  /// GSM and European number, routed by every mobile phone), `119` (fire and ambulance in Japan,
  /// Korea, China), `911` (North America), `999` (the United Kingdom, Ireland, Hong Kong and others).
  public static let defaultCodes = ["000", "110", "112", "119", "911", "999"]

  /// The default set, ``defaultCodes``.
  public static let standard = EmergencyNumbers(validated: defaultCodes)

  /// No emergency numbers: every number is resolved through the directories.
  public static let none = EmergencyNumbers(validated: [])

  /// The most digits a code may have: E.164's 15.
  public static let maximumDigits = 15

  /// A code that is not 1 to 15 ASCII digits.
  public struct InvalidCode: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code as given.
    public var code: String
    /// A message naming the code.
    public var description: String { "emergency number '\(code)' is not 1 to \(EmergencyNumbers.maximumDigits) digits" }
  }

  /// The codes, ascending by their digits as text, without duplicates.
  public let codes: [String]
  /// Each code as (digit count, value), in the order of `codes`: a count tells `000` from `0`.
  private let keys: [Key]
  /// The values of the codes that do not begin with 0 (those a normalised number can equal),
  /// ascending, with the index of their code.
  private let values: [(value: Int64, code: Int)]

  private struct Key: Sendable, Equatable {
    var digits: Int
    var value: UInt64
  }

  /// A set of the given codes.
  ///
  /// - Parameter codes: strings of 1 to 15 ASCII digits; duplicates are kept once.
  /// - Throws: ``InvalidCode`` naming the first code that is not 1 to 15 digits.
  /// - Complexity: O(c log c) in the count of codes.
  public init(_ codes: some Sequence<String>) throws(InvalidCode) {
    var valid: [String] = []
    for code in codes {
      guard Self.key(of: code) != nil else { throw InvalidCode(code: code) }
      valid.append(code)
    }
    self.init(validated: valid)
  }

  private init(validated codes: [String]) {
    self.codes = Array(Set(codes)).sorted()
    keys = self.codes.compactMap { Self.key(of: $0) }  // every code was checked: none is dropped
    values = keys.enumerated().compactMap { index, key -> (Int64, Int)? in
      // A code with a leading 0 has fewer significant digits than its length: no number equals it.
      guard key.value > 0, String(key.value).utf8.count == key.digits else { return nil }
      return (Int64(key.value), index)  // at most 15 digits: fits in an Int64
    }.sorted { $0.0 < $1.0 }
  }

  /// Whether two sets hold the same codes.
  public static func == (a: EmergencyNumbers, b: EmergencyNumbers) -> Bool { a.codes == b.codes }

  /// Whether the set holds no codes.
  public var isEmpty: Bool { codes.isEmpty }

  /// The codes separated by commas, as `--emergency` takes them.
  public var description: String { codes.joined(separator: ",") }

  /// The code equal to the decimal digits of `number`, or `nil`.
  /// - Complexity: O(log c); allocates nothing.
  public func match(_ number: Int64) -> String? {
    var low = 0
    var high = values.count
    while low < high {
      let middle = low + (high - low) / 2  // low < high: no overflow, middle < high
      if values[middle].value < number { low = middle + 1 } else { high = middle }
    }
    guard low < values.count, values[low].value == number else { return nil }
    return codes[values[low].code]
  }

  /// The code `caller` is, as written: its digits once surrounding blanks, a `tel:` prefix and
  /// its parameters, and the separators space, `-`, `.`, `(`, `)` and `/` are set aside; or `nil`.
  ///
  /// Anything else in the text (a `+`, a letter, a tab between digits) means no match; the
  /// number parser then decides what the text is.
  /// - Complexity: O(n) in the length of `caller`; allocates nothing.
  public func match(caller: String) -> String? {
    guard !keys.isEmpty, let key = Self.digitsAsWritten(caller) else { return nil }
    guard let index = keys.firstIndex(of: key) else { return nil }
    return codes[index]
  }

  /// A code's key, or `nil` when it is not 1 to 15 ASCII digits.
  private static func key(of code: String) -> Key? {
    var value: UInt64 = 0
    var digits = 0
    for byte in code.utf8 {
      guard byte >= 0x30 && byte <= 0x39, digits < maximumDigits else { return nil }
      value = value * 10 + UInt64(byte - 0x30)  // at most 15 digits: below 10^15, no overflow
      digits += 1
    }
    return digits == 0 ? nil : Key(digits: digits, value: value)
  }

  /// The digits of `text` under the separator rules of `PhoneNumberParser`, when it holds 1 to 15
  /// digits and nothing but separators around them.
  private static func digitsAsWritten(_ text: String) -> Key? {
    let bytes = text.utf8
    var index = bytes.startIndex
    func skipBlanks() {
      while index != bytes.endIndex, bytes[index] == 0x20 || bytes[index] == 0x09 { bytes.formIndex(after: &index) }
    }
    skipBlanks()
    let isTelURI = hasTelPrefix(bytes, at: index)
    if isTelURI {
      for _ in 0..<4 { bytes.formIndex(after: &index) }
      skipBlanks()
    }
    var value: UInt64 = 0
    var digits = 0
    var tabSeen = false
    while index != bytes.endIndex {
      let byte = bytes[index]
      if tabSeen && byte != 0x20 && byte != 0x09 { return nil }  // a tab is a blank only at the end
      switch byte {
      case 0x30...0x39:
        guard digits < maximumDigits else { return nil }
        value = value * 10 + UInt64(byte - 0x30)  // at most 15 digits: no overflow
        digits += 1
      case 0x20, 0x2D, 0x2E, 0x28, 0x29, 0x2F: break  // space - . ( ) /
      case 0x09: tabSeen = true
      case 0x3B where isTelURI: return digits == 0 ? nil : Key(digits: digits, value: value)  // ';' starts parameters
      default: return nil
      }
      bytes.formIndex(after: &index)
    }
    return digits == 0 ? nil : Key(digits: digits, value: value)
  }

  /// Whether `tel:`, in any letter case, starts at `start`.
  private static func hasTelPrefix(_ bytes: String.UTF8View, at start: String.Index) -> Bool {
    var index = start
    for position in 0..<4 {
      guard index != bytes.endIndex else { return false }
      // ASCII letters differ from their upper case in bit 5 only; ':' must match exactly.
      let byte = position < 3 ? bytes[index] | 0x20 : bytes[index]
      let expected: UInt8 = position == 0 ? 0x74 : position == 1 ? 0x65 : position == 2 ? 0x6C : 0x3A  // t e l :
      guard byte == expected else { return false }
      bytes.formIndex(after: &index)
    }
    return true
  }
}
