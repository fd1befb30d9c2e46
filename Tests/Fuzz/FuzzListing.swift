import CallDirectory

/// The text-input harness: the first byte chooses the parser and its country code, the rest is
/// the file.
enum FuzzListing {
  static func run(_ input: [UInt8]) {
    guard let selector = input.first else { return }
    let bytes = Array(input.dropFirst())
    guard let uk = try? PhoneNumberParser(defaultCountryCode: 44) else { fatalError("country code 44 refused") }
    let parser = selector & 0x10 == 0 ? PhoneNumberParser.formatDomain : uk
    switch selector % 8 {
    case 0:
      agree(
        records: { (body) throws(ListingError) in try ListingParser.parse(bytes: bytes, file: "fuzz", parser: parser, each: body)
        },
        entries: { (body) throws(ListingError) in try ListingParser.forEachEntry(bytes: bytes, file: "fuzz", parser: parser, body)
        })
    case 1: _ = try? ListingParser.parse(bytes: bytes, file: "fuzz", parser: parser, format: .tsv)
    case 2:
      agree(
        records: { (body) throws(ListingError) in
          try IdentifyCSVParser.parse(bytes: bytes, file: "fuzz", parser: parser, each: body)
        },
        entries: { (body) throws(ListingError) in
          try IdentifyCSVParser.forEachEntry(bytes: bytes, file: "fuzz", parser: parser, body)
        })
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

  /// One entry as either form of a parser gives it: the kind, numbers, line and label bytes.
  private struct Read: Equatable {
    var entry: ListingEntry
    var label: [UInt8]
  }

  /// Runs a parser's record form and its lent form on the same input: both must read the same
  /// entries, or stop with the same error.
  private static func agree(
    records: ((ListingRecord) throws(ListingError) -> Void) throws(ListingError) -> Int,
    entries: ((ListingEntry, Span<UInt8>) throws(ListingError) -> Void) throws(ListingError) -> Int
  ) {
    var fromRecords: [Read] = []
    var fromEntries: [Read] = []
    let recordsError = Result { () throws(ListingError) in
      try records { record in
        let entry = ListingEntry(kind: record.kind, numbers: record.numbers, line: record.line)
        fromRecords.append(Read(entry: entry, label: Array(record.labelUTF8 ?? [])))
      }
    }
    let entriesError = Result { () throws(ListingError) in
      try entries { entry, label in
        var bytes: [UInt8] = []
        for index in label.indices { bytes.append(label[index]) }
        fromEntries.append(Read(entry: entry, label: bytes))
      }
    }
    precondition(fromRecords == fromEntries, "the record and lent forms read different entries")
    switch (recordsError, entriesError) {
    case (.success(let a), .success(let b)): precondition(a == b, "the two forms skipped different blank lines")
    case (.failure(let a), .failure(let b)):
      precondition(a.line == b.line && a.message == b.message, "the two forms failed apart")
    default: preconditionFailure("one form failed where the other did not")
    }
  }
}
