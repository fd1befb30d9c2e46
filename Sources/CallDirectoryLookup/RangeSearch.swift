import CallDirectoryFormat

extension RangeTable {
  /// The range that contains `number`, if any.
  /// - Complexity: O(log count).
  @inlinable
  package func range(containing number: UInt64) -> Int? {
    var low = 0
    var high = count  // ranges < low start at or below `number`, ranges >= high above it
    while low < high {
      let middle = low &+ (high &- low) >> 1
      if first(middle) <= number { low = middle &+ 1 } else { high = middle }
    }
    guard low > 0, number <= last(low &- 1) else { return nil }
    return low &- 1
  }
}
