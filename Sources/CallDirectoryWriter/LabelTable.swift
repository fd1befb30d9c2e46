import CallDirectoryFormat

/// The distinct labels given so far, each checked once and numbered in order of first use.
///
/// Ids here are provisional: the file numbers labels in ascending byte order, which is known only
/// once every label has been seen (`sortedOrder()`).
///
/// Every entry of a pack asks for its label's id, so the table is built for that question: the
/// labels' bytes lie back to back in one array, and an open-addressing hash table maps a label's
/// hash to its id. Asking for a known label reads the caller's bytes in place (a `String`'s own
/// UTF-8, with no array made an entry) and compares them with one stored label, almost always the
/// right one, since each slot keeps 32 bits of the hash beside the id.
///
/// Labels come from lists published by others, so the hash must not let a list choose its
/// collisions: it is keyed with a random seed per table (``LabelHash``), and a probe that runs past
/// 128 slots, which a random hash at half load gives about once in 10^10 probes, moves the table
/// to the standard library's SipHash for good (by chance, that costs only speed). Either way ids are numbered by first use,
/// so the hash never changes the file.
struct LabelTable: Sendable {
  /// Every label's bytes, back to back, in order of id.
  private var bytes: [UInt8] = []
  /// Where each label starts in `bytes`, and one past the last: label `i` is
  /// `bytes[starts[i] ..< starts[i + 1]]`.
  private var starts: [Int] = [0]
  /// The hash table, linear probing, a power of two in size and at most half full: 0 for an
  /// empty slot, else the label's id + 1 in the low 32 bits and the high 32 bits of its hash in
  /// the high ones.
  private var slots = [UInt64](repeating: 0, count: 64)
  /// The fast hash's key.
  private let seed = LabelHash.randomSeed()
  /// The id last asked for, or -1: listings sorted by number give a company's lines one after
  /// another, so the next entry's label is often the last one (44% of a business directory's),
  /// which a compare in the cache answers without a hash or a probe.
  private var lastId = -1
  /// Whether a long probe moved the table to SipHash.
  private(set) var usesSipHash = false
  /// The longest probe, in slots, before the table moves to SipHash.
  private let probeLimit: Int

  /// An empty table. At most half of the slots are ever full; linear probing then runs past k
  /// slots with a chance of about (0.5 e^0.5)^k, 2 x 10^-11 for 128. Tests pass a lower
  /// `probeLimit` to see the move.
  init(probeLimit: Int = 128) {
    self.probeLimit = probeLimit
  }

  /// The number of distinct labels.
  var count: Int { starts.count - 1 }

  /// The id of `label`, added if new; `number` names the entry in errors. A `String` is valid
  /// UTF-8 already, so only its length is checked.
  /// - Throws: `WriterError` for an empty or too long label, or too many labels.
  /// - Complexity: O(label length), amortised.
  mutating func id(of label: String, for number: Int64) throws(WriterError) -> UInt32 {
    var label = label
    return try label.withUTF8 { unsafe self.id(of: $0, isValidUTF8: true, for: number) }.get()
  }

  /// The id of `label`, added if new; `number` names the entry in errors.
  /// - Throws: `WriterError` for an empty, too long or invalid UTF-8 label, or too many labels.
  /// - Complexity: O(label length), amortised.
  mutating func id(of label: [UInt8], for number: Int64) throws(WriterError) -> UInt32 {
    try id(of: label[...], for: number)
  }

  /// The id of `label`, added if new; `number` names the entry in errors.
  /// - Throws: `WriterError` for an empty, too long or invalid UTF-8 label, or too many labels.
  /// - Complexity: O(label length), amortised.
  mutating func id(of label: ArraySlice<UInt8>, for number: Int64) throws(WriterError) -> UInt32 {
    try id(of: label.span, for: number)
  }

  /// The id of `label`, added if new; `number` names the entry in errors.
  /// - Throws: `WriterError` for an empty, too long or invalid UTF-8 label, or too many labels.
  /// - Complexity: O(label length), amortised.
  mutating func id(of label: Span<UInt8>, for number: Int64) throws(WriterError) -> UInt32 {
    try unsafe label.withUnsafeBufferPointer { unsafe self.id(of: $0, isValidUTF8: false, for: number) }.get()
  }

