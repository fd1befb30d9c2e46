/// A file's labels in ascending byte order, back to back in one array: what the label sections
/// are cut from, a block's labels being one run of it. One array rather than one per label saves
/// a business directory's pack 45,000 allocations and as many frees.
struct SortedLabels: Sendable {
  /// Every label's bytes, in order.
  private(set) var text: [UInt8] = []
  /// Where each label ends in `text`: label `i` is `text[start(i) ..< ends[i]]`.
  private(set) var ends: [Int] = []

  /// An empty list with room for `count` labels of `bytes` bytes in all.
  init(reservingLabels count: Int, bytes: Int) {
    text.reserveCapacity(bytes)
    ends.reserveCapacity(count)
  }

  /// The number of labels.
  var count: Int { ends.count }

  /// Where label `index` starts in `text`.
  func start(_ index: Int) -> Int { index == 0 ? 0 : ends[index - 1] }

  /// The length of label `index` in bytes.
  func length(_ index: Int) -> Int { ends[index] - start(index) }

  /// Label `index`'s bytes.
  subscript(index: Int) -> ArraySlice<UInt8> { text[start(index)..<ends[index]] }

  /// Adds `label` after the others, which it must follow in byte order.
  mutating func append(_ label: ArraySlice<UInt8>) {
    text.append(contentsOf: label)
    ends.append(text.count)
  }
}
