/// The lines of a text input held in memory, one after another: the splitting every line-based
/// reader shares (block lists, JSON Lines, TSV).
///
/// A UTF-8 byte order mark at the very start is skipped; lines end with LF, and a CR right
/// before the LF is not part of the line. Line numbers are 1-based.
struct TextLines {
  private let bytes: [UInt8]
  private var start: Int
  private var number = 1

  /// Lines of `bytes`; with `atStart` false (a later piece of an input read in pieces) a byte
  /// order mark is not skipped, since it is not at the input's start.
  init(_ bytes: [UInt8], atStart: Bool = true) {
    self.bytes = bytes
    start = atStart ? ByteOrderMark.length(atStartOf: bytes.span) : 0
  }

  /// The next line's byte range (without its line end) and number, or `nil` at the end.
  /// - Complexity: O(length of the line).
  mutating func next() -> (range: Range<Int>, line: Int)? {
    guard start < bytes.count else { return nil }
    let end = LineFeeds.first(in: bytes.span, from: start)
    var last = end
    // Only a CR that an LF follows ends a line: one at the very end of the input is text, which
    // each reader then judges (as the CSV reader does).
    if end < bytes.count && last > start && bytes[last - 1] == 0x0D { last -= 1 }
    defer {
      start = end + 1
      number += 1
    }
    return (start..<last, number)
  }
}
