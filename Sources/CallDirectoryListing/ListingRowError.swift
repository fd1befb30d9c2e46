import CallDirectoryFormat

/// Why a listing writer (``ListingWriter``, ``ListingJSONLines/Writer``) refused a row: a value
/// no directory can hold. The row is not written; the writer's buffer is as it was.
///
///     var writer = ListingWriter()
///     try writer.appendBlock(0)  // throws .numberOutOfRange(0...0)
public enum ListingRowError: Error, Sendable, Equatable, CustomStringConvertible {
  /// An end of the run lies outside `1 ... Int64.max - 1`.
  case numberOutOfRange(ClosedRange<Int64>)
  /// The label is empty or longer than 65,534 UTF-8 bytes; `length` is its count of bytes.
  case badLabelLength(numbers: ClosedRange<Int64>, length: Int)
  /// An identification record has no label.
  case missingLabel(numbers: ClosedRange<Int64>)
  /// The label cannot be written tab-separated: it holds a tab, CR or LF, or begins or ends with
  /// a space or tab (``ListingWriter`` with ``TableFormat/tsv``).
  case labelNotTabSeparable(numbers: ClosedRange<Int64>)

  /// A one-line message naming the run.
  public var description: String {
    switch self {
    case .numberOutOfRange(let numbers): "number \(Self.show(numbers)) is outside 1...\(Limits.maximumNumber)"
    case .badLabelLength(let numbers, let length):
      "label for \(Self.show(numbers)) is \(length) bytes, outside 1...\(Limits.maximumLabelBytes)"
    case .missingLabel(let numbers): "identification entry \(Self.show(numbers)) has no label"
    case .labelNotTabSeparable(let numbers):
      "label for \(Self.show(numbers)) holds a tab or a line break, or a space at an end, which TSV cannot write: "
        + "write CSV or JSON Lines"
    }
  }

  private static func show(_ numbers: ClosedRange<Int64>) -> String {
    numbers.lowerBound == numbers.upperBound ? "+\(numbers.lowerBound)" : "+\(numbers.lowerBound)..+\(numbers.upperBound)"
  }

  /// Refuses a run with an end outside `1 ... Int64.max - 1`.
  static func check(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    guard Limits.isValidNumber(numbers.lowerBound) && Limits.isValidNumber(numbers.upperBound) else {
      throw .numberOutOfRange(numbers)
    }
  }

  /// Refuses a run as above, or a label of a length no directory holds.
  static func check(_ numbers: ClosedRange<Int64>, label: String) throws(ListingRowError) {
    try check(numbers)
    let length = label.utf8.count
    guard Limits.isValidLabelLength(length) else { throw .badLabelLength(numbers: numbers, length: length) }
  }
}
