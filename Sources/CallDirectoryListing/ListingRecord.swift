import CallDirectoryFormat

/// One entry read from, or to be written to, a text listing.
public struct ListingRecord: Sendable, Equatable {
  /// Whether the number is blocked or identified (the format's own `EntryKind`, whose raw
  /// values, `block` and `identify`, are the words of a listing's `kind` column).
  public var kind: EntryKind
  /// The international number, in `1 ... Int64.max - 1` when read by a parser.
  public var number: Int64
  /// The identification label; `nil` for `EntryKind.blocking` entries. Parsers give labels of
  /// 1 ... 65,534 UTF-8 bytes (`Limits.isValidLabelLength`).
  public var label: String?
  /// The 1-based line of the input on which the entry begins; 0 for entries not read from text.
  public var line: Int

  /// Creates a record.
  public init(kind: EntryKind, number: Int64, label: String? = nil, line: Int = 0) {
    self.kind = kind
    self.number = number
    self.label = label
    self.line = line
  }

  /// A blocking entry.
  public static func block(_ number: Int64, line: Int = 0) -> ListingRecord {
    ListingRecord(kind: .blocking, number: number, label: nil, line: line)
  }

  /// An identification entry.
  public static func identify(_ number: Int64, label: String, line: Int = 0) -> ListingRecord {
    ListingRecord(kind: .identification, number: number, label: label, line: line)
  }
}
