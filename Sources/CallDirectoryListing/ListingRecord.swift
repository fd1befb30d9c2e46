import CallDirectoryFormat

/// One entry read from, or to be written to, a text listing.
///
///     let spam = ListingRecord(kind: .blocking, number: 33_612_345_678)
///     let range = ListingRecord(kind: .blocking, number: 12_025_550_100, last: 12_025_550_199)
///     let named = ListingRecord(kind: .identification, number: 12_025_550_123, label: "Pharmacy")
///     print(named.label ?? "", spam.line, range.last ?? 0)
public struct ListingRecord: Sendable, Equatable {
  /// Whether the number is blocked, identified or an exception to blocking (the raw values,
  /// `block`, `identify` and `allow`, are the words of a listing's `kind` column).
  public var kind: ListingKind
  /// The international number, in `1 ... Int64.max - 1` when read by a parser; for a range,
  /// its first number.
  public var number: Int64
  /// For a range, its last number (above `number`); `nil` for a single number.
  public var last: Int64?
  /// The identification label's UTF-8 bytes, as read; `nil` for blocking entries and exceptions.
  /// Parsers give well-formed UTF-8 of 1 ... 65,534 bytes (`Limits.isValidLabelLength`), a slice
  /// of their input where the text holds the label as it is: a pack hands these bytes to the
  /// writer, which makes no `String` a line. Records compare labels byte by byte, as the format
  /// does (two spellings of "é" are two labels).
  public var labelUTF8: ArraySlice<UInt8>?
  /// The identification label as a `String`, made from ``labelUTF8`` at each read (ill-formed
  /// bytes, which no parser gives, become U+FFFD); setting it sets ``labelUTF8``.
  public var label: String? {
    get { labelUTF8.map { String(decoding: $0, as: UTF8.self) } }
    set { labelUTF8 = newValue.map { Array($0.utf8)[...] } }
  }
  /// The 1-based line of the input on which the entry begins; 0 for entries not read from text.
  public var line: Int

  /// Creates a record.
  public init(kind: ListingKind, number: Int64, last: Int64? = nil, label: String? = nil, line: Int = 0) {
    self.kind = kind
    self.number = number
    self.last = last
    self.labelUTF8 = label.map { Array($0.utf8)[...] }
    self.line = line
  }

  /// A record of `kind` for `numbers` (a single number when the range holds one) whose label is
  /// given as UTF-8 bytes, kept as they are.
  public init(kind: ListingKind, numbers: ClosedRange<Int64>, labelUTF8: ArraySlice<UInt8>?, line: Int = 0) {
    self.init(kind: kind, numbers: numbers, line: line)
    self.labelUTF8 = labelUTF8
  }

  /// A blocking entry.
  public static func block(_ number: Int64, line: Int = 0) -> ListingRecord {
    ListingRecord(kind: .blocking, number: number, label: nil, line: line)
  }

  /// The numbers the record covers: one, or its range.
  public var numbers: ClosedRange<Int64> { number...(last ?? number) }

  /// A record of `kind` for `numbers`: a single number when the range holds one, else a range.
  public init(kind: ListingKind, numbers: ClosedRange<Int64>, label: String? = nil, line: Int = 0) {
    let last = numbers.upperBound > numbers.lowerBound ? numbers.upperBound : nil
    self.init(kind: kind, number: numbers.lowerBound, last: last, label: label, line: line)
  }

  /// An exception to blocking: `numbers` are not blocked, though a blocking range holds them.
  public static func allow(_ numbers: ClosedRange<Int64>, line: Int = 0) -> ListingRecord {
    ListingRecord(kind: .exception, numbers: numbers, label: nil, line: line)
  }

  /// An identification entry.
  public static func identify(_ number: Int64, label: String, line: Int = 0) -> ListingRecord {
    ListingRecord(kind: .identification, number: number, label: label, line: line)
  }
}
