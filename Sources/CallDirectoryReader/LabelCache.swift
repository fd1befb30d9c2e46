import CallDirectoryFormat
import Synchronization

/// Decoded label blocks, kept up to a byte budget so that reading labels does not inflate and
/// check a label block for every entry.
///
/// Labels are stored in byte order, not in number order, so identification entries read in number
/// order (a CallKit feed) or at random (calls coming in) touch label blocks at random: a cache that
/// holds the whole table when it fits the budget turns every later read into an array access.
/// Blocks are decoded with every check (`LabelDecoder`), outside the lock; when the budget is
/// exceeded the oldest blocks are dropped. The budget counts what the labels cost in memory
/// (`LabelMemory`), not how many there are, so a table of long labels that deflate to little (a
/// few bytes in the file inflating to 64 KiB each) costs no more than one of short ones. Once
/// every block has been decoded without one dropped, the blocks become one array of every label
/// by id (`whole`), which a stream reads directly instead of copying labels into a table of its
/// own. Safe to share between threads.
// @safe: the one unsafe member is the published table's reference, which `settle` retains once
// and `deinit` releases, and which `withSettled` lends only while the cache is alive.
@usableFromInline @safe
final class LabelCache: Sendable {
  /// The default budget, 5 MiB: what the labels of the blocks kept cost in memory
  /// (`LabelMemory`), about the table of a 50,000-label directory of 20- to 30-byte labels
  /// (4.5 MB for 45,000 of them). The cache holds at most its budget plus the block read last
  /// (`LabelMemory.maximumBlockCost`), whatever the labels inflate to.
  static let defaultBudget = 5 << 20

  /// How many blocks `label(_:)` decodes one at a time before it decodes the rest of the table,
  /// when it fits the budget. Labels are read in label order only by streams: a reader answering
  /// calls meets blocks at random, and with a few shared labels (Zipf) it would meet the last of
  /// them only after a very long time, reading every label through the lock and the label
  /// index meanwhile (about 370 instructions, against a few for an array). A reader that shows
  /// a handful of labels (`calldir info`, a lookup from the command line) stays below it.
  static let wholeAfter = 16

  private struct State {
    /// Block `i`'s labels, or empty when block `i` is not cached (a block holds at least one
    /// label). Sized to the block count on first use, so that opening a file stays O(1).
    var blocks: [[String]] = []
    /// Cached blocks, oldest first from `next`.
    var order: [Int] = []
    var next = 0
    /// What the cached labels cost (`LabelMemory`), the whole table's once it is whole.
    var bytes = 0
    /// The most `bytes` has been, or a table being loaded whole: what the budget bounds.
    var peak = 0
    /// Label blocks decoded so far, for tests that show a reader inflates no label it needs not.
    var decodedBlocks = 0
    /// Every label by id, once every block is cached and none was dropped; `blocks` and `order`
    /// are then released, and nothing changes any more.
    var whole: [String] = []
    /// Set when a block had to be dropped, or `loadWhole` found the table larger than the
    /// budget: the table cannot become whole, and no stream tries again.
    var overBudget = false
    /// Set once `label(_:)` has decoded the blocks not cached yet after `wholeAfter` blocks, so
    /// that a table with a damaged block is not walked again on every later read.
    var completed = false

    /// Joins the blocks, every one cached, into `whole`: once a reader's life, O(labels), under the
    /// lock (readers meanwhile wait for one copy of the label references). The blocks were located
    /// through a checked index, so they hold `labelCount` labels; anything else keeps the blocks.
    mutating func makeWhole(labelCount: Int) {
      var labels: [String] = []
      labels.reserveCapacity(labelCount)
      for block in blocks { labels.append(contentsOf: block) }
      guard labels.count == labelCount else { return }
      whole = labels
      blocks = []
      order = []
    }
  }

  /// The reader's bytes and where its label index and blocks lie in them.
  private let storage: FileStorage
  private let shape: DirectoryLayout.Shape
  /// The reader's checks: the label index is checked whole before its first record is used.
  private let checks: ReadChecks
  private let budget: Int
  private let state = Mutex(State())
  /// The whole table once it is whole, which it then stays for the reader's life: published
  /// once, so that a label is read without the lock (which, with the copy of the array it
  /// guards, cost a warm `label(for:)` more than its number search).
  private let settled = unsafe Atomic<Unmanaged<Settled>?>(nil)

