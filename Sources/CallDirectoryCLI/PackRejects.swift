import CallDirectory

/// The lines `pack --keep-going` skipped: counted, the first few placed for `--json`, and with
/// `--rejects FILE` kept as they were written, each input's header line before its first, so
/// that the file can be fixed and fed to `pack` again.
struct Rejects {
  /// How many places `--json` names.
  static let placesShown = 10

  /// The lines skipped.
  private(set) var count = 0
  /// The first ``placesShown`` of them, `FILE:LINE`.
  private(set) var places: [String] = []
  /// The kept lines, LF after each.
  private(set) var lines: [UInt8] = []
  /// The inputs whose header line has been kept.
  private var headed: Set<String> = []

  /// Counts `bad`, and keeps its bytes when `keepingLines`.
  /// - Complexity: O(length of the line).
  mutating func add(_ bad: PackInputs.BadLine, keepingLines: Bool) {
    count += 1
    if places.count < Self.placesShown { places.append("\(bad.error.displayFile):\(bad.error.line)") }
    guard keepingLines else { return }
    if let header = bad.header, headed.insert(bad.path).inserted {
      lines += header
      lines.append(0x0A)
    }
    lines += bad.bytes
    lines.append(0x0A)
  }

  /// The `--json` fields: `rejected` (the count) and `rejectedPlaces`.
  var fields: [(String, JSON.Value)] {
    [("rejected", .int(count)), ("rejectedPlaces", .array(places.map { .string($0) }))]
  }
}
