import CallDirectoryFormat

/// A listing writer that buffers its rows in memory and hands them on in pieces: the CSV of
/// ``ListingWriter`` or the JSON Lines of ``ListingJSONLines/Writer``. Code that writes either
/// form, such as `calldir unpack`, is written once against this protocol.
///
/// A conforming type encodes rows; buffering (``isFull``, ``flush(to:)``) and records
/// (``append(_:)``) come from the extension, the same for every form.
///
///     func write(_ records: [ListingRecord], to output: inout some ListingOutput) throws(ListingRowError) {
///       for record in records { try output.append(record) }
///     }
///     var csv = ListingWriter()
///     try write([ListingRecord(kind: .blocking, number: 12_025_550_100)], to: &csv)
///     print(String(decoding: csv.bytes, as: UTF8.self))  // kind,number,label / block,+12025550100,
public protocol ListingOutput: Sendable {
  /// The bytes written and not yet flushed.
  var bytes: [UInt8] { get }

  /// Appends the row of a blocking entry: a range, or a single number as a range of one.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` when an end is outside
  ///   `1 ... Int64.max - 1`; nothing is written then.
  mutating func appendBlock(_ numbers: ClosedRange<Int64>) throws(ListingRowError)

  /// Appends the row of an exception to blocking (`allow`): a range, or a single number.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` as ``appendBlock(_:)``.
  mutating func appendException(_ numbers: ClosedRange<Int64>) throws(ListingRowError)

  /// Appends the row of an identification entry.
  ///
  /// - Throws: ``ListingRowError`` when an end is outside `1 ... Int64.max - 1` or `label` does
  ///   not have 1 ... 65,534 UTF-8 bytes; nothing is written then.
  mutating func appendIdentification(_ numbers: ClosedRange<Int64>, label: String) throws(ListingRowError)

  /// Empties the buffer, keeping its capacity: what ``flush(to:)`` does once the sink has taken
  /// the bytes.
  mutating func clear()
}

extension ListingOutput {
  /// Whether the buffer has reached ``ListingWriter/flushThreshold`` bytes.
  public var isFull: Bool { bytes.count >= ListingWriter.flushThreshold }

  /// Appends the row of a blocking entry for one number.
  ///
  /// - Throws: as ``appendBlock(_:)-(ClosedRange<Int64>)``.
  public mutating func appendBlock(_ number: Int64) throws(ListingRowError) {
    try appendBlock(number...number)
  }

  /// Appends the row of an identification entry for one number.
  ///
  /// - Throws: as ``appendIdentification(_:label:)-(ClosedRange<Int64>,_)``.
  public mutating func appendIdentification(_ number: Int64, label: String) throws(ListingRowError) {
    try appendIdentification(number...number, label: label)
  }

  /// Appends the row for `record`. The label of a blocking record or an exception is not written;
  /// the record's line is ignored.
  ///
  /// - Throws: ``ListingRowError`` as for the rows, and ``ListingRowError/missingLabel(numbers:)``
  ///   for an identify record without a label.
  /// - Complexity: O(*n*) in the label's length, amortised.
  public mutating func append(_ record: ListingRecord) throws(ListingRowError) {
    switch record.kind {
    case .blocking:
      try appendBlock(record.numbers)
    case .exception:
      try appendException(record.numbers)
    case .identification:
      guard let label = record.label else { throw .missingLabel(numbers: record.numbers) }
      try appendIdentification(record.numbers, label: label)
    }
  }

  /// Hands the buffered bytes to `sink` and empties the buffer, keeping its capacity.
  ///
  /// - Throws: Whatever `sink` throws; the buffer is then left as it was.
  public mutating func flush<Failure: Error>(to sink: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
    if bytes.isEmpty { return }
    try sink(bytes)
    clear()
  }

  /// Calls ``flush(to:)`` when ``isFull``.
  ///
  /// - Throws: Whatever `sink` throws.
  public mutating func flushIfFull<Failure: Error>(to sink: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
    if isFull { try flush(to: sink) }
  }
}
