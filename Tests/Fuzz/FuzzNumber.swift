import CallDirectory

/// The number-parser harness: the first byte chooses the default country code (none, 1, 44 or 7).
enum FuzzNumber {
  static func run(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    let codes: [Int?] = [nil, 1, 44, 7]
    guard let parser = try? PhoneNumberParser(defaultCountryCode: codes[Int(selector % 4)]) else {
      fatalError("country code \(String(describing: codes[Int(selector % 4)])) refused")
    }
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
  }
}
