import CallDirectoryFormat
import CallDirectorySystem

/// Why a directory could not be built or written.
///
///     var writer = try AscendingDirectoryWriter()
///     do throws(WriterError) {
///       try writer.identify(33_612_345_678, label: label)
///     } catch {
///       print("refused: \(error)")  // for example .badLabelLength for an empty label
///     }
public enum WriterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A number lies outside `1 ... Int64.max - 1`.
  case numberOutOfRange(Int64)
  /// A label is empty or longer than 65,534 UTF-8 bytes.
  case badLabelLength(number: Int64, length: Int)
  /// A label given as bytes is not valid UTF-8.
  case invalidUTF8(number: Int64)
  /// One number was given two different labels (in a blocking list, `block` and `allow`).
  case conflictingLabels(number: Int64, first: String, second: String)
  /// A range's ends are outside `1 ... Int64.max - 1` or in the wrong order.
  case invalidRange(first: Int64, last: Int64)
  /// Two ranges of one list with different labels are the same numbers, or overlap with neither
  /// inside the other, so that no entry is the more specific (`Spec/INPUT.md`, section 3.5). A
  /// blocking list's labels are `block` and `allow` (an exception).
  case overlappingRanges(first: ClosedRange<Int64>, firstLabel: String, second: ClosedRange<Int64>, secondLabel: String)
  /// More distinct labels than a `UInt32` id can name.
  case tooManyLabels
  /// A streamed entry or range starts before the one given before it in the same list.
  case outOfOrder(kind: String, previous: Int64, next: Int64)
  /// An option is outside its allowed range.
  case invalidOption(String)
  /// Writing the file failed.
  case system(SystemError)

  /// A one-line message naming the number or file at fault.
  public var description: String {
    switch self {
    case .numberOutOfRange(let number): return "number \(number) is outside 1...\(Limits.maximumNumber)"
    case .badLabelLength(let number, let length):
      return length == 0
        ? "empty label for +\(number)"
        : "label for +\(number) is \(length) bytes, longer than \(Limits.maximumLabelBytes)"
    case .invalidUTF8(let number): return "label for +\(number) is not valid UTF-8"
    case .conflictingLabels(let number, let first, let second):
      return "+\(number) has two labels: \"\(first)\" and \"\(second)\""
    case .invalidRange(let first, let last):
      return "range +\(first)..+\(last) is not within 1...\(Limits.maximumNumber) in ascending order"
    case .overlappingRanges(let first, let firstLabel, let second, let secondLabel):
      if first == second { return "range \(show(first)) is given twice, as \"\(firstLabel)\" and as \"\(secondLabel)\"" }
      return
        "ranges \(show(first)) (\"\(firstLabel)\") and \(show(second)) (\"\(secondLabel)\") overlap with neither inside the other"
    case .tooManyLabels: return "more than \(UInt32.max) distinct labels"
    case .outOfOrder(let kind, let previous, let next):
      return "\(kind) entries out of order: +\(next) after +\(previous) (a streamed list must be ascending)"
    case .invalidOption(let message): return message
    case .system(let error): return error.description
    }
  }
}

/// A range as it is written in listings: `+FIRST..+LAST`.
private func show(_ range: ClosedRange<Int64>) -> String { "+\(range.lowerBound)..+\(range.upperBound)" }
