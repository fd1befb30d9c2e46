import CallDirectoryFormat
import Synchronization

/// Decoded label blocks, kept up to a byte budget so that reading labels does not inflate and
/// check a label block for every entry.
///
/// Labels are stored in byte order, not in number order, so identification entries read in number
/// order (a CallKit feed) or at random (calls coming in) touch label blocks at random: a cache that
/// holds the whole table when it fits the budget turns every later read into an array access.
/// Blocks are decoded with every check (`LabelDecoder`), outside the lock; when the budget is
/// exceeded the oldest blocks are dropped. Safe to share between threads.
final class LabelCache: Sendable {
  /// The default budget: the label bytes of the blocks kept, about the table of a 50,000-label
  /// directory. The memory used is about twice the budget (string headers and the block map).
  static let defaultBudget = 2 << 20

  private struct State {
    var blocks: [Int: (first: Int, labels: [String])] = [:]
    var order: [Int] = []
    var next = 0  // the oldest entry of `order` still cached
    var bytes = 0
  }

  private let layout: DirectoryLayout
  private let budget: Int
  private let state = Mutex(State())

  init(layout: DirectoryLayout, budget: Int = LabelCache.defaultBudget) {
    self.layout = layout
    self.budget = budget
  }

  /// Label `id`, checked: in range, 1 ... 65,534 bytes of valid UTF-8, its block's checksum good.
  /// - Throws: `FormatError` with file offsets, `.labelIdOutOfRange` when there is no label `id`.
  /// - Complexity: O(log label blocks); O(block size) when its block is not cached.
  func label(_ id: Int) throws(FormatError) -> String {
    guard let located = try layout.labelIndex.locateOrThrow(id, in: layout) else {
      throw FormatError(.labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: layout.labelIndex.labelCount), at: 0)
    }
    if let labels = state.withLock({ $0.blocks[located.block]?.labels }) { return labels[located.position] }
    let labels = try LabelDecoder.decode(layout: layout, block: located.block)
    let size = labels.reduce(0) { $0 + $1.utf8.count }
    state.withLock { state in
      guard state.blocks[located.block] == nil else { return }
      state.blocks[located.block] = (id - located.position, labels)
      state.order.append(located.block)
      state.bytes += size
      while state.bytes > budget && state.next < state.order.count - 1 {
        if let dropped = state.blocks.removeValue(forKey: state.order[state.next]) {
          state.bytes -= dropped.labels.reduce(0) { $0 + $1.utf8.count }
        }
        state.next += 1
      }
      if state.next > 64 && state.next * 2 > state.order.count {  // compact the queue now and then
        state.order.removeFirst(state.next)
        state.next = 0
      }
    }
    return labels[located.position]
  }
}

extension LabelIndex {
  /// `locate(_:)` with errors placed in the file.
  func locateOrThrow(_ id: Int, in layout: DirectoryLayout) throws(FormatError) -> (block: Int, position: Int, count: Int)? {
    do { return try locate(id) } catch {
      throw error.placed(in: SectionType.labelIndex.rawValue, base: layout.indexOffsets.labels)
    }
  }
}

