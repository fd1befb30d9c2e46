import CallDirectoryLookup
import Testing

@testable import CallDirectoryFormat

/// The bulk decoders of an entry block (`EliasFanoView.decode`, `EntryPayload.decodeLabelIds`)
/// against the one-field reads lookups use (`BitPacking.field`, `labelId(at:)`), at every width
/// they specialise: low parts of 0 bits, 1 ... 56 (one eight-byte read), 57 ... 62 (a ninth
/// byte), label ids of 0 ... 32 bits, and parts shorter than a word, where reads near the end go
/// through the checked path. Also the word-at-a-time bit writer the encoders share, and the
/// checksum of a section made from its blocks'.
@Suite struct EntryDecodeTests {
  /// Encodes `numbers` with `labelIds` as a raw-or-deflated entry block and calls `body` with its payload.
  private func withPayload(
    _ numbers: [Int64], _ labelIds: [UInt32], _ body: (EntryBlock, EntryPayload) throws -> Void
  ) throws {
    let bytes = EntryBlock.encode(numbers[...], labelIds: labelIds[...], allowDeflate: false)
    try unsafe bytes.withUnsafeBytes { raw in
      let block = try EntryBlock(
        parsing: unsafe ByteView(raw), at: FilePlace(offset: 0), number: 0, entryCount: numbers.count,
        identification: !labelIds.isEmpty)
      try block.withPayload { (payload) throws(FormatError) in
        do { try body(block, payload) } catch { Issue.record("\(error)") }
      }
    }
  }

  /// Ascending numbers from 1 whose mean gap is about `2^width`, so the writer picks that low-bit
  /// width: as many as fit below `Int64.max`, at most `limit`.
  private func numbers(lowBits width: Int, limit: Int, using random: inout SeededGenerator) -> [Int64] {
    let gap = UInt64(1) << UInt64(width)
    let room = (UInt64(Int64.max) - 2) / (gap + gap / 2)  // every gap below 1.5 x 2^width
    let count = Int(min(UInt64(limit), max(1, room)))
    var values: [Int64] = [1]
    for _ in 0..<count {
      let step = gap + (width == 0 ? 0 : UInt64.random(in: 0..<(gap / 2), using: &random))
      values.append(values[values.count - 1] + Int64(step))
    }
    return values
  }

  @Test func everyLowBitWidthDecodesAsTheFieldReadsDo() throws {
    var random = SeededGenerator(seed: 0xE1A5)
    var widths = Set<Int>()
    for width in 0...62 {
      for limit in [1, 2, 3, 7, 8, 9, 64, 511] {
        let values = numbers(lowBits: width, limit: limit, using: &random)
        try withPayload(values, []) { block, payload in
          widths.insert(block.lowBits)
          var decoded = [Int64](repeating: values[0], count: values.count)
          #expect(payload.numbers.decode(first: values[0], into: &decoded) == nil, "width \(width), \(values.count) numbers")
          #expect(decoded == values, "width \(width), \(values.count) numbers")
          // The lookup path, one field at a time, agrees entry by entry.
          for entry in 1..<values.count {
            #expect(payload.numbers.find(UInt64(values[entry] - values[0])) == entry)
          }
        }
      }
    }
    #expect(widths == Set(0...62), "the generated blocks reach every low-bit width")
  }

  @Test func aWrongNumberBufferOrMissingOnesIsReported() throws {
    let values: [Int64] = [10, 11, 20, 1_000, 1_000_000]
    try withPayload(values, []) { _, payload in
      var short = [Int64](repeating: 10, count: values.count - 1)
      #expect(payload.numbers.decode(first: 10, into: &short) != nil)
      // The same parts claimed for one more offset than they hold.
      let longer = EliasFanoView(
        count: payload.numbers.count + 1, lowBits: payload.numbers.lowBits, low: payload.numbers.low, high: payload.numbers.high)
      var buffer = [Int64](repeating: 10, count: values.count + 1)
      #expect(longer.decode(first: 10, into: &buffer)?.contains("expected") == true)
    }
  }

