import CallDirectoryFormat

/// The labels one stream (`forEachIdentification`, `forEachIdentificationRun`) handed out last,
/// by id: a direct-mapped table in front of the reader's shared `LabelCache`.
///
/// Streams read identification entries in number order, so their label ids come at random; each
/// id through the shared cache costs a search of the label index, a lock and a copy of a block's
/// labels. A slot an id (`id mod capacity`) turns a repeated id into an array access. The table belongs to one
/// stream, so it needs no lock, and it is bounded: at most 65,536 slots (about 1.3 MiB), fewer
/// for a smaller label table.
struct RecentLabels {
  /// The most slots a table has.
  static let maximumCapacity = 1 << 16

  /// The id each slot holds, `UInt32.max` for none (label ids are below the label count, a u32).
  private var ids: [UInt32]
  private let mask: Int

  /// A table with a slot for each of `labelCount` labels, up to `maximumCapacity` slots (a power
  /// of two; tests choose fewer to make ids share slots).
  init(labelCount: Int, maximumCapacity: Int = RecentLabels.maximumCapacity) {
    var capacity = 1
    while capacity < min(labelCount, maximumCapacity) { capacity <<= 1 }
    ids = Array(repeating: .max, count: capacity)
    labels = Array(repeating: "", count: capacity)
    mask = capacity - 1
  }

  /// The labels by slot; `slot(for:from:)` says which slot holds a label.
  private(set) var labels: [String]

  /// The slot that holds label `id`, filled from `cache` (checked there) unless it holds it already.
  ///
  /// A miss fills the slots of every label of `id`'s block, which the cache hands over at once:
  /// a stream meets the rest of them soon, and one call a block costs far less than one a label.
  /// Callers read `labels[slot]` in place.
  /// - Throws: `FormatError` as `LabelCache.label(_:)` does.
  mutating func slot(for id: UInt32, from cache: LabelCache) throws(FormatError) -> Int {
    let slot = Int(id) & mask
    guard ids[slot] != id else { return slot }
    let (first, block) = try cache.block(containing: Int(id))
    for (position, label) in block.enumerated() {
      let labelId = first + position  // below the label count, a u32
      ids[labelId & mask] = UInt32(truncatingIfNeeded: labelId)
      labels[labelId & mask] = label
    }
    // A block longer than the table wraps around it: `id` goes in last, so its slot holds it.
    ids[slot] = id
    labels[slot] = block[Int(id) - first]
    return slot
  }
}
