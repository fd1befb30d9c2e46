import CallDirectory

/// The number-parser harness: the first byte chooses the default country: none, calling code 1,
/// 44 or 7 (selectors 0 ... 3), or a region of the numbering plan, whose patterns then read the
/// digits (4 ... 255, by the selector modulo the count of regions).
enum FuzzNumber {
  static let regions = NumberingPlan.shared.regionNames

  static func run(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    let codes: [Int?] = [nil, 1, 44, 7]
    let chosen: PhoneNumberParser?
    if selector < 4 {
      chosen = try? PhoneNumberParser(defaultCountryCode: codes[Int(selector)])
    } else {
      chosen = try? PhoneNumberParser(defaultRegion: regions[Int(selector) % regions.count])
    }
    guard let parser = chosen else { fatalError("default country \(selector) refused") }
    let field = input.dropFirst()
    if let number = try? parser.parse(utf8: field) {
      guard (1...(Int64.max - 1)).contains(number) else { fatalError("parse gave \(number), outside the domain") }
      // Every number the parser accepts is written back as "+DIGITS" by unpack and must read the same.
      guard (try? PhoneNumberParser.formatDomain.parse("+\(number)")) == number else {
        fatalError("\(number) does not parse back from +\(number)")
      }
    }
    if let range = try? parser.parseEntry(utf8: field) {
      guard range.lowerBound >= 1 && range.upperBound <= Int64.max - 1 else { fatalError("parseEntry gave \(range)") }
    }
    _ = try? parser.parse(String(decoding: field, as: UTF8.self))
    // Caller strings as PBXs pass them (SIP URIs, display names, withheld words) through an empty
    // stack: an answer or a typed error, never a trap.
    if let answer = try? callers.resolve(caller: String(decoding: field, as: UTF8.self)), answer.reason != .withheld,
      answer.reason != .emergency, answer.number == nil
    {
      fatalError("a caller answered without a number: \(answer)")
    }
  }

  static let callers = try! Resolver(sources: [], defaultCountryCode: 1)
}
