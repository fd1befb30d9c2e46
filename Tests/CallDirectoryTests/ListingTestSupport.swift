import Testing

@testable import CallDirectoryListing

/// Helpers for the listing tests, kept in one namespace so they cannot clash with other test files.
enum ListingTestSupport {
  /// SplitMix64: a tiny deterministic generator, so a failing random case can be replayed from its seed.
  struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The UTF-8 bytes of `text`.
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// All records of a CSV input, as arrays of field strings with their lines.
  static func csvRecords(_ input: [UInt8]) throws(CSVError) -> [(line: Int, fields: [String])] {
    var reader = CSVReader(input)
    var records: [(line: Int, fields: [String])] = []
    while let record = try reader.next() {
      records.append((record.line, (0..<record.count).map { record.string(at: $0) }))
    }
    return records
  }

  /// The kind of error `body` throws, or nil when it does not throw.
  static func phoneErrorKind(_ body: () throws(PhoneNumberError) -> Int64) -> PhoneNumberError.Kind? {
    do {
      _ = try body()
      return nil
    } catch {
      return error.kind
    }
  }
}
