import CallDirectoryFormat
import Testing

@testable import CallDirectoryWriter

/// The writer's label table: ids by first use, the same id for the same bytes however they come,
/// checks, growth, and the order of the file.
@Suite struct LabelTableTests {
  /// Random labels of 1 to 48 bytes over a small alphabet, so that prefixes and shared first
  /// words are common, with multi-byte characters among them.
  private static func labels(_ count: Int, seed: UInt64) -> [String] {
    var random = SeededGenerator(seed: seed)
    let alphabet: [String] = ["a", "b", "A", " ", "0", "é", "ü", "州", "😀", "\u{301}"]
    return (0..<count).map { _ in
      (0..<Int.random(in: 1...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
    }
  }

  /// Ids follow a dictionary model through several doublings of the hash table, whether a label
  /// comes as a String or as bytes.
  @Test(arguments: [1, 63, 64, 5_000])
  func idsFollowFirstUse(count: Int) throws {
    let seed = 0x1AB_E100 &+ UInt64(count)
    let labels = Self.labels(count, seed: seed)
    var table = LabelTable()
    var model: [[UInt8]: UInt32] = [:]
    for (index, label) in labels.enumerated() {
      let bytes = Array(label.utf8)
      let expected = model[bytes] ?? UInt32(model.count)
      model[bytes] = expected
      let id = index % 2 == 0 ? try table.id(of: label, for: 1) : try table.id(of: bytes, for: 1)
      #expect(id == expected, "seed \(seed), label \(index)")
    }
    #expect(table.count == model.count)
    for (bytes, id) in model {
      #expect(try table.id(of: bytes, for: 1) == id)
      #expect(table.text(id) == String(decoding: bytes, as: UTF8.self))
    }
    #expect(table.count == model.count)
  }

  /// Labels are told apart by their bytes, not by Unicode equivalence: a precomposed "é" and "e"
  /// with a combining accent, equal as Strings, are two labels.
  @Test func canonicallyEquivalentLabelsStayDistinct() throws {
    var table = LabelTable()
    let precomposed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"
    #expect(precomposed == decomposed)
    #expect(try table.id(of: precomposed, for: 1) == 0)
    #expect(try table.id(of: decomposed, for: 1) == 1)
    #expect(try table.id(of: Array(decomposed.utf8), for: 1) == 1)
  }

  /// Lengths and UTF-8 are checked, with the entry's number in the error; nothing is added.
  @Test func badLabelsAreRefused() {
    var table = LabelTable()
    #expect(throws: WriterError.badLabelLength(number: 7, length: 0)) { try table.id(of: "", for: 7) }
    #expect(throws: WriterError.badLabelLength(number: 7, length: 65_535)) {
      try table.id(of: [UInt8](repeating: 0x61, count: 65_535), for: 7)
    }
    #expect(throws: WriterError.invalidUTF8(number: 8)) { try table.id(of: [0x61, 0xC0, 0x80], for: 8) }
    #expect(throws: WriterError.invalidUTF8(number: 8)) { try table.id(of: [0xED, 0xA0, 0x80], for: 8) }
    #expect(table.count == 0)
    #expect((try? table.id(of: [UInt8](repeating: 0x61, count: 65_534), for: 9)) == 0)
    #expect(table.text(1) == "#1")
  }

  /// The file's order is unsigned byte order, a proper prefix first, across the eight-byte steps
  /// of the comparison; the new ids invert that order.
  @Test(arguments: [0, 1, 2, 3_000])
  func sortedOrderIsByteOrder(count: Int) throws {
    let seed = 0x50_47ED &+ UInt64(count)
    var labels = Self.labels(count, seed: seed).map { Array($0.utf8) }
    // Shared prefixes of 7 to 17 bytes, told apart at or past a word's end, and bytes above 0x7F.
    let stem = Array("abcdefghijklmnopq".utf8)
    for length in 7...17 where count > 2 {
      labels.append(Array(stem.prefix(length)))
      labels.append(Array(stem.prefix(length)) + [0x62])
      labels.append(Array(stem.prefix(length - 1)) + Array("ÿ".utf8))
    }
    var table = LabelTable()
    for label in labels { _ = try table.id(of: label, for: 1) }
    let (sorted, newId) = table.sortedOrder()
    let expected = Array(Set(labels)).sorted { $0.lexicographicallyPrecedes($1) }
    #expect(sorted == expected, "seed \(seed)")
    for label in Set(labels) {
      #expect(sorted[Int(newId[Int(try table.id(of: label, for: 1))])] == label)
    }
  }
}
