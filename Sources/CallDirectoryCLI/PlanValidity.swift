import CallDirectory

/// Pack's check of every number against the numbering plan: numbers with no valid length in
/// their country's plan (or no assigned calling code) are counted, with the first few places,
/// and packed all the same, because a Do-Not-Originate list blocks impossible caller IDs on
/// purpose; `--reject-invalid` makes the first one an error instead.
///
/// A range is checked only when its numbers all share one calling code and one length (a
/// pattern, `+1 202 555 01##`): it is invalid when that length is not valid, as a pattern with a
/// wildcard too many (`+1 202 555 0105 #`, twelve digits under +1) is. A range of several
/// lengths is a block of numbers, not ones that must be dialable.
struct PlanValidity {
  /// How many places the report names.
  static let placesShown = 5

  let reject: Bool
  /// The plan, held: reading `NumberingPlan.shared` for every number copies its tables' references.
  private let plan = NumberingPlan.shared
  /// The numbers and ranges found invalid, and of them the ranges.
  private(set) var count = 0
  private(set) var ranges = 0
  /// The first ``placesShown`` of them: `FILE:LINE (+NUMBER)`.
  private(set) var places: [String] = []

  /// Counts `entry` when it is one number that is not valid in its plan, or a range of one
  /// calling code and one length that is not.
  /// - Throws: `ListingError` for such a number or range under `--reject-invalid`.
  /// - Complexity: O(1).
  mutating func check(_ entry: ListingEntry, file: String) throws(ListingError) {
    let (first, last) = (entry.numbers.lowerBound, entry.numbers.upperBound)
    guard !plan.hasValidLength(first) else { return }
    let written: String
    if first == last {
      written = formatInternational(first)
    } else {
      // Codes are prefix-free: the numbers between two of one code and one length have them too.
      guard let code = plan.callingCode(of: first), let other = plan.callingCode(of: last), code == other else { return }
      written = "\(formatInternational(first))..\(formatInternational(last))"
    }
    if reject {
      let what = first == last ? "number \(written) has no valid length" : "range \(written) has no number of a valid length"
      throw ListingError(
        file: file, line: entry.line, message: "\(what) in its country's numbering plan (--reject-invalid)")
    }
    count += 1
    if first != last { ranges += 1 }
    if places.count < Self.placesShown {
      places.append("\(ListingError(file: file, line: entry.line, message: "").displayFile):\(entry.line) (\(written))")
    }
  }

  /// The warning for standard error, or `nil` when every number is valid.
  var report: String? {
    guard count > 0 else { return nil }
    let more = count > places.count ? ", ..." : ""
    let kinds = ranges == 0 ? "number" : ranges == count ? "range" : "numbers and range"
    return "warning: \(count) \(kinds)\(count == 1 ? "" : "s") not valid in \(count == 1 ? "its" : "their") "
      + "country's numbering plan, "
      + "packed all the same (--reject-invalid refuses them): \(places.joined(separator: ", "))\(more)"
  }

  /// The `--json` fields: `invalid` (the count) and `invalidPlaces`.
  var fields: [(String, JSON.Value)] {
    [("invalid", .int(count)), ("invalidPlaces", .array(places.map { .string($0) }))]
  }
}
