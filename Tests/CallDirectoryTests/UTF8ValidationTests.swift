import CallDirectoryFormat
import Testing

/// The validator against the standard library's UTF-8 decoder, which follows the same table.
@Suite struct UTF8ValidationTests {
  /// The standard library's answer.
  private static func reference(_ bytes: [UInt8]) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  @Test func everyOneAndTwoByteSequence() {
    var disagreements: [[UInt8]] = []
    for first in 0...255 {
      let one = [UInt8(first)]
      if UTF8Validation.isValid(one) != Self.reference(one) { disagreements.append(one) }
      for second in 0...255 {
        let two = [UInt8(first), UInt8(second)]
        if UTF8Validation.isValid(two) != Self.reference(two) { disagreements.append(two) }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(8))")
  }

  @Test func everyThreeAndFourByteLeadWithEdgeContinuations() {
    // The boundaries of every range in the table, and bytes just outside them.
    let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    var disagreements: [[UInt8]] = []
    for lead in 0xC0...0xFF {
      for b in edges {
        for c in edges {
          let three = [UInt8(lead), b, c]
          if UTF8Validation.isValid(three) != Self.reference(three) { disagreements.append(three) }
          for d in edges {
            let four = [UInt8(lead), b, c, d]
            if UTF8Validation.isValid(four) != Self.reference(four) { disagreements.append(four) }
          }
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(8))")
  }

  /// Random text mixing ASCII runs (the eight-byte path) with scalars of every length, whole, cut
  /// short and with a byte changed, at every alignment.
  @Test func seededTextAtEveryAlignment() {
    var random = SeededGenerator(seed: 0x07F8)
    let scalars: [String] = ["a", "Zürich", "東京", "😀", "\u{7FF}", "\u{FFFF}", "\u{10FFFF}", "plain ascii text"]
    var disagreements: [[UInt8]] = []
    for _ in 0..<2_000 {
      // 0 ... 7 ASCII bytes first, so the scalars fall at every offset from an eight-byte word.
      var bytes = [UInt8](repeating: 0x61, count: Int.random(in: 0..<8, using: &random))
      for _ in 0..<Int.random(in: 1...8, using: &random) { bytes += Array(scalars.randomElement(using: &random)!.utf8) }
      #expect(UTF8Validation.isValid(bytes))
      var damaged = bytes
      damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      for candidate in [damaged, Array(bytes.dropLast()), Array(bytes.dropFirst())] {
        if UTF8Validation.isValid(candidate) != Self.reference(candidate) { disagreements.append(candidate) }
        // A non-contiguous collection takes the copying path.
        if UTF8Validation.isValid(candidate.lazy.map { $0 }) != Self.reference(candidate) { disagreements.append(candidate) }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(4))")
  }
}
