import CallDirectoryFormat

/// The distinct labels given so far, each checked once and numbered in order of first use.
///
/// Ids here are provisional: the file numbers labels in ascending byte order, which is known only
/// once every label has been seen (`sortedOrder()`).
struct LabelTable: Sendable {
  private(set) var labels: [[UInt8]] = []
  private var ids: [Key: UInt32] = [:]

  /// A label's bytes as a dictionary key, hashed in one call over the whole buffer: `[UInt8]`'s
  /// own hashing feeds the hasher a byte at a time, which made the lookup a third of a pack of
  /// mostly distinct labels.
  private struct Key: Hashable, Sendable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
      unsafe bytes.withUnsafeBytes { unsafe hasher.combine(bytes: $0) }
    }
  }

  /// The id of `label`, added if new; `number` names the entry in errors.
  /// - Throws: `WriterError` for an empty, too long or invalid UTF-8 label, or too many labels.
  mutating func id(of label: [UInt8], for number: Int64) throws(WriterError) -> UInt32 {
    guard Limits.isValidLabelLength(label.count) else { throw .badLabelLength(number: number, length: label.count) }
    if let known = ids[Key(bytes: label)] { return known }
    guard UTF8Validation.isValid(label) else { throw .invalidUTF8(number: number) }
    guard labels.count < Int(UInt32.max) else { throw .tooManyLabels }
    let id = UInt32(labels.count)
    labels.append(label)
    ids[Key(bytes: label)] = id
    return id
  }

  /// The text of the label with provisional id `id`, for messages.
  func text(_ id: UInt32) -> String {
    Int(id) < labels.count ? String(decoding: labels[Int(id)], as: UTF8.self) : "#\(id)"
  }

  /// The labels in ascending byte order, and for each provisional id its id in that order.
  func sortedOrder() -> (sorted: [[UInt8]], newId: [UInt32]) {
    let order = labels.indices.sorted { labels[$0].lexicographicallyPrecedes(labels[$1]) }
    var newId = [UInt32](repeating: 0, count: labels.count)
    for (rank, original) in order.enumerated() { newId[original] = UInt32(rank) }
    return (order.map { labels[$0] }, newId)
  }
}