  /// The whole table, as `settled` holds it.
  private final class Settled: Sendable {
    let labels: [String]
    init(_ labels: [String]) { self.labels = labels }
  }

  /// Publishes `whole` (when it is the whole table) for the lock-free reads, once: the cache
  /// owns the published table until it ends.
  private func settle(_ whole: [String]) {
    guard !whole.isEmpty, unsafe settled.load(ordering: .acquiring) == nil else { return }
    let table = unsafe Unmanaged.passRetained(Settled(whole))
    if unsafe !settled.compareExchange(expected: nil, desired: table, ordering: .acquiringAndReleasing).exchanged {
      unsafe table.release()  // another thread published first
    }
  }

  /// Calls `body` with the published table, or `nil` before there is one; no lock, no count taken.
  @inline(__always)
  private func withSettled<R>(_ body: ([String]?) -> R) -> R {
    guard let table = unsafe settled.load(ordering: .acquiring) else { return body(nil) }
    // The cache keeps the table alive until its deinit, and `self` is alive during this call.
    return unsafe table._withUnsafeGuaranteedRef { body($0.labels) }
  }

  deinit {
    if let table = unsafe settled.load(ordering: .acquiring) { unsafe table.release() }
  }

  init(storage: FileStorage, shape: DirectoryLayout.Shape, checks: ReadChecks? = nil, budget: Int = LabelCache.defaultBudget) {
    self.storage = storage
    self.shape = shape
    self.checks = checks ?? ReadChecks(shape: shape)
    self.budget = budget
  }

  /// The file's layout, for as long as the cache is borrowed.
  private var layout: DirectoryLayout {
    // The cache holds its storage in a `let`, for its whole life.
    @_lifetime(borrow self) get { DirectoryLayout(shape, file: unsafe storage.view(heldBy: self)) }
  }

  /// Checks the label index's CRC once: its records say which block holds which labels.
  private func checkIndex() throws(FormatError) {
    try checks.ensure(.labelIndex) { () throws(FormatError) in try layout.checkChecksum(of: .labelIndex) }
  }

  /// Label `id`, checked: in range, 1 ... 65,534 bytes of valid UTF-8, its block's checksum good.
  /// - Throws: `FormatError` with file offsets, `.labelIdOutOfRange` when there is no label `id`.
  /// - Complexity: O(log label blocks); O(block size) when its block is not cached.
  func label(_ id: Int) throws(FormatError) -> String {
    let found = withSettled { labels in labels.flatMap { id >= 0 && id < $0.count ? $0[id] : nil } }
    if let found { return found }
    let (first, labels) = try block(containing: id)
    completeWholeAfterManyBlocks()
    return labels[labels.startIndex + (id - first)]
  }

  /// Decodes the blocks not cached yet, once, when `wholeAfter` blocks have been decoded one at a
  /// time and none dropped: the table becomes whole if it fits the budget (a table larger stops
  /// at the budget, as the cache would have). A damaged block ends the attempt silently; reading
  /// a label in it still throws its error.
  private func completeWholeAfterManyBlocks() {
    let start = state.withLock { state in
      guard !state.completed, state.whole.isEmpty, !state.overBudget, state.decodedBlocks >= Self.wholeAfter else {
        return false
      }
      state.completed = true
      return true
    }
    if start { _ = try? completeWhole() }
  }

  /// Every label by id once the whole table has been decoded within the budget (each block
  /// checked as `label(_:)` checks it, the label index too); empty before, and for a table
  /// larger than the budget.
  /// - Complexity: O(1): the array is shared, not copied.
  @usableFromInline
  func whole() -> [String] {
    withSettled { $0 } ?? state.withLock { $0.whole }
  }

  /// What the cache holds now and has held at most, in `LabelMemory`'s bytes, and how many label
  /// blocks it has decoded: what tests hold the budget and "no label read" to.
  var usage: (bytes: Int, peak: Int, decodedBlocks: Int) {
    state.withLock { ($0.bytes, $0.peak, $0.decodedBlocks) }
  }

