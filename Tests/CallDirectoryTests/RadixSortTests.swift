import Testing

@testable import CallDirectoryWriter

/// The writer's radix sort agrees with the standard library's on every shape it may meet.
@Suite struct RadixSortTests {
  @Test(arguments: [0, 1, 2, 255, 256, 10_000])
  func agreesWithTheStandardSort(count: Int) {
    var random = SeededGenerator(seed: 0x5AD1_0000 &+ UInt64(count))
    let shapes: [[Int64]] = [
      (0..<count).map { _ in Int64.random(in: 10_000_000_000..<20_000_000_000, using: &random) },  // NANP-like
      (0..<count).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) },  // every byte varies
      (0..<count).map { _ in Int64.random(in: 0..<4, using: &random) },  // many duplicates
      (0..<count).map { Int64($0) },  // already sorted
      (0..<count).map { Int64($0 / 3) },  // sorted with equal neighbours
      (0..<count).map { $0 == count - 1 ? -1 : Int64($0) },  // sorted but for the last value
      (0..<count).map { $0 == 0 ? Int64.max : Int64($0) },  // sorted but for the first value
      (0..<count).map { Int64(count - $0) },  // reversed
      (0..<count).map { $0 % 2 == 0 ? Int64.max - Int64($0) : Int64.min + Int64($0) },  // the extremes
    ]
    for shape in shapes {
      var sorted = shape
      RadixSort.sort(&sorted)
      #expect(sorted == shape.sorted())
    }
  }
}
