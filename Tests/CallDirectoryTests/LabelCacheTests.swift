import CallDirectory
import Testing

@testable import CallDirectoryReader

/// The label cache gives the same labels whether it holds the whole table or must keep dropping blocks.
@Suite struct LabelCacheTests {
  @Test(arguments: [0, 1, 5000, 1 << 30])
  func labelsUnderAnyBudget(budget: Int) throws {
    let seed: UInt64 = 0xCAC4E
    var random = SeededGenerator(seed: seed)
    var contents = Contents()
    for index in 0..<2500 {
      contents.identification.append(
        (Int64(3_319_900_000 + index * 11), "label \(index % 1200) " + String(repeating: "ü", count: index % 9)))
    }
    let reader = try CallDirectoryReader(bytes: try contents.encoded())
    #expect(reader.layout.labelIndex.blockCount > 4)
    let cache = LabelCache(layout: reader.layout, budget: budget)
    var expected: [String: Int] = [:]
    for id in 0..<reader.labelCount { expected[try #require(try reader.label(id: id))] = id }
    for _ in 0..<3000 {
      let id = Int.random(in: 0..<reader.labelCount, using: &random)
      let label = try cache.label(id)
      #expect(expected[label] == id, "seed \(seed), id \(id)")
    }
    for id in [reader.labelCount, -1] {
      guard case .labelIdOutOfRange(_, reader.labelCount)? = formatError({ try cache.label(id) })?.kind else {
        Issue.record("label \(id): expected labelIdOutOfRange")
        continue
      }
    }
  }
}
