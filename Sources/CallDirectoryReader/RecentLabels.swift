import CallDirectoryFormat

/// The labels one stream (`forEachIdentification`, `forEachIdentificationRun`) handed out last,
/// by id: a direct-mapped table in front of the reader's shared `LabelCache`.
///
/// Streams read identification entries in number order, so their label ids come at random; each
/// id through the shared cache costs a search of the label index, a lock and a copy of a block's
/// labels. A slot an id (`id mod capacity`) turns a repeated id into an array access. The table belongs to one
/// stream, so it needs no lock, and it is bounded: at most 65,536 slots (about 1.5 MiB), fewer
/// for a smaller label table.
///
/// Its hits are inlinable, so that a stream inlined into its consumer hands out a label without
/// a call, and the consumer's optimizer can drop the reference count of a label it only reads.
@usableFromInline
struct RecentLabels {
  /// The most slots a table has.
  @usableFromInline static let maximumCapacity = 1 << 16

  /// A label and its id, together so that a lookup reads one place: `UInt32.max` for none
  /// (label ids are below the label count, a u32).
  @usableFromInline
  struct Slot {
    @usableFromInline var id: UInt32
    @usableFromInline var label: String
  }

  @usableFromInline var slots: [Slot]
  @usableFromInline let mask: Int

  /// A table with a slot for each of `labelCount` labels, up to `maximumCapacity` slots (a power
  /// of two; tests choose fewer to make ids share slots).
  @usableFromInline
  init(labelCount: Int, maximumCapacity: Int = RecentLabels.maximumCapacity) {
    var capacity = 1
    while capacity < min(labelCount, maximumCapacity) { capacity <<= 1 }
    slots = Array(repeating: Slot(id: .max, label: ""), count: capacity)
    mask = capacity - 1
  }

  /// The label in `slot`; `slot(for:from:)` says which slot holds a label.
  @inlinable
  subscript(slot: Int) -> String { slots[slot].label }

  /// The slot that holds label `id`, filled from `cache` (checked there) unless it holds it already.
  ///
  /// Callers read `self[slot]`.
  /// - Throws: `FormatError` as `LabelCache.label(_:)` does.
  @inlinable
  mutating func slot(for id: UInt32, from cache: LabelCache) throws(FormatError) -> Int {
    let slot = Int(id) & mask
    if slots[slot].id != id { try fill(id, from: cache) }
    return slot
  }

  /// Fills the slots of every label of `id`'s block, which the cache hands over at once: a
  /// stream meets the rest of them soon, and one call a block costs far less than one a label.
  @usableFromInline
  mutating func fill(_ id: UInt32, from cache: LabelCache) throws(FormatError) {
    let (first, block) = try cache.block(containing: Int(id))
    for (position, label) in block.enumerated() {
      let labelId = first + position  // below the label count, a u32
      slots[labelId & mask] = Slot(id: UInt32(truncatingIfNeeded: labelId), label: label)
    }
    // A block longer than the table wraps around it: `id` goes in last, so its slot holds it.
    slots[Int(id) & mask] = Slot(id: id, label: block[Int(id) - first])
  }
}
