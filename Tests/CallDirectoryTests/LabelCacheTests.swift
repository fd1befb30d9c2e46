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
    #expect(reader.shape.labelIndex.blockCount > 4)
    let cache = LabelCache(storage: reader.storage, shape: reader.shape, budget: budget)
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

  /// A directory of 6,000 labels in more label blocks than `LabelCache.wholeAfter`, and the id of
  /// the first label of each block.
  static func manyBlocks() throws -> (bytes: [UInt8], firstIds: [Int]) {
    var contents = Contents()
    for index in 0..<6000 {
      contents.identification.append(
        (Int64(3_319_900_000 + index * 7), "Boulangerie \(index) " + String(repeating: "é", count: index % 7)))
    }
    let bytes = try contents.encoded()
    let reader = try CallDirectoryReader(bytes: bytes)
    var firstIds: [Int] = []
    for id in 0..<reader.labelCount where try reader.layout.labelIndex.locate(id)?.position == 0 { firstIds.append(id) }
    #expect(firstIds.count > LabelCache.wholeAfter + 4)
    return (bytes, firstIds)
  }

  /// Labels read at random, one block at a time: after `wholeAfter` blocks the reader decodes the
  /// rest, once, and every later label comes from the whole table.
  @Test func readsOfManyBlocksMakeTheTableWhole() throws {
    let (bytes, firstIds) = try Self.manyBlocks()
    let reader = try CallDirectoryReader(bytes: bytes)
    for (count, id) in firstIds.prefix(LabelCache.wholeAfter - 1).reversed().enumerated() {
      _ = try reader.label(id: id)
      #expect(reader.labelCache.usage.decodedBlocks == count + 1)
      #expect(reader.labelCache.whole().isEmpty)
    }
    let last = try #require(firstIds.last)
    #expect(try reader.label(id: last) != nil)
    #expect(reader.labelCache.usage.decodedBlocks == firstIds.count)
    let whole = reader.labelCache.whole()
    #expect(whole.count == reader.labelCount)
    let fresh = try CallDirectoryReader(bytes: bytes)
    #expect(whole == (try (0..<fresh.labelCount).map { try #require(try fresh.label(id: $0)) }))
  }

  /// A budget the table does not fit: the rest is decoded up to the budget, as random reads
  /// would have done, and the table does not become whole.
  @Test func aTableOverTheBudgetStaysInBlocks() throws {
    let (bytes, firstIds) = try Self.manyBlocks()
    let reader = try CallDirectoryReader(bytes: bytes)
    let cache = LabelCache(storage: reader.storage, shape: reader.shape, budget: 40_000)
    for id in firstIds.prefix(LabelCache.wholeAfter) { _ = try cache.label(id) }
    #expect(cache.whole().isEmpty)
    #expect(cache.usage.peak <= 40_000 + LabelMemory.maximumBlockCost)
    #expect(cache.usage.decodedBlocks < firstIds.count)
  }

  /// A damaged block ends the decoding of the rest, once: the labels of sound blocks still come
  /// back, the damaged block's throw its error, and later reads walk nothing again.
  @Test func aDamagedBlockEndsTheDecodingOfTheRestOnce() throws {
    var (bytes, firstIds) = try Self.manyBlocks()
    let damagedBlock = LabelCache.wholeAfter + 2
    let reader = try CallDirectoryReader(bytes: bytes)
    let offset = reader.layout.labelBlockOffset(damagedBlock)
    bytes[offset + 9] ^= 0x10
    let damaged = try CallDirectoryReader(bytes: bytes)
    for id in firstIds.prefix(LabelCache.wholeAfter) { _ = try damaged.label(id: id) }
    // Blocks up to the damaged one were decoded on the way; the damaged one failed.
    let decoded = damaged.labelCache.usage.decodedBlocks
    #expect(decoded == damagedBlock)
    #expect(damaged.labelCache.whole().isEmpty)
    guard case .blockChecksumMismatch(damagedBlock, _, _)? = formatError({ try damaged.label(id: firstIds[damagedBlock]) })?.kind
    else {
      Issue.record("expected the damaged block's checksum error")
      return
    }
    let sound = try #require(firstIds.last)
    #expect(try damaged.label(id: sound) == (try reader.label(id: sound)))
    _ = try damaged.label(id: firstIds[1])
    #expect(damaged.labelCache.usage.decodedBlocks == decoded + 1, "only the block read, no second walk")
  }
}
