/// A label block: a block whose header bytes are (codec, 0, 0, 0) and whose payload holds a run of
/// consecutive labels (`Spec/FORMAT.md`, "Label blocks").
///
/// Payload for `c` labels: `c + 1` little-endian `UInt32` offsets (`o[0] = 0`), then the labels'
/// UTF-8 bytes; label `k` is bytes `o[k] ..< o[k+1]` of that area, and `o[c]` is the area's size.
@usableFromInline package struct LabelBlock: Sendable {
  /// The block frame.
  @usableFromInline package let block: Block
  /// The labels the index says the block holds.
  @usableFromInline package let labelCount: Int

  /// Checks a label block's frame and header; the block lies at `place` in the file.
  /// - Throws: `FormatError`, placed in the file.
  package init(parsing bytes: ByteView, at place: FilePlace, number: Int, labelCount: Int) throws(FormatError) {
    block = try Block(parsing: bytes, at: place, number: number, maximumPayload: FormatConstants.maximumLabelPayload)
    self.labelCount = labelCount
    guard block.header.1 == 0, block.header.2 == 0, block.header.3 == 0 else {
      throw place.error(.nonzeroReserved(field: "label block header"), at: 1)
    }
  }

  /// The bytes of label `position` within the payload `payload`.
  ///
  /// - Throws: `FormatError.malformedBlock` when the offsets table does not fit, or the label's
  ///   offsets are out of order or past the end.
  /// - Complexity: O(1).
  @usableFromInline package func label(at position: Int, in payload: ByteView) throws(FormatError) -> ByteView {
    let tableBytes = (labelCount &+ 1) &* 4  // labelCount <= 2^32, so no overflow on 64-bit Int
    guard tableBytes <= payload.count, position >= 0, position < labelCount else {
      throw block.place.error(
        .malformedBlock(block: block.number, reason: "the offsets of \(labelCount) labels do not fit"),
        at: FormatConstants.blockHeaderSize)
    }
    let area = payload.count &- tableBytes
    let start = Int(unsafe payload.uncheckedUInt32LE(at: position &* 4))
    let end = Int(unsafe payload.uncheckedUInt32LE(at: position &* 4 &+ 4))
    guard start <= end, end <= area else {
      throw block.place.error(
        .malformedBlock(block: block.number, reason: "label \(position) spans \(start)..<\(end) of \(area) bytes"),
        at: FormatConstants.blockHeaderSize)
    }
    return try payload.slice(offset: tableBytes &+ start, length: end &- start)  // inside: checked above
  }

  /// The share a deflated label payload must save, as `1 / n`: an eighth. Text compresses well
  /// and a label is read only for an identified call, after its number was found.
  @usableFromInline package static let deflateWhenSaving = 8

  /// Encodes `labels` (each 1 ... 65,534 bytes) as a label block.
  /// - Parameter deflater: the compressor that tries deflate (see `Block.encode`).
  @usableFromInline package static func encode(
    _ labels: ArraySlice<[UInt8]>, allowDeflate: Bool = true, using deflater: Deflater? = nil
  ) -> [UInt8] {
    var text: [UInt8] = []
    var ends: [Int] = []
    for label in labels {
      text.append(contentsOf: label)
      ends.append(text.count)
    }
    return encode(text: text[...], ends: ends[...], allowDeflate: allowDeflate, using: deflater)
  }

  /// Encodes labels that lie back to back in `text` as a label block: the first starts at
  /// `text.startIndex`, and label `k` ends at `ends[ends.startIndex + k]`, an index of `text`.
  /// - Precondition: `ends` ascend from above `text.startIndex` to `text.endIndex`, each label
  ///   1 ... 65,534 bytes.
  /// - Parameter deflater: the compressor that tries deflate (see `Block.encode`).
  @usableFromInline package static func encode(
    text: ArraySlice<UInt8>, ends: ArraySlice<Int>, allowDeflate: Bool = true, using deflater: Deflater? = nil
  ) -> [UInt8] {
    precondition(ends.last ?? text.startIndex == text.endIndex, "the last label ends where the text does")
    var payload: [UInt8] = []
    payload.reserveCapacity(4 &* (ends.count &+ 1) &+ text.count)
    payload.appendUInt32LE(0)
    for end in ends { payload.appendUInt32LE(UInt32(end &- text.startIndex)) }
    payload.append(contentsOf: text)
    return Block.encode(
      header: (0, 0, 0), payload: payload, deflateWhenSaving: allowDeflate ? deflateWhenSaving : nil, using: deflater)
  }
}