  /// The lookup and insertion itself, on bytes that live for the call.
  private mutating func id(
    of label: UnsafeBufferPointer<UInt8>, isValidUTF8: Bool, for number: Int64
  ) -> Result<UInt32, WriterError> {
    guard Limits.isValidLabelLength(label.count) else { return .failure(.badLabelLength(number: number, length: label.count)) }
    if lastId >= 0, unsafe holds(lastId, label) { return .success(UInt32(lastId)) }
    var (found, slot, hash, probes) = unsafe find(label)
    if let found {
      lastId = Int(found)
      return .success(found)
    }
    guard unsafe isValidUTF8 || UTF8Validation.isValid(ByteView(UnsafeRawBufferPointer(label))) else {
      return .failure(.invalidUTF8(number: number))
    }
    guard count < Int(UInt32.max) else { return .failure(.tooManyLabels) }
    if probes > probeLimit && !usesSipHash {
      usesSipHash = true
      rehashing(into: slots.count)
      (_, slot, hash, _) = unsafe find(label)
    }
    let id = UInt32(count)  // below UInt32.max, so id + 1 fits the slot's 32 bits
    lastId = Int(id)
    unsafe bytes.append(contentsOf: label)
    starts.append(bytes.count)
    slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
    if count * 2 > slots.count { grow() }
    return .success(id)
  }

  /// Takes the newest labels out until `count` labels are left: a writer that added a label for
  /// an entry it then refused takes the label back, so that the file holds exactly the labels of
  /// its entries. Ids below `count` are unchanged.
  /// - Complexity: O(removed labels' length), amortised.
  mutating func removeNewest(downTo count: Int) {
    while self.count > count {
      let id = self.count - 1
      // The slot that names `id`: found by its bytes, as a lookup would find it.
      let found = unsafe bytes.withUnsafeBufferPointer { arena in
        unsafe find(UnsafeBufferPointer(rebasing: arena[starts[id]..<starts[id + 1]]))
      }
      if found.id == UInt32(id) { removeSlot(found.slot) }
      bytes.removeSubrange(starts[id]...)
      starts.removeLast()
    }
    lastId = -1
  }

  /// Empties `slot` and moves back the entries after it in its cluster that probed past it, so
  /// that every remaining label is still found (deletion in linear probing without tombstones).
  private mutating func removeSlot(_ slot: Int) {
    let mask = slots.count - 1
    var hole = slot
    var next = (slot + 1) & mask
    slots[hole] = 0
    while slots[next] != 0 {
      // An entry may fill the hole only if its home is not cyclically within (hole, next]:
      // otherwise moving it would put it before its own first slot.
      let home = Self.home(slots[next], mask: mask)
      if (next - home) & mask >= (next - hole) & mask {
        slots[hole] = slots[next]
        slots[next] = 0
        hole = next
      }
      next = (next + 1) & mask
    }
  }

  /// The id of `label` if the table holds it, else the empty slot where it would go; with the
  /// label's hash and the count of full slots passed.
  private func find(_ label: UnsafeBufferPointer<UInt8>) -> (id: UInt32?, slot: Int, hash: UInt64, probes: Int) {
    let hash = unsafe hash(label)
    let tag = hash & 0xFFFF_FFFF_0000_0000
    let mask = slots.count - 1
    var slot = Self.home(hash, mask: mask)
    var probes = 0
    while slots[slot] != 0 {
      let entry = slots[slot]
      let id = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
      if entry & 0xFFFF_FFFF_0000_0000 == tag, unsafe holds(id, label) { return (UInt32(id), slot, hash, probes) }
      slot = (slot + 1) & mask
      probes += 1
    }
    return (nil, slot, hash, probes)
  }

