import CallDirectoryFormat

/// One entry as `forEachEntry` hands it on, without its label: the label's bytes come beside it
/// as a `Span<UInt8>` of the parser's input, lent for the call.
///
/// A pack needs a label's bytes only long enough to find them in its label table; lending them,
/// rather than making a ``ListingRecord`` whose label is an `ArraySlice` of the input, spares two
/// reference-count operations or more a line.
///
///     try IdentifyCSVParser.forEachEntry(bytes: bytes, file: "names.csv", parser: .formatDomain) { entry, label in
///       print(entry.line, entry.numbers, label.count)  // the label's bytes, lent for the call
///     }
public struct ListingEntry: Sendable, Equatable {
  /// Whether the numbers are blocked, identified or exceptions to blocking.
  public var kind: ListingKind
  /// The numbers the entry covers: one, or a range.
  public var numbers: ClosedRange<Int64>
  /// The 1-based line of the input on which the entry begins.
  public var line: Int

  /// Creates an entry.
  public init(kind: ListingKind, numbers: ClosedRange<Int64>, line: Int) {
    self.kind = kind
    self.numbers = numbers
    self.line = line
  }
}

extension ListingRecord {
  /// Calls `body` with the record as an entry and its label's bytes (empty for a blocking
  /// entry): how the parsers' `forEachEntry` hands on a record that the general reader read.
  func lend<E: Error>(_ body: (ListingEntry, Span<UInt8>) throws(E) -> Void) throws(E) {
    let entry = ListingEntry(kind: kind, numbers: numbers, line: line)
    guard let label = labelUTF8 else { return try body(entry, [UInt8]().span) }
    try body(entry, label.span)
  }
}

extension PlainLine.Entry {
  /// Calls `body` with the entry and its label's bytes lent from `bytes`, the input it was read
  /// from, as the parsers' `forEachEntry` hands on a plain line.
  func lend(from bytes: [UInt8], line: Int, to body: (ListingEntry, Span<UInt8>) throws(ListingError) -> Void)
    throws(ListingError)
  {
    try body(ListingEntry(kind: kind, numbers: number...number, line: line), bytes.span.extracting(label))
  }
}
