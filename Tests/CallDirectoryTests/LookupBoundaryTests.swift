import CallDirectory
import CallDirectoryFormat
import Testing

@testable import CallDirectoryReader

/// Lookups at the edges: first and last entries, every block boundary, the numbers just outside.
@Suite struct LookupBoundaryTests {
  /// Sparse and dense numbers, so blocks cover both wide and narrow ranges.
  static let numbers: [Int64] = {
    var values: [Int64] = []
    var next: Int64 = 12_025_550_000
    for index in 0..<41 {
      values.append(next)
      next += index % 3 == 0 ? 1 : Int64(1000 * (index + 1))
    }
    return values
  }()

  @Test(arguments: [1, 2, 4, 5, 512])
  func everyBlockBoundary(entriesPerBlock: Int) throws {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    let contents = Contents(blocking: Self.numbers, identification: Self.numbers.map { ($0, "label \($0 % 7)") })
    let reader = try CallDirectoryReader(bytes: try contents.encoded(options: options))
    let stored = Set(Self.numbers)
    for number in Self.numbers {
      #expect(try reader.isBlocked(number), "\(number)")
      #expect(try reader.label(for: number) == "label \(number % 7)")
      for probe in [number - 1, number + 1] where !stored.contains(probe) {
        #expect(try !reader.isBlocked(probe), "\(probe)")
        #expect(try reader.label(for: probe) == nil, "\(probe)")
      }
    }
    #expect(try !reader.isBlocked(Self.numbers[0] - 1))
    #expect(try !reader.isBlocked(Self.numbers[Self.numbers.count - 1] + 1))
  }

  /// The prefetch hints a lookup gives clamp any offset and length to the view: the arithmetic
  /// at the extremes neither traps nor loops past the view.
  @Test func prefetchHintsStayInsideTheView() throws {
    let bytes = try Contents(blocking: Self.numbers).encoded()
    let reader = try CallDirectoryReader(bytes: bytes)
    do {
      let layout = reader.layout
      let view = layout.file
      for (offset, length) in [
        (0, 0), (0, Int.max), (-1, 10), (Int.min, Int.max), (view.count - 1, Int.max),
        (view.count, 1), (Int.max, Int.max), (5, -5),
      ] {
        view.prefetch(offset: offset, length: length)
      }
      ByteView().prefetch(offset: 0, length: 64)
      for block in [0, layout.blockingIndex.blockCount - 1] {
        #expect(throws: Never.self) { _ = try layout.entryBlock(.blocking, block, prefetching: true) }
      }
    }
    for number in Self.numbers { #expect(try reader.isBlocked(number)) }
  }

  @Test func oneEntryDirectory() throws {
    for number: Int64 in [1, 12025550100, Int64.max - 1] {
      let reader = try CallDirectoryReader(bytes: try Contents(blocking: [number]).encoded())
      #expect(try reader.isBlocked(number))
      #expect(try !reader.isBlocked(number - 1))
      if number < Int64.max { #expect(try !reader.isBlocked(number &+ 1)) }
    }
  }

  /// Many distinct labels, so the label table spans several label blocks.
  @Test func labelsAcrossLabelBlocks() throws {
    let seed: UInt64 = 0x1AB_E150
    var random = SeededGenerator(seed: seed)
    var contents = Contents()
    for index in 0..<3000 {
      let length = Int.random(in: 1...40, using: &random)
      let label = String((0..<length).map { _ in "abcdéΩ東🏄 ,\"".randomElement(using: &random)! }) + "\(index % 1500)"
      contents.identification.append((Int64(4_420_000_000 + index * 37), label))
    }
    let reader = try CallDirectoryReader(bytes: try contents.encoded())
    #expect(reader.shape.labelIndex.blockCount > 3, "seed \(seed)")
    #expect(try Contents.read(reader) == contents, "seed \(seed)")
    for (number, label) in contents.identification { #expect(try reader.label(for: number) == label) }
  }

  /// Dense runs make deflated blocks; lookups and streams through them give the same answers.
  @Test func deflatedBlocks() throws {
    let dense: [Int64] = (0..<2000).map { 33_899_000_000 + Int64($0) }
    let sparse: [Int64] = (0..<50).map { 33_900_000_000 + Int64($0) * 97 }
    let numbers = dense + sparse
    let reader = try CallDirectoryReader(bytes: try Contents(blocking: numbers).encoded())
    var deflated = 0
    for block in 0..<reader.shape.blockingIndex.blockCount
    where try reader.layout.entryBlock(.blocking, block).block.codec == .deflate {
      deflated += 1
    }
    #expect(deflated >= 3)
    #expect(try Contents.read(reader).blocking == numbers)
    for number in numbers { #expect(try reader.isBlocked(number)) }
    #expect(try !reader.isBlocked(33_899_002_000))
  }
}
