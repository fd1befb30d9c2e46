import CProcessor

/// The practical limit of an in-memory search: the sorted numbers in Eytzinger (breadth-first)
/// order, searched without a data-dependent branch, with a prefetch of the nodes four levels
/// down so that the memory latency of one level overlaps the comparisons of the next four.
/// Numbers must be below 2^62, as every phone number is (the descent subtracts two of them).
///
/// Node `k` (1-based) has children `2k` and `2k + 1`; an in-order walk of the tree gives the
/// numbers ascending. The search descends to a leaf, then undoes the right turns it took after
/// its last left turn: what is left is the first node not below the number.
struct EytzingerPeer: LookupPeer, Sendable {
  /// The tree, `nodes[0]` unused, then 16 nodes of padding so that a prefetch's clamped address
  /// is inside the array however small the tree.
  private let nodes: [Int64]
  /// Each node's label index, for identification (empty for blocking).
  private let labelIndices: [UInt32]
  /// The numbers in the tree.
  let count: Int

  /// A tree of `sorted`, which is ascending, and of the label index of each (`labelIndices`
  /// parallel to `sorted`, or empty). O(n) time, 8 bytes an entry (12 with labels).
  init(sorted: [Int64], labelIndices sortedLabels: [UInt32] = []) {
    count = sorted.count
    var nodes = [Int64](repeating: Int64.max, count: sorted.count &+ 17)
    var labelIndices = [UInt32](repeating: 0, count: sortedLabels.isEmpty ? 0 : sorted.count &+ 1)
    var next = 0
    // In-order over the implicit tree: node k gets the next smallest number after its left subtree.
    // An explicit stack of (node, descended-left) pairs: the depth is log2(n), but n reaches 10^8.
    var stack: [(node: Int, visited: Bool)] = [(1, false)]
    while let (node, visited) = stack.popLast() {
      guard node <= sorted.count else { continue }
      if visited {
        nodes[node] = sorted[next]
        if !sortedLabels.isEmpty { labelIndices[node] = sortedLabels[next] }
        next &+= 1
        stack.append((2 &* node &+ 1, false))
      } else {
        stack.append((node, true))
        stack.append((2 &* node, false))
      }
    }
    self.nodes = nodes
    self.labelIndices = labelIndices
  }

  /// The label index of `number` (its tree position for blocking), or -1.
  func find(_ number: Int64) -> Int {
    unsafe nodes.withUnsafeBufferPointer { tree in
      var node = 1
      while node <= count {
        // Four levels down is 16 consecutive nodes (128 bytes); past the tree's end there is nothing to fetch.
        let below = min(node &* 16, tree.count &- 16)
        unsafe calldir_prefetch(tree.baseAddress! + below)
        unsafe calldir_prefetch(tree.baseAddress! + (below &+ 8))
        // 1 when the node is below the number, as arithmetic the optimizer cannot turn into a
        // branch (a comparison it does): the difference of two numbers below 2^62 cannot wrap.
        node = 2 &* node &+ Int(truncatingIfNeeded: UInt64(bitPattern: unsafe tree[node] &- number) >> 63)
      }
      // The trailing ones are right turns taken after the last left turn: undo them and that turn.
      node >>= (~node).trailingZeroBitCount &+ 1
      guard unsafe node != 0 && tree[node] == number else { return -1 }
      return labelIndices.isEmpty ? node : Int(labelIndices[node])
    }
  }
}
