import CallDirectoryFormat

/// The labels one stream (`forEachIdentification`, `forEachIdentificationRun`) hands out, by id:
/// the cache's array of every label when the cache holds the whole table, else a direct-mapped
/// table of the labels handed out last, in front of the reader's shared `LabelCache`.
///
/// Streams read identification entries in number order, so their label ids come at random; each
/// id through the shared cache costs a search of the label index, a lock and a copy of a block's
/// labels. The cache's whole table makes a label one array access with nothing to fill or free.
/// Without it, a slot an id (`id mod capacity`) turns a repeated id into an array access: the
/// table belongs to one stream, so it needs no lock, and it is bounded: at most 65,536 slots
/// (22 bytes each, about 1.4 MiB), fewer for a smaller label table, and labels costing at most
/// `defaultBudget` bytes (`LabelMemory`), or one block when a block costs more: a fill that
/// would pass the budget empties the table first, so long labels cannot make slots a table of
/// gigabytes.
///
/// Its hits are inlinable, so that a stream inlined into its consumer hands out a label without
/// a call, and the consumer's optimizer can drop the reference count of a label it only reads.
@usableFromInline
struct RecentLabels {
  /// The most slots a table has.
  @usableFromInline static let maximumCapacity = 1 << 16
  /// What the labels in a stream's own slots may cost (`LabelMemory`) before a fill empties them:
  /// 2 MiB, a few hundred thousand slots' worth of short labels, 32 of 64 KiB.
  @usableFromInline static let defaultBudget = 2 << 20

  /// The label in each slot: the cache's whole table, shared, where slot and id are the same;
  /// else this stream's own slots. One array in both cases, so that a read borrows the label
  /// from one place and a consumer that only reads it costs no reference count.
  @usableFromInline var labels: [String]
  /// The id in each of this stream's own slots, `UInt32.max` for none (label ids are below the
  /// label count, a u32); empty with the whole table.
  @usableFromInline var ids: [UInt32]
  @usableFromInline let mask: Int
  /// What the labels in this stream's own slots cost, and the most they may before a fill
  /// empties the slots; the most they have cost, for tests.
  @usableFromInline var bytes = 0
  @usableFromInline let budget: Int
  @usableFromInline var peak = 0
  /// The slots that hold a label, each once: what emptying the table visits (a slot is below
  /// `maximumCapacity`, 2^16, so two bytes hold it).
  @usableFromInline var filled: [UInt16] = []

  /// The labels of `cache`: its whole table when it has one (with `load`, after decoding the
  /// blocks it lacks, if the table fits its budget), else a table with a slot for each of
  /// `labelCount` labels, up to `maximumCapacity` slots (a power of two; tests choose fewer to
  /// make ids share slots), whose labels cost at most `budget` plus one block.
  /// - Throws: `FormatError` for a damaged label block, with `load`.
  @usableFromInline
  init(
    labelCount: Int, cache: LabelCache, load: Bool = true, maximumCapacity: Int = RecentLabels.maximumCapacity,
    budget: Int = RecentLabels.defaultBudget
  ) throws(FormatError) {
    self.budget = budget
    let whole = load ? try cache.loadWhole() : cache.whole()
    guard whole.isEmpty else {
      labels = whole
      ids = []
      mask = 0
      return
    }
    var capacity = 1
    while capacity < min(labelCount, maximumCapacity) { capacity <<= 1 }
    labels = Array(repeating: "", count: capacity)
    ids = Array(repeating: .max, count: capacity)
    mask = capacity - 1
  }

  /// Whether the slots are the cache's whole table.
  @usableFromInline var isWhole: Bool { ids.isEmpty }

  /// The label in `slot`; `slot(for:from:)` says which slot holds a label.
  @inlinable
  subscript(slot: Int) -> String { labels[slot] }

  /// The slot that holds label `id`, filled from `cache` (checked there) unless it holds it already.
  ///
  /// Callers read `self[slot]`. With the whole table the slot is the id; an id past the table
  /// goes to `fill`, whose cache throws for it.
  /// - Throws: `FormatError` as `LabelCache.label(_:)` does.
  @inlinable
  mutating func slot(for id: UInt32, from cache: LabelCache) throws(FormatError) -> Int {
    if ids.isEmpty { return Int(id) < labels.count ? Int(id) : try fill(id, from: cache) }
    let slot = Int(id) & mask
    if ids[slot] != id { return try fill(id, from: cache) }
    return slot
  }

  /// Fills the slots of every label of `id`'s block, which the cache hands over at once: a
  /// stream meets the rest of them soon, and one call a block costs far less than one a label.
  /// When that block completes the cache's whole table, the stream switches to it (the slots
  /// are freed). Returns the slot that now holds `id`.
  @usableFromInline
  mutating func fill(_ id: UInt32, from cache: LabelCache) throws(FormatError) -> Int {
    let (first, block) = try cache.block(containing: Int(id))
    let whole = cache.whole()
    guard whole.isEmpty else {
      labels = whole
      ids = []
      filled = []
      bytes = 0
      return Int(id)
    }
    if bytes > budget &- LabelMemory.cost(of: block) { empty() }  // both >= 0: the difference cannot wrap
    for (position, label) in block.enumerated() {
      put(label, id: first + position)  // below the label count, a u32
    }
    // A block longer than the table wraps around it: `id` goes in last, so its slot holds it.
    put(block[block.startIndex + (Int(id) - first)], id: Int(id))
    peak = max(peak, bytes)
    return Int(id) & mask
  }

  /// Puts `label` in the slot of `id`, counting what it costs instead of the label it replaces.
  private mutating func put(_ label: String, id: Int) {
    let slot = id & mask
    if ids[slot] != .max {
      bytes &-= LabelMemory.cost(ofLabelBytes: labels[slot].utf8.count)
    } else {
      filled.append(UInt16(truncatingIfNeeded: slot))  // slot <= mask < 2^16
    }
    labels[slot] = label
    ids[slot] = UInt32(truncatingIfNeeded: id)
    bytes &+= LabelMemory.cost(ofLabelBytes: label.utf8.count)  // at most the budget plus one block
  }

  /// Empties every slot: O(slots filled), each of which a fill paid for.
  private mutating func empty() {
    for slot in filled {
      labels[Int(slot)] = ""
      ids[Int(slot)] = .max
    }
    filled.removeAll(keepingCapacity: true)
    bytes = 0
  }
}