  /// The bulk field loop reads without a check until the last eight-byte read that fits, then
  /// through the checked path: at every width and for regions ending on either side of that
  /// point it gives what one-field reads give, and it reads nothing past the region.
  @Test func bulkFieldReadsAgreeWithOneFieldReads() {
    var random = SeededGenerator(seed: 0xF1E1D)
    for width in 1...56 {
      for count in [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200] {
        let length = BitPacking.byteCount(count: count, width: width)
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        unsafe bytes.withUnsafeBytes { raw in
          let view = unsafe ByteView(raw)
          var fields: [UInt64] = []
          var indices: [Int] = []
          BitPacking.forEachField(in: view, width: width, count: count) { index, field in
            indices.append(index)
            fields.append(field)
          }
          let expected = (0..<count).map { BitPacking.field(view, bitOffset: $0 * width, width: width) }
          #expect(indices == Array(0..<count), "width \(width), \(count) fields")
          #expect(fields == expected, "width \(width), \(count) fields")
        }
      }
    }
  }

  /// The writer's word-at-a-time packing puts every bit where section "Bit packing" says: fields
  /// of every width 0 ... 64 and runs of zeros, across word boundaries, read back one by one.
  @Test func packedFieldsReadBackAtEveryWidth() {
    var random = SeededGenerator(seed: 0xB175)
    for round in 0..<400 {
      var writer = BitPacking.Writer()
      var expected: [(offset: Int, width: Int, value: UInt64)] = []
      var bit = 0
      for _ in 0..<Int.random(in: 0...40, using: &random) {
        if Bool.random(using: &random) && round % 2 == 0 {
          let zeros = Int.random(in: 0...130, using: &random)
          writer.appendZeros(zeros)
          expected.append((bit, min(zeros, 64), 0))
          bit += zeros
        } else {
          let width = Int.random(in: 0...64, using: &random)
          let value = UInt64.random(in: 0...UInt64.max, using: &random)
          writer.append(value, width: width)
          expected.append((bit, width, width == 64 ? value : value & ((1 << UInt64(width)) - 1)))
          bit += width
        }
      }
      let bytes = writer.bytes
      #expect(bytes.count == (bit + 7) / 8, "round \(round)")
      unsafe bytes.withUnsafeBytes { raw in
        let view = unsafe ByteView(raw)
        for field in expected {
          #expect(BitPacking.field(view, bitOffset: field.offset, width: field.width) == field.value, "round \(round)")
        }
        // Bits after the last field are zero, as the spec requires of every bit string.
        if bit % 8 != 0 { #expect(unsafe view.uncheckedByte(at: bytes.count - 1) >> UInt8(bit % 8) == 0) }
      }
    }
  }

  /// A section's checksum made from its blocks' (the writer's and the verifier's shortcut) is
  /// the checksum of its bytes: blocks with their trailers sum to the residue, and checksums of
  /// adjacent pieces combine.
  @Test func checksumsCombineAndBlocksSumToTheResidue() {
    var random = SeededGenerator(seed: 0xC3C)
    for _ in 0..<200 {
      var whole = CRC32()
      var pieces = CRC32()
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        var piece = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        piece.appendUInt32LE(CRC32.checksum(piece))  // a block's trailer
        #expect(CRC32.checksum(piece) == CRC32.residue)
        whole.update(piece)
        pieces.update(checksum: CRC32.residue, length: piece.count)
        bytes += piece
      }
      #expect(pieces.value == whole.value)
      #expect(whole.value == CRC32.checksum(bytes))
    }
  }

  /// High parts the walk must refuse, each with the reason it gives: more ones than offsets,
  /// a zero byte after the last one, and two offsets in one bucket whose low parts descend.
  @Test func nonCanonicalHighPartsAreReported() {
    // Two offsets of 2 low bits: low parts 3 and 1 (bits 11 then 01), both in bucket 0.
    let low: [UInt8] = [0b0111]
    let cases: [([UInt8], Int, String)] = [
      ([0b0011], 2, "not above"),  // ones at positions 0 and 1: high parts 0 and 0, lows 3 then 1
      ([0b0111], 2, "more than 2"),
      ([0b0101, 0], 2, "longer than needed"),
      ([0b0001], 2, "hold 1 offsets, expected 2"),
    ]
    for (high, count, reason) in cases {
      unsafe low.withUnsafeBytes { lowBytes in
        unsafe high.withUnsafeBytes { highBytes in
          let view = unsafe EliasFanoView(count: count, lowBits: 2, low: ByteView(lowBytes), high: ByteView(highBytes))
          var numbers = [Int64](repeating: 100, count: count + 1)
          let failure = view.decode(first: 100, into: &numbers)
          #expect(failure?.contains(reason) == true, "high \(high): \(failure ?? "accepted")")
        }
      }
    }
  }

