import CallDirectoryFormat

/// The labels of the few label blocks used last, so that streaming identification entries does not
/// inflate a label block for every entry. Memory: at most `capacity` blocks of at most 128 KiB.
struct LabelCache {
  private let layout: DirectoryLayout
  private let capacity = 4
  private var blocks: [(block: Int, first: Int, labels: [String])] = []

  init(layout: DirectoryLayout) {
    self.layout = layout
  }

  /// Label `id`, checked: in range, 1 ... 65,534 bytes of valid UTF-8.
  mutating func label(_ id: Int) throws(FormatError) -> String {
    if let cached = blocks.firstIndex(where: { id >= $0.first && id < $0.first + $0.labels.count }) {
      return blocks[cached].labels[id - blocks[cached].first]
    }
    guard let located = try layout.labelIndex.locateOrThrow(id, in: layout) else {
      throw FormatError(.labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: layout.labelIndex.labelCount), at: 0)
    }
    let labels = try LabelDecoder.decode(layout: layout, block: located.block)
    if blocks.count == capacity { blocks.removeFirst() }
    blocks.append((located.block, id - located.position, labels))
    return labels[located.position]
  }
}

extension LabelIndex {
  /// `locate(_:)` with errors placed in the file.
  func locateOrThrow(_ id: Int, in layout: DirectoryLayout) throws(FormatError) -> (block: Int, position: Int, count: Int)? {
    do { return try locate(id) } catch {
      throw error.placed(in: SectionType.labelIndex.rawValue, base: layout.indexOffsets.labels)
    }
  }
}

/// Decodes a whole label block with every check: the path streaming and the verifier share.
public enum LabelDecoder {
  /// The labels of block `block`, checked: checksum, offsets, lengths, UTF-8.
  /// - Throws: `FormatError` with file offsets.
  public static func decode(layout: DirectoryLayout, block: Int) throws(FormatError) -> [String] {
    let index = layout.labelIndex
    let first = index.firstLabel(ofBlock: block)
    let next = block + 1 < index.blockCount ? index.firstLabel(ofBlock: block + 1) : index.labelCount
    let at = Layout.labelIndexHeaderSize + block * Layout.labelIndexRecordSize
    guard block > 0 || first == 0, first < next, next <= index.labelCount else {
      throw FormatError(.malformedIndex("label block \(block) covers labels \(first)..<\(next)"), at: at)
        .placed(in: SectionType.labelIndex.rawValue, base: layout.indexOffsets.labels)
    }
    let labelBlock = try layout.labelBlock(block, labelCount: next - first)
    let base = layout.labelBlockOffset(block)
    do throws(FormatError) {
      try labelBlock.block.checkChecksum()
      return try labelBlock.block.withPayload { (payload) throws(FormatError) -> [String] in
        var labels: [String] = []
        // `next - first` comes from the index and may claim billions of labels: bound the
        // reservation by the payload, where each label needs a 4-byte offset.
        labels.reserveCapacity(min(next - first, payload.count / 4))
        for position in 0..<(next - first) {
          let bytes = try labelBlock.label(at: position, in: payload)
          guard Limits.isValidLabelLength(bytes.count) else {
            throw FormatError(.badLabelLength(id: first + position, length: bytes.count), at: 0)
          }
          guard UTF8Validation.isValid(bytes) else { throw FormatError(.invalidUTF8(id: first + position), at: 0) }
          labels.append(String(decoding: bytes.bytes, as: UTF8.self))
        }
        return labels
      }
    } catch {
      throw error.placed(in: SectionType.labelData.rawValue, base: base)
    }
  }
}
