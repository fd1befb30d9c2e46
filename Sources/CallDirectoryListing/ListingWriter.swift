import CallDirectoryFormat

/// Writes a listing, the CSV that ``ListingParser`` reads, into a byte buffer.
///
/// The output is UTF-8 with LF line ends: the header `kind,number,label`, then one row per entry,
/// `block,+12025550100,` or `identify,+12025550100,Acme Support`. A label is quoted, with its
/// quotes doubled, when it contains `,`, `"`, CR or LF, or begins or ends with a space or tab
/// (so that tools which trim unquoted fields keep it intact). Reading the output back with
/// ``ListingParser`` and ``PhoneNumberParser/formatDomain`` gives the same entries.
///
/// For large outputs, hand the buffer on whenever ``isFull`` with ``flush(to:)``:
///
/// ```swift
/// let output = try FileHandle(forWritingTo: URL(fileURLWithPath: "list.csv"))
/// var writer = ListingWriter()
/// for record in try ListingParser.parse(bytes: bytes, file: "in.csv", parser: .formatDomain) {
///   try writer.append(record)
///   try writer.flushIfFull { try output.write(contentsOf: $0) }
/// }
/// try writer.flush { try output.write(contentsOf: $0) }
/// ```
public struct ListingWriter: ListingOutput {
  /// The buffered size, in bytes, at which ``isFull`` becomes true: 64 KiB.
  public static let flushThreshold = 65_536

  // The kind column's words are the raw values of the format's `EntryKind`.
  private static let blockPrefix = Array("\(ListingKind.blocking.rawValue),".utf8)
  private static let allowPrefix = Array("\(ListingKind.exception.rawValue),".utf8)
  private static let identifyPrefix = Array("\(ListingKind.identification.rawValue),".utf8)

  /// The bytes written and not yet flushed.
  public private(set) var bytes: [UInt8] = []

  /// Creates a writer, with the header line in its buffer unless `header` is false.
  public init(header: Bool = true) {
    bytes.reserveCapacity(Self.flushThreshold + 256)
    if header { bytes.append(contentsOf: "kind,number,label\n".utf8) }
  }

  /// Appends `block,+FIRST..+LAST,` for a range, or `block,+NUMBER,` for a range of one.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` when an end is outside
  ///   `1 ... Int64.max - 1`; nothing is written then.
  public mutating func appendBlock(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try append(Self.blockPrefix, numbers)
  }

  /// Appends `allow,+FIRST..+LAST,` for a range of exceptions, or `allow,+NUMBER,` for one.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` as ``appendBlock(_:)``.
  public mutating func appendException(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try append(Self.allowPrefix, numbers)
  }

  private mutating func append(_ unlabelledPrefix: [UInt8], _ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try ListingRowError.check(numbers)
    bytes.append(contentsOf: unlabelledPrefix)
    bytes.appendInternational(numbers)
    bytes.append(contentsOf: ",\n".utf8)
  }

  /// Appends `identify,+FIRST..+LAST,LABEL` for a range, or `identify,+NUMBER,LABEL` for a range
  /// of one, quoting the label where needed.
  ///
  /// - Throws: ``ListingRowError`` when an end is outside `1 ... Int64.max - 1` or `label` does
  ///   not have 1 ... 65,534 UTF-8 bytes; nothing is written then.
  public mutating func appendIdentification(_ numbers: ClosedRange<Int64>, label: String) throws(ListingRowError) {
    try ListingRowError.check(numbers, label: label)
    bytes.append(contentsOf: Self.identifyPrefix)
    bytes.appendInternational(numbers)
    bytes.append(0x2C)
    appendField(label)
    bytes.append(0x0A)
  }

  /// Empties the buffer, keeping its capacity.
  public mutating func clear() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// The complete listing of `records`, header first.
  ///
  /// - Throws: ``ListingRowError`` for the first record ``append(_:)`` refuses.
  /// - Complexity: O(*n*) in the size of the output.
  public static func render(_ records: some Sequence<ListingRecord>) throws(ListingRowError) -> [UInt8] {
    var writer = ListingWriter()
    for record in records { try writer.append(record) }
    return writer.bytes
  }

  /// Appends `text` as one CSV field, quoted when a reader could otherwise misread it.
  private mutating func appendField(_ text: String) {
    let utf8 = text.utf8
    var needsQuotes = false
    for byte in utf8 where byte == 0x2C || byte == 0x22 || byte == 0x0D || byte == 0x0A {
      needsQuotes = true
      break
    }
    if !needsQuotes, let first = utf8.first, let last = utf8.last {
      needsQuotes = first == 0x20 || first == 0x09 || last == 0x20 || last == 0x09
    }
    guard needsQuotes else {
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    for byte in utf8 {
      bytes.append(byte)
      if byte == 0x22 { bytes.append(0x22) }
    }
    bytes.append(0x22)
  }
}
