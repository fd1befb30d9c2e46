import CallDirectory
import Testing

@testable import CallDirectoryReader

/// The streams' label table in front of the label cache, and the label-id stream.
@Suite struct StreamLabelTests {
  /// A directory of 2,500 identification entries over 1,200 labels, in many label blocks.
  private static func bytes() throws -> [UInt8] {
    var contents = Contents()
    for index in 0..<2500 {
      contents.identification.append((Int64(3_319_900_000 + index * 11), "label \(index * 7 % 1200) " + String(repeating: "ü", count: index % 9)))
    }
    return try contents.encoded()
  }

  private static func reader() throws -> CallDirectoryReader { try CallDirectoryReader(bytes: try bytes()) }

  /// Ids that share a slot replace each other; every read still gives the id's own label.
  @Test(arguments: [1, 4, 64, 1 << 16])
  func slotsGiveEachIdItsLabel(capacity: Int) throws {
    let seed: UInt64 = 0x51075
    var random = SeededGenerator(seed: seed)
    let reader = try Self.reader()
    var recent = RecentLabels(labelCount: reader.labelCount, maximumCapacity: capacity)
    for _ in 0..<4000 {
      // Repeats are likely: half the draws come from the first 8 ids.
      let id = Bool.random(using: &random) ? Int.random(in: 0..<8, using: &random) : Int.random(in: 0..<reader.labelCount, using: &random)
      let slot = try recent.slot(for: UInt32(id), from: reader.labelCache)
      #expect(slot < capacity)
      #expect(recent[slot] == (try reader.label(id: id)), "seed \(seed), id \(id)")
    }
    #expect(throws: FormatError.self) { try recent.slot(for: UInt32(reader.labelCount), from: reader.labelCache) }
  }

  /// The label-id stream gives the entries the label stream gives, with the ids of their labels.
  @Test func labelIdStreamMatchesLabelStream() throws {
    let reader = try Self.reader()
    var byLabel: [(Int64, String)] = []
    try reader.forEachIdentification { byLabel.append(($0, $1)) }
    var byId: [(Int64, String)] = []
    try reader.forEachIdentificationLabelId { (number, id) throws(FormatError) in
      byId.append((number, try reader.label(id: Int(id)) ?? "no such label"))
    }
    #expect(byId.count == 2500)
    #expect(byId.map(\.0) == byLabel.map(\.0))
    #expect(byId.map(\.1) == byLabel.map(\.1))
  }

  /// A damaged entry block stops the label-id stream with a format error, as it stops the others.
  @Test func labelIdStreamStopsAtDamage() throws {
    var bytes = try Self.bytes()
    // The layout's views point into the reader's storage: the reader must outlive their use.
    let original = try CallDirectoryReader(bytes: bytes)
    let block = withExtendedLifetime(original) { original.layout.blockOffset(.identification, 1) }
    bytes[block + 12] ^= 0x40
    let damaged = try CallDirectoryReader(bytes: bytes)
    var seen = 0
    #expect(throws: StreamError<Never>.self) { try damaged.forEachIdentificationLabelId { _, _ in seen += 1 } }
    #expect(seen < 2500)
  }
}
