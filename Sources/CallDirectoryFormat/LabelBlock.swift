/// How a file's label blocks hold their labels, which the section they lie in says.
@usableFromInline package enum LabelCoding: Sendable {
  /// An offset table, then the labels' bytes back to back (`LDAT`, `Spec/FORMAT.md` section 9).
  case offsets
  /// Each label as the length of the prefix it shares with the label before it, then the bytes
  /// after that prefix (`LPFX`, section 9.1, version 2.3).
  case prefixed

  /// The data section of label blocks coded so.
  @usableFromInline package var section: SectionType { self == .offsets ? .labelData : .labelPrefixData }
}

/// A label block: a block whose header bytes are (codec, 0, 0, 0) and whose payload holds a run of
/// consecutive labels (`Spec/FORMAT.md`, "Label blocks").
///
/// An `offsets` payload for `c` labels: `c + 1` little-endian `UInt32` offsets (`o[0] = 0`), then
/// the labels' UTF-8 bytes; label `k` is bytes `o[k] ..< o[k+1]` of that area, and `o[c]` is the
/// area's size. A `prefixed` payload: for each label, varints `p` and `s`, then `s` bytes; the
/// label is the first `p` bytes of the label before it in the block, then those `s` bytes.
@usableFromInline package struct LabelBlock: ~Escapable, Sendable {
  /// The block frame.
  @usableFromInline package let block: Block
  /// The labels the index says the block holds.
  @usableFromInline package let labelCount: Int
  /// How the payload holds them.
  @usableFromInline package let coding: LabelCoding

  /// Checks a label block's frame and header; the block lies at `place` in the file.
  /// - Throws: `FormatError`, placed in the file.
  @_lifetime(copy bytes)
  package init(
    parsing bytes: ByteView, at place: FilePlace, number: Int, labelCount: Int, coding: LabelCoding = .offsets
  ) throws(FormatError) {
    block = try Block(parsing: bytes, at: place, number: number, maximumPayload: FormatConstants.maximumLabelPayload)
    self.labelCount = labelCount
    self.coding = coding
    guard block.header.1 == 0, block.header.2 == 0, block.header.3 == 0 else {
      throw place.error(.nonzeroReserved(field: "label block header"), at: 1)
    }
  }

  /// The bytes of label `position` within the `offsets` payload `payload`.
  ///
  /// - Throws: `FormatError.malformedBlock` when the offsets table does not fit, or the label's
  ///   offsets are out of order or past the end.
  /// - Complexity: O(1).
  @usableFromInline @_lifetime(copy payload)
  package func label(at position: Int, in payload: ByteView) throws(FormatError) -> ByteView {
    let range = try labelRange(at: position, in: payload)
    return try payload.slice(offset: range.lowerBound, length: range.count)  // inside: checked there
  }

  /// Where the bytes of label `position` lie in the `offsets` payload `payload`: `label(at:in:)`
  /// as offsets, which outlive the view.
  /// - Throws: as `label(at:in:)`.
  /// - Complexity: O(1).
  @usableFromInline
  package func labelRange(at position: Int, in payload: ByteView) throws(FormatError) -> Range<Int> {
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
    return (tableBytes &+ start)..<(tableBytes &+ end)  // inside the payload: checked above
  }

  /// The labels of the `prefixed` payload `payload`, back to back, and where each ends in them.
  ///
  /// Decoding stops at the first fault: a varint that is not canonical or is above 65,534, a
  /// prefix longer than the label before it (or one for the block's first label), no byte after
  /// the prefix, a label longer than 65,534 bytes, bytes after the last label, or labels whose
  /// size as an `offsets` payload (`4 (count + 1)` plus their bytes) would pass the 131,072-byte
  /// cap: however the prefixes repeat, a block costs what the cap allows and no more.
  /// - Throws: `FormatError.malformedBlock` naming the label.
  /// - Complexity: O(payload length + the labels' bytes), both bounded by the cap.
  package func prefixedLabels(in payload: ByteView) throws(FormatError) -> (text: [UInt8], ends: [Int]) {
    func fault(_ reason: String) -> FormatError {
      block.place.error(.malformedBlock(block: block.number, reason: reason), at: FormatConstants.blockHeaderSize)
    }
    // Every label takes at least three bytes (two varints and one byte of its own): a count
    // that cannot fit is refused before anything is allocated for it.
    guard labelCount >= 0, labelCount <= payload.count / 3 else {
      throw fault("\(labelCount) prefix-coded labels do not fit in \(payload.count) bytes")
    }
    let cap = FormatConstants.maximumLabelPayload
    var text: [UInt8] = []
    var ends: [Int] = []
    ends.reserveCapacity(labelCount)
    var offset = 0
    var start = 0  // where the label before this one starts in `text`
    for position in 0..<labelCount {
      guard let shared = Varint.read(payload, at: &offset), let own = Varint.read(payload, at: &offset),
        shared <= UInt64(Limits.maximumLabelBytes), own <= UInt64(Limits.maximumLabelBytes)
      else { throw fault("label \(position) of the block has no canonical prefix and suffix lengths of at most 65,534") }
      let (prefix, suffix) = (Int(shared), Int(own))
      let previous = text.count &- start
      guard prefix <= previous else {
        throw fault(
          position == 0
            ? "the block's first label shares \(prefix) bytes with no label before it"
            : "label \(position) of the block shares \(prefix) bytes with a label of \(previous)")
      }
      guard suffix >= 1, prefix &+ suffix <= Limits.maximumLabelBytes else {
        throw fault("label \(position) of the block is \(prefix) shared and \(suffix) own bytes")
      }
      // What the block would take as an offsets payload with this label: within the cap.
      guard 4 &* (position &+ 2) &+ text.count &+ prefix &+ suffix <= cap else {
        throw fault("labels 0 to \(position) of the block decode past the \(cap)-byte cap")
      }
      guard let own = try? payload.slice(offset: offset, length: suffix) else {
        throw fault("label \(position) of the block runs past the payload")
      }
      let next = text.count
      // The prefix is copied from the label before, inside `text`: appending a slice of `text`
      // to itself would copy the whole array each time.
      text.append(contentsOf: repeatElement(0, count: prefix &+ suffix))
      unsafe text.withUnsafeMutableBytes { buffer in
        unsafe UnsafeMutableRawBufferPointer(rebasing: buffer[next..<(next &+ prefix)])
          .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<(start &+ prefix)]))
        unsafe own.withUnsafeBytes {
          unsafe UnsafeMutableRawBufferPointer(rebasing: buffer[(next &+ prefix)...]).copyMemory(from: $0)
        }
      }
      offset &+= suffix
      start = next
      ends.append(text.count)
    }
    guard offset == payload.count else {
      throw fault("\(payload.count &- offset) bytes follow the last label")
    }
    return (text, ends)
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

  /// Encodes labels that lie back to back in `text` as a prefix-coded label block, each with the
  /// longest prefix it shares with the one before (`Spec/FORMAT.md` section 9.1).
  /// - Precondition: as for `encode(text:ends:allowDeflate:using:)`, and the labels strictly
  ///   ascending.
  @usableFromInline package static func encodePrefixed(
    text: ArraySlice<UInt8>, ends: ArraySlice<Int>, allowDeflate: Bool = true, using deflater: Deflater? = nil
  ) -> [UInt8] {
    precondition(ends.last ?? text.startIndex == text.endIndex, "the last label ends where the text does")
    var payload: [UInt8] = []
    payload.reserveCapacity(text.count &+ 2 &* ends.count)
    var previous = text.startIndex..<text.startIndex
    var start = text.startIndex
    for end in ends {
      var shared = 0
      let limit = min(previous.count, end &- start)
      while shared < limit && text[previous.lowerBound &+ shared] == text[start &+ shared] { shared &+= 1 }
      Varint.append(UInt64(shared), to: &payload)
      Varint.append(UInt64(end &- start &- shared), to: &payload)
      payload.append(contentsOf: text[(start &+ shared)..<end])
      previous = start..<end
      start = end
    }
    return Block.encode(
      header: (0, 0, 0), payload: payload, deflateWhenSaving: allowDeflate ? deflateWhenSaving : nil, using: deflater)
  }
}
