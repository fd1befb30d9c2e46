import CallDirectory

/// The text-input harness: the first byte chooses the parser and its country code, the rest is
/// the file.
enum FuzzListing {
  static func run(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    let bytes = Array(input.dropFirst())
    let parser =
      selector & 0x10 == 0 ? PhoneNumberParser.formatDomain : PhoneNumberParser(defaultCountryCode: 44)
    switch selector % 8 {
    case 0: _ = try? ListingParser.parse(bytes: bytes, file: "fuzz", parser: parser)
    case 1: _ = try? ListingParser.parse(bytes: bytes, file: "fuzz", parser: parser, format: .tsv)
    case 2: _ = try? IdentifyCSVParser.parse(bytes: bytes, file: "fuzz", parser: parser)
    case 3: _ = try? IdentifyCSVParser.parse(bytes: bytes, file: "fuzz", parser: parser, format: .tsv)
    case 4: _ = try? BlockListParser.parse(bytes: bytes, file: "fuzz", parser: parser)
    case 5: _ = try? ListingJSONLines.parse(bytes: bytes, file: "fuzz", parser: parser)
    case 6:
      var reader = CSVReader(bytes)
      var records = 0
      while records < 100_000, let record = try? reader.next() {
        records += 1
        for field in 0..<record.count { _ = record[field] }
      }
    default:
      // Inflating with a small limit: a stream that inflates past it must be refused, not grown.
      if let inflated = try? Gzip.inflate(bytes, limit: 1 << 16) {
        precondition(inflated.count <= 1 << 16, "Gzip.inflate went past its limit")
      }
    }
  }
}
