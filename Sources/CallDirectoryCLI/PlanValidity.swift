import CallDirectory

/// Pack's check of every number against the numbering plan: numbers with no valid length in
/// their country's plan (or no assigned calling code) are counted, with the first few places,
/// and packed all the same, because a Do-Not-Originate list blocks impossible caller IDs on
/// purpose; `--reject-invalid` makes the first one an error instead.
///
/// Ranges are not checked: a range is a block of numbers, not one that must be dialable.
struct PlanValidity {
  /// How many places the report names.
  static let placesShown = 5

  let reject: Bool
  /// The plan, held: reading `NumberingPlan.shared` for every number copies its tables' references.
  private let plan = NumberingPlan.shared
  /// The numbers found invalid.
  private(set) var count = 0
  /// The first ``placesShown`` of them: `FILE:LINE (+NUMBER)`.
  private(set) var places: [String] = []

  /// Counts `entry` when it is one number that is not valid in its plan.
  /// - Throws: `ListingError` for such a number under `--reject-invalid`.
  /// - Complexity: O(1).
  mutating func check(_ entry: ListingEntry, file: String) throws(ListingError) {
    let number = entry.numbers.lowerBound
    guard entry.numbers.upperBound == number, !plan.hasValidLength(number) else { return }
    let written = formatInternational(number)
    if reject {
      throw ListingError(
        file: file, line: entry.line,
        message: "number \(written) has no valid length in its country's numbering plan (--reject-invalid)")
    }
    count += 1
    if places.count < Self.placesShown {
      places.append("\(ListingError(file: file, line: entry.line, message: "").displayFile):\(entry.line) (\(written))")
    }
  }

  /// The warning for standard error, or `nil` when every number is valid.
  var report: String? {
    guard count > 0 else { return nil }
    let more = count > places.count ? ", ..." : ""
    return "warning: \(count) number\(count == 1 ? "" : "s") not valid in their country's numbering plan, "
      + "packed all the same (--reject-invalid refuses them): \(places.joined(separator: ", "))\(more)"
  }

  /// The `--json` fields: `invalid` (the count) and `invalidPlaces`.
  var fields: [(String, JSON.Value)] {
    [("invalid", .int(count)), ("invalidPlaces", .array(places.map { .string($0) }))]
  }
}
