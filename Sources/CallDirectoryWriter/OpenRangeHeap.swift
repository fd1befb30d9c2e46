/// A binary min-heap of open ranges keyed by their last number: the few operations the nesting
/// sweep of `CanonicalRuns` needs, each O(log n).
struct OpenRangeHeap {
  /// An open range: its last and first numbers.
  struct Member {
    var last: Int64
    var first: Int64
  }

  private var members: [Member] = []

  /// Whether the heap holds no range.
  var isEmpty: Bool { members.isEmpty }

  /// The range that ends first, or `nil` when the heap is empty.
  var earliestEnding: Member? { members.first }

  /// Adds a range.
  mutating func insert(_ member: Member) {
    members.append(member)
    var child = members.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard members[child].last < members[parent].last else { break }
      members.swapAt(child, parent)
      child = parent
    }
  }

  /// Removes the ranges that end before `number`: they are closed for every later run.
  mutating func removeEnding(before number: Int64) {
    while let first = members.first, first.last < number { removeEarliest() }
  }

  private mutating func removeEarliest() {
    members.swapAt(0, members.count - 1)
    members.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < members.count, members[left].last < members[smallest].last { smallest = left }
      if right < members.count, members[right].last < members[smallest].last { smallest = right }
      guard smallest != parent else { return }
      members.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