  /// Every label by id, decoding in order the blocks not cached yet, for a reader about to meet
  /// every label (a stream of all entries); empty when the table is over the budget (found once:
  /// a stream then fills its own table from the blocks as it meets them).
  ///
  /// With no block cached yet, the labels go straight into the one array, each decoded once,
  /// with no block arrays to make and join and no stream table to fill and free on the way.
  /// - Throws: `FormatError` for the first damaged label block or index record.
  /// - Complexity: O(label bytes) the first time; O(1) once the table is whole.
  @usableFromInline
  func loadWhole() throws(FormatError) -> [String] {
    let (whole, cached, overBudget) = state.withLock { ($0.whole, !$0.order.isEmpty, $0.overBudget) }
    guard whole.isEmpty && !overBudget else { return whole }
    if cached { return try completeWhole() }
    try checkIndex()
    let index = layout.labelIndex
    // Not reserved for the label count: that is only what the file claims, until decoded.
    var labels: [String] = []
    var size = 0
    for block in 0..<index.blockCount {
      let before = labels.count
      try LabelDecoder.decode(layout: layout, block: block, into: &labels)
      size += LabelMemory.cost(of: labels[before...])
      let over = size > budget
      state.withLock { state in
        state.decodedBlocks += 1
        state.peak = max(state.peak, state.bytes + size)
        if over { state.overBudget = true }
      }
      if over { return [] }
    }
    // Every index record was checked on the way: the labels are the table's.
    guard labels.count == index.labelCount else { return [] }
    let table = state.withLock { state in
      if state.whole.isEmpty {
        state.whole = labels
        state.blocks = []
        state.order = []
        state.bytes = size
      }
      return state.whole
    }
    settle(table)
    return table
  }

  /// `loadWhole` when some blocks are cached already: the others are decoded into the block
  /// cache, in order, until the table is whole or a block has to be dropped.
  private func completeWhole() throws(FormatError) -> [String] {
    var id = 0
    while true {
      let (whole, dropped) = state.withLock { ($0.whole, $0.overBudget) }
      if !whole.isEmpty || dropped || id >= layout.labelIndex.labelCount { return whole }
      let (first, labels) = try block(containing: id)
      id = first + labels.count  // past this block: a block holds at least one label
    }
  }

  /// The labels of the block that holds label `id`, and the id of its first label, checked as
  /// `label(_:)` checks them: for readers that take a block's labels at once.
  /// - Throws: `FormatError` as `label(_:)` does.
  /// - Complexity: as `label(_:)`.
  func block(containing id: Int) throws(FormatError) -> (first: Int, labels: ArraySlice<String>) {
    try checkIndex()
    guard let located = try layout.labelIndex.locate(id) else {
      throw FormatError(
        unplaced: .labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: layout.labelIndex.labelCount))
    }
    let first = id - located.position
    let cached = state.withLock { state -> ArraySlice<String> in
      if !state.whole.isEmpty { return state.whole[first..<(first + located.count)] }
      return located.block < state.blocks.count ? state.blocks[located.block][...] : []
    }
    if !cached.isEmpty { return (first, cached) }
    let labels = try LabelDecoder.decode(layout: layout, block: located.block)
    let size = LabelMemory.cost(of: labels)
    let blockCount = layout.labelIndex.blockCount
    state.withLock { state in
      state.decodedBlocks += 1
      guard state.whole.isEmpty else { return }
      if state.blocks.isEmpty { state.blocks = Array(repeating: [], count: blockCount) }  // 8 bytes a block
      guard state.blocks[located.block].isEmpty else { return }
      state.blocks[located.block] = labels
      state.order.append(located.block)
      state.bytes += size
      state.peak = max(state.peak, state.bytes)
      // The block just decoded stays, so the cache holds at most its budget plus one block.
      while state.bytes > budget && state.next < state.order.count - 1 {
        state.overBudget = true
        let dropped = state.order[state.next]
        state.bytes -= LabelMemory.cost(of: state.blocks[dropped])
        state.blocks[dropped] = []
        state.next += 1
      }
      if state.next > 64 && state.next * 2 > state.order.count {  // compact the queue now and then
        state.order.removeFirst(state.next)
        state.next = 0
      }
      if !state.overBudget && state.order.count == blockCount { state.makeWhole(labelCount: layout.labelIndex.labelCount) }
    }
    settle(whole())
    return (first, labels[...])
  }
}
