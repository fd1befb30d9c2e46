import CallDirectoryFormat

/// The labels one stream (`forEachIdentification`, `forEachIdentificationRun`) handed out last,
/// by id: a direct-mapped table in front of the reader's shared `LabelCache`.
///
/// Streams read identification entries in number order, so their label ids come at random; each
/// id through the shared cache costs a search of the label index, a lock and a copy of a block's
/// labels. A slot an id (`id mod capacity`) turns a repeated id into an array access. The table belongs to one
/// stream, so it needs no lock, and it is bounded: at most 65,536 slots (about 1.5 MiB), fewer
/// for a smaller label table.
struct RecentLabels {
  /// The most slots a table has.
  static let maximumCapacity = 1 << 16

  /// A label and its id, together so that a lookup reads one place: `UInt32.max` for none
  /// (label ids are below the label count, a u32).
  private struct Slot {
    var id: UInt32
    var label: String
  }

  private var slots: [Slot]
  private let mask: Int

  /// A table with a slot for each of `labelCount` labels, up to `maximumCapacity` slots (a power
  /// of two; tests choose fewer to make ids share slots).
  init(labelCount: Int, maximumCapacity: Int = RecentLabels.maximumCapacity) {
    var capacity = 1
    while capacity < min(labelCount, maximumCapacity) { capacity <<= 1 }
    slots = Array(repeating: Slot(id: .max, label: ""), count: capacity)
    mask = capacity - 1
  }

  /// The label in `slot`; `slot(for:from:)` says which slot holds a label.
  subscript(slot: Int) -> String { slots[slot].label }

  /// The slot that holds label `id`, filled from `cache` (checked there) unless it holds it already.
  ///
  /// A miss fills the slots of every label of `id`'s block, which the cache hands over at once:
  /// a stream meets the rest of them soon, and one call a block costs far less than one a label.
  /// Callers read `self[slot]`.
  /// - Throws: `FormatError` as `LabelCache.label(_:)` does.
  mutating func slot(for id: UInt32, from cache: LabelCache) throws(FormatError) -> Int {
    let slot = Int(id) & mask
    guard slots[slot].id != id else { return slot }
    let (first, block) = try cache.block(containing: Int(id))
    for (position, label) in block.enumerated() {
      let labelId = first + position  // below the label count, a u32
      slots[labelId & mask] = Slot(id: UInt32(truncatingIfNeeded: labelId), label: label)
    }
    // A block longer than the table wraps around it: `id` goes in last, so its slot holds it.
    slots[slot] = Slot(id: id, label: block[Int(id) - first])
    return slot
  }
}
