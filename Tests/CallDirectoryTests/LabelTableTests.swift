import CallDirectoryFormat
import CallDirectoryListing
import Foundation
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

  /// The table answers a label equal to the last one from a compare: runs of one label, and
  /// labels next to one that differ from it in their last byte, by a byte more or less, or in
  /// length only, keep the ids of the dictionary model.
  @Test func runsAndNearMissesOfTheLastLabel() throws {
    let seed: UInt64 = 0x1A57_1AB3
    var random = SeededGenerator(seed: seed)
    let pool = Self.labels(200, seed: seed).map { Array($0.utf8) }
    var table = LabelTable()
    var model: [[UInt8]: UInt32] = [:]
    var last = pool[0]
    for step in 0..<20_000 {
      var label: [UInt8]
      switch random.next() % 6 {
      case 0, 1: label = last  // a run
      case 2: label = last.count > 1 ? Array(last.dropLast()) : last + [0x61]  // one byte less
      case 3: label = last + [0x61]  // one byte more
      case 4:
        label = last
        label[label.count - 1] ^= 0x01  // the last byte changed: same length, other bytes
      default: label = pool[Int(random.next() % UInt64(pool.count))]
      }
      if !UTF8Validation.isValid(label) { label = last + [0x62] }  // a character cut or changed
      if label.count > 40 { label = pool[Int(random.next() % UInt64(pool.count))] }
      let expected = model[label] ?? UInt32(model.count)
      model[label] = expected
      #expect(try table.id(of: label, for: 1) == expected, "seed \(seed), step \(step)")
      last = label
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

  /// Taking the newest labels out, at random points between adds, through several doublings
  /// of the table and after a move to SipHash: every label left keeps its id and is found, and a
  /// label taken out is numbered anew when it comes back.
  @Test(arguments: [128, 0])
  func removingTheNewestKeepsTheRest(probeLimit: Int) throws {
    var random = SeededGenerator(seed: 0xDE1E7E &+ UInt64(probeLimit))
    let pool = Self.labels(3_000, seed: 0xDE1E7E)
    var table = LabelTable(probeLimit: probeLimit)
    var model: [[UInt8]] = []  // the labels in id order
    for _ in 0..<6_000 {
      let roll = Int.random(in: 0..<100, using: &random)
      if !model.isEmpty && roll < 27 {
        // Mostly a label or three; now and then many, which reaches labels a doubling of the
        // table placed in the middle of a run of full slots.
        let keep =
          roll < 2 ? Int.random(in: 0..<model.count, using: &random) : max(0, model.count - Int.random(in: 1...3, using: &random))
        table.removeNewest(downTo: keep)
        model.removeLast(model.count - keep)
      }
      let label = Array(pool.randomElement(using: &random)!.utf8)
      let expected = model.firstIndex(of: label) ?? model.count
      if expected == model.count { model.append(label) }
      #expect(try table.id(of: label, for: 1) == UInt32(expected))
    }
    #expect(table.count == model.count)
    for (id, label) in model.enumerated() {
      #expect(try table.id(of: label, for: 1) == UInt32(id))
      #expect(table.text(UInt32(id)) == String(decoding: label, as: UTF8.self))
    }
    #expect(table.count == model.count)
    if probeLimit == 0 { #expect(table.usesSipHash) }
  }

  /// Labels placed by a doubling of the table lie in their runs of full slots in slot order, not
  /// in id order, so the newest can sit before older ones that probed past it: taking labels out
  /// one by one right after a doubling must keep every older one found.
  @Test(arguments: [33, 65, 257])
  func removingAfterADoubling(size: Int) throws {
    for round in 0..<60 {
      let labels = (0..<size).map { Array("round \(round) label \($0)".utf8) }
      var table = LabelTable()
      for (id, label) in labels.enumerated() { #expect(try table.id(of: label, for: 1) == UInt32(id)) }
      for count in stride(from: size - 1, through: 0, by: -1) {
        table.removeNewest(downTo: count)
        for id in stride(from: count - 1, through: 0, by: -7) {
          #expect(try table.id(of: labels[id], for: 1) == UInt32(id), "round \(round), \(count) left, label \(id)")
        }
        #expect(table.count == count)
      }
    }
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
    #expect((0..<sorted.count).map { Array(sorted[$0]) } == expected, "seed \(seed)")
    #expect(sorted.text == expected.flatMap { $0 } && sorted.ends.last ?? 0 == sorted.text.count)
    for label in Set(labels) {
      #expect(Array(sorted[Int(newId[Int(try table.id(of: label, for: 1))])]) == label)
    }
  }
}

/// The fast hash and the table's move to SipHash at a long probe.
@Suite struct LabelHashTests {
  private static func hash(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
    unsafe bytes.withUnsafeBytes { unsafe LabelHash.hash($0, seed: seed) }
  }

  /// The same bytes and seed give the same hash; another seed, another length or one byte more
  /// (a zero byte included) give another, at every tail length around the eight-byte step.
  @Test func hashDependsOnBytesLengthAndSeed() {
    var random = SeededGenerator(seed: 0x4A5_4ED)
    for length in 0...40 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let seed = random.next()
      let hash = Self.hash(bytes, seed: seed)
      #expect(Self.hash(bytes, seed: seed) == hash)
      #expect(Self.hash(bytes, seed: seed ^ 1) != hash, "length \(length)")
      #expect(Self.hash(bytes + [0], seed: seed) != hash, "length \(length)")
      for index in bytes.indices {
        var changed = bytes
        changed[index] ^= 0x01
        #expect(Self.hash(changed, seed: seed) != hash, "length \(length), byte \(index)")
      }
    }
  }

  /// Small labels under one seed spread over the table: no hash shared, and the bits that pick a
  /// slot take most of their values.
  @Test func similarLabelsSpread() {
    let seed: UInt64 = 0x5EED
    let hashes = (0..<4_096).map { Self.hash(Array("Acme \($0)".utf8), seed: seed) }
    #expect(Set(hashes).count == hashes.count)
    // A table's first slot comes from the hash's high 32 bits (kept in the slot for growing).
    let slots = Set(hashes.map { ($0 >> 32) & 4_095 })
    #expect(slots.count > 2_400)  // a random function fills about 63% of 4,096 slots
  }

  /// A table whose every probe counts as long moves to SipHash at its first collision and keeps
  /// every id: ids are numbered by first use, whatever the hash.
  @Test func longProbeMovesToSipHash() throws {
    var table = LabelTable(probeLimit: 0)
    var model: [String: UInt32] = [:]
    for index in 0..<2_000 {
      let label = "Caller \(index % 1_500)"
      let expected = model[label] ?? UInt32(model.count)
      model[label] = expected
      #expect(try table.id(of: label, for: 1) == expected)
    }
    #expect(table.usesSipHash)
    for (label, id) in model { #expect(try table.id(of: Array(label.utf8), for: 1) == id) }
    #expect(LabelTable().usesSipHash == false)
  }
}

/// Labels given as slices of a listing's bytes make the same file as the same labels as Strings.
@Suite struct LabelBytesTests {
  @Test func slicesMakeTheStringsFile() throws {
    let text = Array("xxStröm Bakery,Acme,Café".utf8)
    let labels = ["Ström Bakery", "Acme", "Café"]
    var byString = DirectoryBuilder()
    var bySlice = DirectoryBuilder()
    var bySpan = try SortingDirectoryWriter(temporaryDirectory: NSTemporaryDirectory())
    var ascending = try AscendingDirectoryWriter()
    var start = 2
    for (index, label) in labels.enumerated() {
      let count = label.utf8.count
      let slice = text[start..<start + count]
      #expect(slice.startIndex > 0)
      let number = 12_025_550_100 + Int64(index)
      try byString.identify(number, label: label)
      try bySlice.identify(number...number, utf8: slice.span)
      try bySpan.identify(number...number, utf8: text.span.extracting(start..<start + count))
      try ascending.identify(number, utf8: slice.span)
      start += count + 1
    }
    try byString.identify(12_025_560_000...12_025_560_009, label: "Acme")
    try bySlice.identify(12_025_560_000...12_025_560_009, utf8: text[16..<20].span)
    try bySpan.identify(12_025_560_000...12_025_560_009, utf8: text.span.extracting(16..<20))
    try ascending.identify(12_025_560_000...12_025_560_009, utf8: text[16..<20].span)
    let expected = try byString.encoded()
    #expect(try bySlice.encoded() == expected)
    var spanFile: [UInt8] = []
    _ = try bySpan.finish { (piece) throws(WriterError) in spanFile += piece }
    #expect(spanFile == expected)
    var ascendingFile: [UInt8] = []
    try ascending.finish { (piece) throws(WriterError) in ascendingFile += piece }
    #expect(ascendingFile == expected)
    let bad: [UInt8] = [0x41, 0xFF, 0x42]
    let badSlice = bad[1...]
    #expect(throws: WriterError.invalidUTF8(number: 5)) { try bySlice.identify(5, utf8: badSlice.span) }
    #expect(throws: WriterError.invalidUTF8(number: 6)) { try bySlice.identify(6...6, utf8: bad.span) }
  }

  /// Records compare labels byte by byte, and `label` reads the bytes back as a String.
  @Test func recordsKeepLabelBytes() {
    let precomposed = ListingRecord.identify(1, label: "Caf\u{E9}")
    let decomposed = ListingRecord.identify(1, label: "Cafe\u{301}")
    #expect(precomposed != decomposed)
    #expect(precomposed.labelUTF8.map(Array.init) == Array("Caf\u{E9}".utf8))
    var record = ListingRecord(kind: .identification, numbers: 1...1, labelUTF8: Array("xAcme".utf8)[1...])
    #expect(record.label == "Acme")
    record.label = nil
    #expect(record.labelUTF8 == nil)
  }
}
