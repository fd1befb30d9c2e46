import CallDirectoryFormat

/// Writes a listing, the CSV (or TSV) that ``ListingParser`` reads, into a byte buffer.
///
/// The output is UTF-8 with LF line ends: the header `kind,number,label`, then one row per entry,
/// `block,+12025550100,` or `identify,+12025550100,Acme Support`. A label is quoted, with its
/// quotes doubled, when it contains `,`, `"`, CR or LF, or begins or ends with a space or tab
/// (which an unquoted label loses when read). Reading the output back with ``ListingParser`` and
/// ``PhoneNumberParser/formatDomain`` gives the same entries.
///
/// As ``TableFormat/tsv`` the fields are separated by tabs and never quoted, so a label that holds
/// a tab, CR or LF, or begins or ends with a space or tab, cannot be written
/// (``ListingRowError/labelNotTabSeparable(numbers:)``).
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

  /// The bytes written and not yet flushed.
  public private(set) var bytes: [UInt8] = []
  /// Whether fields are separated by tabs rather than commas.
  private let tabSeparated: Bool
  // The kind column's words, the raw values of the format's `EntryKind`, with their separator.
  private let blockPrefix: [UInt8]
  private let allowPrefix: [UInt8]
  private let identifyPrefix: [UInt8]

  /// Creates a CSV writer, with the header line in its buffer unless `header` is false.
  public init(header: Bool = true) {
    self.init(header: header, format: .csv)
  }

  /// Creates a writer of `format`, with the header line in its buffer unless `header` is false.
  public init(header: Bool = true, format: TableFormat) {
    tabSeparated = format == .tsv
    let separator = tabSeparated ? "\t" : ","
    blockPrefix = Array("\(ListingKind.blocking.rawValue)\(separator)".utf8)
    allowPrefix = Array("\(ListingKind.exception.rawValue)\(separator)".utf8)
    identifyPrefix = Array("\(ListingKind.identification.rawValue)\(separator)".utf8)
    bytes.reserveCapacity(Self.flushThreshold + 256)
    if header { bytes.append(contentsOf: "kind\(separator)number\(separator)label\n".utf8) }
  }

  /// Appends `block,+FIRST..+LAST,` for a range, or `block,+NUMBER,` for a range of one.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` when an end is outside
  ///   `1 ... Int64.max - 1`; nothing is written then.
  public mutating func appendBlock(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try append(blockPrefix, numbers)
  }

  /// Appends `allow,+FIRST..+LAST,` for a range of exceptions, or `allow,+NUMBER,` for one.
  ///
  /// - Throws: ``ListingRowError/numberOutOfRange(_:)`` as ``appendBlock(_:)``.
  public mutating func appendException(_ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try append(allowPrefix, numbers)
  }

  private mutating func append(_ unlabelledPrefix: [UInt8], _ numbers: ClosedRange<Int64>) throws(ListingRowError) {
    try ListingRowError.check(numbers)
    bytes.append(contentsOf: unlabelledPrefix)
    bytes.appendInternational(numbers)
    bytes.append(tabSeparated ? tab : comma)
    bytes.append(lineFeed)
  }

  /// Appends `identify,+FIRST..+LAST,LABEL` for a range, or `identify,+NUMBER,LABEL` for a range
  /// of one, quoting the label where needed.
  ///
  /// - Throws: ``ListingRowError`` when an end is outside `1 ... Int64.max - 1` or `label` does
  ///   not have 1 ... 65,534 UTF-8 bytes, or, tab-separated, cannot be written unquoted; nothing
  ///   is written then.
  public mutating func appendIdentification(_ numbers: ClosedRange<Int64>, label: String) throws(ListingRowError) {
    try ListingRowError.check(numbers, label: label)
    if tabSeparated {
      guard Self.isTabSeparable(label) else { throw .labelNotTabSeparable(numbers: numbers) }
    }
    bytes.append(contentsOf: identifyPrefix)
    bytes.appendInternational(numbers)
    if tabSeparated {
      bytes.append(tab)
      bytes.append(contentsOf: label.utf8)
    } else {
      bytes.append(comma)
      appendField(label)
    }
    bytes.append(lineFeed)
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

  /// Whether `text` must be quoted in CSV to be read back as it is: it holds `,`, `"`, CR or LF,
  /// or begins or ends with a space or tab, which an unquoted field loses.
  private static func needsQuotes(_ text: String) -> Bool {
    text.utf8.contains { $0 == comma || $0 == quote || $0 == carriageReturn || $0 == lineFeed } || hasBlankEnd(text)
  }

  /// Whether `text` can be a TSV field as it is: it holds no tab, CR or LF, and neither begins
  /// nor ends with a space or tab.
  package static func isTabSeparable(_ text: String) -> Bool {
    !text.utf8.contains { $0 == tab || $0 == carriageReturn || $0 == lineFeed } && !hasBlankEnd(text)
  }

  /// Whether `text` begins or ends with a space or tab.
  private static func hasBlankEnd(_ text: String) -> Bool {
    guard let first = text.utf8.first, let last = text.utf8.last else { return false }
    return isSpaceOrTab(first) || isSpaceOrTab(last)
  }

  /// Appends `text` as one CSV field, quoted when a reader could otherwise misread it.
  private mutating func appendField(_ text: String) {
    let utf8 = text.utf8
    guard Self.needsQuotes(text) else {
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