  /// The payload's initializer is public: widths and counts a block header could not hold are
  /// refused there, so the decoders never shift by them.
  @Test(arguments: [(1, -1, 0), (1, 63, 0), (1, 0, 33), (1, 0, -1), (0, 0, 0), (4_097, 0, 0)] as [(Int, Int, Int)])
  func payloadsOfImpossibleShapesAreRefused(entries: Int, lowBits: Int, labelBits: Int) throws {
    let bytes = [UInt8](repeating: 0, count: 64)
    _ = unsafe bytes.withUnsafeBytes { raw in
      #expect {
        _ = try EntryPayload(
          unsafe ByteView(raw), entryCount: entries, lowBits: lowBits, labelBits: labelBits, identification: true, block: 0,
          place: FilePlace(offset: 0))
      } throws: { error in
        (error as? FormatError)?.kind
          == .malformedBlock(block: 0, reason: "\(entries) entries of \(lowBits) low bits and \(labelBits)-bit label ids")
      }
    }
  }

  @Test(arguments: 0...32)
  func labelIdsOfEveryWidthDecodeAsTheFieldReadsDo(width: Int) throws {
    var random = SeededGenerator(seed: 0x1AB0 &+ UInt64(width))
    let span = width == 0 ? 0 : (UInt64(1) << UInt64(width)) - 1
    let base = UInt32(UInt64.random(in: 0...min(1_000, UInt64(UInt32.max) - span), using: &random))
    for count in [1, 2, 7, 8, 9, 31, 300] {
      let values = (0..<count).map { Int64($0) * 3 + 5 }
      var ids = (0..<count).map { _ in base + UInt32(UInt64.random(in: 0...span, using: &random)) }
      // The base and the widest field both present, so the writer keeps this width.
      ids[count - 1] = base + UInt32(span)
      if count > 1 { ids[0] = base }
      try withPayload(values, ids) { block, payload in
        #expect(block.labelBits == (count > 1 ? width : 0))
        let largest = UInt64(ids.max()!)
        // A label count just above the largest id: every id is in range, checked one by one
        // whenever the width could name more.
        var decoded = [UInt32](repeating: 0, count: count)
        #expect(payload.decodeLabelIds(into: &decoded, below: largest + 1) == nil)
        #expect(decoded == ids, "width \(width), \(count) entries")
        #expect(decoded.indices.allSatisfy { UInt64(decoded[$0]) == payload.labelId(at: $0) })
        // A label count at the largest id: the first entry that names it is reported.
        var rejected = [UInt32](repeating: 0, count: count)
        #expect(payload.decodeLabelIds(into: &rejected, below: largest) == largest)
      }
    }
  }

  /// The low-bit width, computed without a division, is `floor(log2(maximum / count))` (0 when
  /// the quotient is 0), as section 7.1 defines it.
  @Test func lowBitsIsTheLogOfTheQuotient() {
    var random = SeededGenerator(seed: 0x10B1)
    var cases: [(Int, UInt64)] = [(1, 1), (1, 0), (3, 2), (4095, UInt64(Int64.max)), (1, UInt64(Int64.max)), (4095, 4095)]
    for _ in 0..<20_000 {
      let count = Int.random(in: 1...4095, using: &random)
      let maximum = UInt64.random(in: 0...UInt64(Int64.max), using: &random) >> UInt64.random(in: 0...62, using: &random)
      cases.append((count, maximum))
      // The edges where the width changes: count * 2^k and one below it.
      let k = UInt64.random(in: 0...50, using: &random)
      cases.append((count, UInt64(count) << k))
      cases.append((count, (UInt64(count) << k) - 1))
    }
    for (count, maximum) in cases {
      let quotient = maximum / UInt64(count)
      let expected = quotient == 0 ? 0 : quotient.significantBitCount - 1
      #expect(EliasFano.lowBits(count: count, maximum: maximum) == expected, "count \(count), maximum \(maximum)")
    }
  }
}
