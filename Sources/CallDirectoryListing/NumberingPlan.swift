/// What libphonenumber's metadata says about every region's numbers: calling codes, trunk
/// prefixes, how national input is read, and the lengths of valid national numbers.
///
/// The facts come from the generated table in `NumberingPlan+Data.swift` (see
/// ``sourceVersion``), parsed once on first use of ``shared``. Lookups by region or calling code
/// are dictionary reads, O(1).
///
///     let plan = NumberingPlan.shared
///     print(plan.region(named: "GB")?.callingCode ?? 0)              // 44
///     print(plan.callingCode(of: 442079460958)?.code ?? 0)          // 44
///     print(plan.hasValidLength(442079460958))                      // true
///     print(plan.mainRegion(callingCode: 1)?.name ?? "")            // US
public struct NumberingPlan: Sendable {
  /// The plan of the generated table.
  public static let shared = NumberingPlan(table: table)

  /// Every region of the table, geographic ones by ISO 3166 code, then the non-geographic
  /// calling codes (region `001`).
  public let regions: [NumberingRegion]
  private let regionsByName: [String: Int]
  private let regionsByCode: [Int: [Int]]
  /// Indexed by calling code (0 ... 999): bit *n* set when some region of the code has national
  /// numbers of *n* digits, and bit 0 (no national number is 0 digits long) when the code is
  /// assigned; 0 for an unassigned code. An array, since pack checks every number.
  private let lengthsByCode: [UInt32]
  /// 10^0 ... 10^18: a number's digits counted and split without a division a digit.
  private let powersOfTen: [Int64] = (0...18).map { (0..<$0).reduce(Int64(1)) { value, _ in value * 10 } }

  init(table: String) {
    var regions: [NumberingRegion] = []
    for line in table.split(separator: "\n") {
      regions.append(NumberingRegion(line: line))
    }
    self.regions = regions
    var byName: [String: Int] = [:]
    var byCode: [Int: [Int]] = [:]
    var lengths = [UInt32](repeating: 0, count: 1000)
    for (index, region) in regions.enumerated() {
      if region.name != NumberingRegion.nonGeographic { byName[region.name] = index }
      byCode[region.callingCode, default: []].append(index)
      guard (1...999).contains(region.callingCode) else { continue }
      lengths[region.callingCode] |= 1
      for length in region.possibleLengths where length < 32 { lengths[region.callingCode] |= 1 << length }
    }
    regionsByName = byName
    regionsByCode = byCode
    lengthsByCode = lengths
  }

  /// The region with ISO 3166 code `name` (upper case, such as `GB`), or `nil`.
  public func region(named name: String) -> NumberingRegion? {
    regionsByName[name].map { regions[$0] }
  }

  /// The regions that share `callingCode`, the main one first; empty for an unassigned code.
  public func regions(callingCode: Int) -> [NumberingRegion] {
    let found = (regionsByCode[callingCode] ?? []).map { regions[$0] }
    return found.filter(\.isMainRegion) + found.filter { !$0.isMainRegion }
  }

  /// Whether some region has `callingCode`. O(1).
  public func isAssigned(callingCode: Int) -> Bool {
    (1...999).contains(callingCode) && lengthsByCode[callingCode] != 0
  }

  /// The region whose rules a calling code's national numbers are read by (`US` for 1, `RU`
  /// for 7), or `nil` for a code no region has.
  public func mainRegion(callingCode: Int) -> NumberingRegion? {
    regions(callingCode: callingCode).first
  }

  /// The ISO codes of every geographic region, sorted.
  public var regionNames: [String] { regionsByName.keys.sorted() }

  /// Whether two international numbers, the ends of a range, are read alike: the same calling
  /// code, and as many digits. (Under a default country an end may be read with its calling code
  /// written, the other as a national number: `4930000000..4939999999` under `DE` gave
  /// +4930000000 and +494939999999, a range over every country between.)
  /// - Complexity: O(1).
  public func readAlike(_ first: Int64, _ last: Int64) -> Bool {
    guard let start = callingCode(of: first), let end = callingCode(of: last) else { return false }
    return start == end
  }