  /// Whether label `id` is `label`, compared eight bytes at a time.
  private func holds(_ id: Int, _ label: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = starts[id]
    guard starts[id + 1] - start == label.count else { return false }
    return unsafe bytes.withUnsafeBytes { arena in
      let other = UnsafeRawBufferPointer(label)
      var offset = 0
      while offset + 8 <= other.count {
        // Both reads end inside their labels: `offset + 8 <= count` of each.
        let x = unsafe arena.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self)
        let y = unsafe other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        guard x == y else { return false }
        offset += 8
      }
      while offset < other.count {
        guard unsafe arena[start + offset] == other[offset] else { return false }
        offset += 1
      }
      return true
    }
  }

  /// The slot a hash's label is looked for first: from the hash's high 32 bits, which the slot
  /// keeps, so that growing the table needs no label hashed again. (Past 2^32 slots, more than
  /// any label table reaches, only the first 2^32 are first slots: probes grow longer, answers
  /// stay right.)
  private static func home(_ hash: UInt64, mask: Int) -> Int { Int(truncatingIfNeeded: hash >> 32) & mask }

  /// Doubles the table: each label moves to the slot its kept hash bits name in the larger one.
  private mutating func grow() {
    let size = slots.count * 2
    var grown = [UInt64](repeating: 0, count: size)
    let mask = size - 1
    for entry in slots where entry != 0 {
      var slot = Self.home(entry, mask: mask)
      while grown[slot] != 0 { slot = (slot + 1) & mask }
      grown[slot] = entry
    }
    slots = grown
  }

  /// Places every label again in a table of `size` slots (a power of two), hashed anew: after
  /// the move to SipHash, whose hashes the slots do not keep yet.
  private mutating func rehashing(into size: Int) {
    var grown = [UInt64](repeating: 0, count: size)
    let mask = size - 1
    unsafe bytes.withUnsafeBufferPointer { arena in
      for id in 0..<count {
        let hash = unsafe hash(UnsafeBufferPointer(rebasing: arena[starts[id]..<starts[id + 1]]))
        var slot = Self.home(hash, mask: mask)
        while grown[slot] != 0 { slot = (slot + 1) & mask }
        grown[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(id + 1)
      }
    }
    slots = grown
  }

  /// A label's hash: the seeded fast hash, or the standard library's SipHash (seeded per
  /// process) once a long probe has been seen.
  private func hash(_ label: UnsafeBufferPointer<UInt8>) -> UInt64 {
    guard usesSipHash else { return unsafe LabelHash.hash(UnsafeRawBufferPointer(label), seed: seed) }
    var hasher = Hasher()
    unsafe hasher.combine(bytes: UnsafeRawBufferPointer(label))
    return UInt64(bitPattern: Int64(hasher.finalize()))
  }

  /// The text of the label with provisional id `id`, for messages.
  func text(_ id: UInt32) -> String {
    Int(id) < count ? String(decoding: bytes[starts[Int(id)]..<starts[Int(id) + 1]], as: UTF8.self) : "#\(id)"
  }

  /// The labels in ascending byte order, and for each provisional id its id in that order.
  /// - Parameter used: when given, only the ids it marks are kept (an id past its end is unused);
  ///   an unused id's new id is `UInt32.max`, which nothing may refer to.
  /// - Complexity: O(L log L) comparisons, most of them of two integers: each label's first eight
  ///   bytes are its sort key, beside its id, and only labels that share those bytes are compared
  ///   in the arena, eight bytes at a time.
  func sortedOrder(keeping used: [Bool]? = nil) -> (sorted: SortedLabels, newId: [UInt32]) {
    let kept = (0..<count).filter { id in used.map { id < $0.count && $0[id] } ?? true }
    let order = unsafe bytes.withUnsafeBytes { arena in
      var keyed = kept.map { unsafe (key: Self.key(starts[$0]..<starts[$0 + 1], in: arena), id: $0) }
      keyed.sort { a, b in
        a.key != b.key
          ? a.key < b.key : unsafe Self.precedes(starts[a.id]..<starts[a.id + 1], starts[b.id]..<starts[b.id + 1], in: arena)
      }
      return keyed.map(\.id)
    }
    var newId = [UInt32](repeating: .max, count: count)
    var sorted = SortedLabels(reservingLabels: count, bytes: bytes.count)
    for (rank, original) in order.enumerated() {
      newId[original] = UInt32(rank)
      sorted.append(bytes[starts[original]..<starts[original + 1]])
    }
    return (sorted, newId)
  }

  /// The first eight bytes at `range` as a big-endian integer, zeros after a shorter label: keys
  /// in integer order are labels in byte order, except that equal keys need a full comparison.
  private static func key(_ range: Range<Int>, in arena: UnsafeRawBufferPointer) -> UInt64 {
    var key: UInt64 = 0
    for offset in 0..<8 {
      key <<= 8
      if offset < range.count { key |= UInt64(unsafe arena[range.lowerBound + offset]) }
    }
    return key
  }

  /// Whether the bytes at `a` sort before those at `b`, unsigned and byte by byte, a proper
  /// prefix first. Both ranges lie inside `arena`; every eight-byte read ends inside its range.
  private static func precedes(_ a: Range<Int>, _ b: Range<Int>, in arena: UnsafeRawBufferPointer) -> Bool {
    let common = min(a.count, b.count)
    var offset = 0
    while offset + 8 <= common {
      // Big-endian words compare as their bytes do.
      let x = UInt64(bigEndian: unsafe arena.loadUnaligned(fromByteOffset: a.lowerBound + offset, as: UInt64.self))
      let y = UInt64(bigEndian: unsafe arena.loadUnaligned(fromByteOffset: b.lowerBound + offset, as: UInt64.self))
      if x != y { return x < y }
      offset += 8
    }
    while offset < common {
      let x = unsafe arena[a.lowerBound + offset]
      let y = unsafe arena[b.lowerBound + offset]
      if x != y { return x < y }
      offset += 1
    }
    return a.count < b.count
  }
}
