import CallDirectoryFormat

// The file this encoder writes (Spec/FORMAT.md, "File layout"):
//
//   header (32 bytes) | section table (6 x 32 bytes)
//   BDAT  blocking entry blocks        BIDX  u64 count, u32 per block, u32 0, {u64 first, u64 offset}*
//   IDAT  identification entry blocks  IIDX  as BIDX
//   LDAT  label blocks                 LIDX  u32 labels, u32 blocks, {u32 first id, u32 0, u64 offset}*
//   BRNG  u64 count, {u64 first, u64 last}*                  only when there are blocking ranges
//   IRNG  u64 count, {u64 first, u64 last, u32 label, u32 0}* only when there are identification ranges
//
// Each data section precedes its index, so that blocks can be written as they are made and the
// small index after them; the header, which holds every section's length and checksum, is
// written last in front of them.

/// Lays out sorted, checked contents as a version 1 file.
struct DirectoryEncoder {
  let options: DirectoryBuilder.Options

  /// Encodes the contents and hands the file to `sink`: the header first, then each section.
  /// - Precondition: each number list strictly ascending in range; labels strictly ascending, valid.
  func encode(
    blocking: [Int64], identification: (numbers: [Int64], labels: [UInt32]), labels: [[UInt8]],
    ranges: (blocking: [ClosedRange<Int64>], identification: [IdentificationRange]), sink: ([UInt8]) -> Void
  ) {
    let (blockingData, blockingIndex) = entrySections(blocking, labelIds: [])
    let (identificationData, identificationIndex) = entrySections(identification.numbers, labelIds: identification.labels)
    let (labelData, labelIndex) = labelSections(labels)
    var sections: [(SectionType, [UInt8])] = [
      (.blockingData, blockingData), (.blockingIndex, blockingIndex),
      (.identificationData, identificationData), (.identificationIndex, identificationIndex),
      (.labelData, labelData), (.labelIndex, labelIndex),
    ]
    if !ranges.blocking.isEmpty {
      sections.append((.blockingRanges, rangeSection(ranges.blocking.map { ($0, nil) })))
    }
    if !ranges.identification.isEmpty {
      sections.append((.identificationRanges, rangeSection(ranges.identification.map { ($0.range, $0.label) })))
    }
    // Version 1.1 only when a range section needs it, so lists without ranges stay 1.0.
    let minor: UInt16 = sections.count > 6 ? 1 : 0
    var offset = UInt64(FileHeader.size(sectionCount: sections.count))
    var table: [SectionEntry] = []
    for (type, bytes) in sections {
      table.append(
        SectionEntry(
          type: type.code, flags: SectionFlags.required, offset: offset, length: UInt64(bytes.count),
          checksum: CRC32.checksum(bytes)))
      offset += UInt64(bytes.count)
    }
    sink(FileHeader(minor: minor, fileLength: offset, sections: table).encoded())
    for (_, bytes) in sections { sink(bytes) }
  }

  /// The data and index sections of one kind.
  private func entrySections(_ numbers: [Int64], labelIds: [UInt32]) -> (data: [UInt8], index: [UInt8]) {
    var data: [UInt8] = []
    var index: [UInt8] = []
    let perBlock = options.entriesPerBlock
    index.appendUInt64LE(UInt64(numbers.count))
    index.appendUInt32LE(UInt32(perBlock))
    index.appendUInt32LE(0)
    var start = 0
    while start < numbers.count {
      let end = min(start + perBlock, numbers.count)
      index.appendUInt64LE(UInt64(numbers[start]))
      index.appendUInt64LE(UInt64(data.count))
      data.append(
        contentsOf: EntryBlock.encode(
          numbers[start..<end], labelIds: labelIds.isEmpty ? [] : labelIds[start..<end], allowDeflate: options.allowDeflate))
      start = end
    }
    return (data, index)
  }

  /// A range section: the count, then each range's ends and, when labelled, its label id.
  private func rangeSection(_ ranges: [(ClosedRange<Int64>, UInt32?)]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt64LE(UInt64(ranges.count))
    for (range, label) in ranges {
      bytes.appendUInt64LE(UInt64(range.lowerBound))
      bytes.appendUInt64LE(UInt64(range.upperBound))
      if let label {
        bytes.appendUInt32LE(label)
        bytes.appendUInt32LE(0)
      }
    }
    return bytes
  }

  /// The label data and index sections: labels grouped into blocks of about `labelBlockTarget` bytes.
  private func labelSections(_ labels: [[UInt8]]) -> (data: [UInt8], index: [UInt8]) {
    var data: [UInt8] = []
    var records: [UInt8] = []
    var blockCount = 0
    var start = 0
    while start < labels.count {
      var end = start
      var size = 4  // the first offset
      while end < labels.count && (end == start || size + 4 + labels[end].count <= options.labelBlockTarget) {
        size += 4 + labels[end].count
        end += 1
      }
      records.appendUInt32LE(UInt32(start))
      records.appendUInt32LE(0)
      records.appendUInt64LE(UInt64(data.count))
      data.append(contentsOf: LabelBlock.encode(labels[start..<end], allowDeflate: options.allowDeflate))
      blockCount += 1
      start = end
    }
    var index: [UInt8] = []
    index.appendUInt32LE(UInt32(labels.count))
    index.appendUInt32LE(UInt32(blockCount))
    index.append(contentsOf: records)
    return (data, index)
  }
}