  /// The calling code that begins the digits of the international number `number` (codes are
  /// prefix-free: at most one of its first one, two and three digits is assigned), or `nil`.
  /// - Complexity: O(1).
  public func callingCode(of number: Int64) -> (code: Int, nationalDigits: Int)? {
    guard number > 0 else { return nil }
    // Pack checks every number: its digits from its bit length (log10 2 is about 1233 / 4096,
    // which gives the digits or one less), not a division a digit.
    let estimate = ((64 &- number.leadingZeroBitCount) &* 1233) >> 12  // 0 ... 18
    let digits = estimate &+ (number >= powersOfTen[estimate] ? 1 : 0)
    // The code's k digits are number / 10^(digits - k).
    for length in 1...3 where length < digits {
      let code = Int(number / powersOfTen[digits - length])  // below 1000: at most three digits
      if isAssigned(callingCode: code) { return (code, digits - length) }
    }
    return nil
  }

  /// Whether `number`, an international number, has a length some region of its calling code
  /// gives its national numbers (libphonenumber's possible lengths, local-only lengths left
  /// out). Unassigned calling codes are not valid.
  /// - Complexity: O(1).
  public func hasValidLength(_ number: Int64) -> Bool {
    guard let (code, national) = callingCode(of: number), national < 32 else { return false }
    return lengthsByCode[code] & (1 << UInt32(national)) != 0
  }
}

/// One region's numbering facts, as libphonenumber's metadata states them.
///
/// A class, so that a parser holding its region copies one reference per number it reads, not
/// the region's dozen arrays and patterns.
///
///     if let russia = NumberingPlan.shared.region(named: "RU") {
///       print(russia.nationalPrefix ?? "", russia.possibleLengths, russia.emergencyNumbers)  // 8 [10, 14] ["01", ...]
///     }
public final class NumberingRegion: Sendable {
  /// The region name of the non-geographic calling codes, such as 800.
  public static let nonGeographic = "001"

  /// The ISO 3166 alpha-2 code (`GB`), or ``nonGeographic``.
  public let name: String
  /// The country calling code (44).
  public let callingCode: Int
  /// Whether the region's rules read national numbers for its calling code, as `US` does for 1.
  public let isMainRegion: Bool
  /// The trunk prefix dialled before national numbers (`0`, `8`, `06`), if any.
  public let nationalPrefix: String?
  /// The national number lengths of the region, in digits, ascending.
  public let possibleLengths: [Int]
  /// Lengths dialled only locally, without an area code: not enough to place a call from elsewhere.
  public let localOnlyLengths: [Int]
  /// The region's emergency numbers, as dialled there (`112`, `15`).
  public let emergencyNumbers: [String]
  /// The digits of ``callingCode``, most significant first.
  let callingCodeDigits: [UInt8]

  /// libphonenumber's national-prefix-for-parsing: what precedes a national number written
  /// nationally, matched at its start.
  let prefixForParsing: DigitPattern?
  /// What replaces the prefix's match, `$1` naming its groups; `nil` removes the match.
  let transformRule: String?
  /// The prefix that dials out of the region (`00`, `011`, `810`), matched at the start.
  let internationalPrefix: DigitPattern?
  /// A pattern every valid national number of the region matches whole.
  let nationalNumberPattern: DigitPattern?
  /// For regions sharing a calling code: the leading digits of the region's numbers.
  let leadingDigits: DigitPattern?

  init(line: Substring) {
    let fields = line.split(separator: " ", omittingEmptySubsequences: false).map { $0 == "-" ? nil : String($0) }
    precondition(fields.count == 12, "the generated table has 12 fields a line: \(line)")
    func pattern(_ text: String?) -> DigitPattern? {
      guard let text else { return nil }
      do {
        return try DigitPattern(text)
      } catch {
        // The table is generated and checked by the tests, not read from input.
        preconditionFailure("the generated table has a pattern outside the dialect: \(error)")
      }
    }
    func numbers(_ text: String?) -> [Int] { text.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [] }
    name = fields[0] ?? ""
    callingCode = Int(fields[1] ?? "") ?? 0
    isMainRegion = fields[2] == "1"
    nationalPrefix = fields[3]
    prefixForParsing = pattern(fields[4])
    transformRule = fields[5]
    internationalPrefix = pattern(fields[6])
    possibleLengths = numbers(fields[7])
    localOnlyLengths = numbers(fields[8])
    leadingDigits = pattern(fields[9])
    nationalNumberPattern = pattern(fields[10])
    emergencyNumbers = fields[11].map { $0.split(separator: ",").map(String.init) } ?? []
    callingCodeDigits = Self.digits(of: callingCode)
  }
}
