import Testing

@testable import CallDirectoryListing

/// Helpers for the listing tests, kept in one namespace so they cannot clash with other test files.
enum ListingTestSupport {
  /// The suite's seeded generator (`SeededGenerator`, SplitMix64).
  typealias SplitMix64 = SeededGenerator

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
