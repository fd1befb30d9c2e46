import CallDirectoryFormat

/// Where a load that was split stopped: the next addition to send.
///
/// A load sends at most its limit of additions; when the source holds more, the feed returns a
/// cursor and the next (incremental) load resumes from it. Additions go blocking first, then
/// identification, each ascending, so a kind and a number say exactly what has been sent: every
/// addition before `next` in the order (blocking before identification).
///
/// The cursor is a small `Codable` value: an extension stores it between loads
/// (`CallDirectoryLoader` keeps it in its state record in the App Group container) and drops it
/// when a new directory or changeset arrives. It carries
/// the fingerprint of what it was made from, and the feed refuses a cursor whose fingerprint does
/// not match.
///
///     let data = try JSONEncoder().encode(cursor)
///     let again = try JSONDecoder().decode(FeedCursor.self, from: data)
///     print(again == cursor)  // true
public struct FeedCursor: Sendable, Hashable, Codable {
  /// The kind of the next addition.
  public var kind: EntryKind
  /// The next number of `kind` to send: nothing of `kind` below it is sent again.
  public var next: Int64
  /// The fingerprint of the directory or changes the cursor belongs to.
  public var fingerprint: UInt64

  /// A cursor at `next` in `kind`, for the source with `fingerprint`.
  public init(kind: EntryKind, next: Int64, fingerprint: UInt64) {
    self.kind = kind
    self.next = next
    self.fingerprint = fingerprint
  }

  private enum CodingKeys: String, CodingKey { case kind, next, fingerprint }

  /// Decodes a cursor stored by `encode(to:)`.
  /// - Throws: `DecodingError` when a field is missing or the kind is unknown.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let name = try container.decode(String.self, forKey: .kind)
    guard let kind = EntryKind(rawValue: name) else {
      throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind \(name)")
    }
    self.kind = kind
    next = try container.decode(Int64.self, forKey: .next)
    fingerprint = try container.decode(UInt64.self, forKey: .fingerprint)
  }

  /// Encodes the kind by its name (`block`, `identify`), the number and the fingerprint.
  /// - Throws: what the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind.rawValue, forKey: .kind)
    try container.encode(next, forKey: .next)
    try container.encode(fingerprint, forKey: .fingerprint)
  }
}
