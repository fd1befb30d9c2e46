import CallDirectoryFormat

// The file the assembler writes (Spec/FORMAT.md, "File layout"), in this order:
//
//   header (32 bytes) | section table (6 to 23 x 32 bytes, and the carried sections of a patch)
//   BSUM  u32 stride, u32 0, {u64 every 32nd BTOP sample}*    when the tops have > 384 samples
//   ISUM  as BSUM, over ITOP                                  together, for each (version 2.4)
//   BSCK  {u32 CRC-32 of each 32 BTOP samples and their BGCK checks}*  with BSUM (version 2.5)
//   ISCK  as BSCK, over ITOP and IGCK                                  with ISUM
//   BTOP  u32 stride, u32 0, {u64 first number of every 64th BIDX record}*   when BIDX has > 64
//   ITOP  as BTOP, over IIDX                                                 when IIDX has > 64
//         (the tops come after HDRS instead when they have summaries)
//   HDRS  the headers of BIDX, IIDX, LIDX (40 bytes)          in a paged file (version 2.1)
//   BGCK  {u32 CRC-32 of each group of 64 BIDX records and the next group's first}*  with BTOP
//   IGCK  as BGCK, over IIDX                                  with ITOP (version 2.5)
//   the three indexes, shortest first (equal lengths in the order LIDX, IIDX, BIDX):
//     LIDX  u32 labels, u32 blocks, {u32 first id, u32 0, u64 offset}*
//     IIDX  as BIDX
//     BIDX  u64 count, u32 per block, u32 0, {u64 first, u48 offset, u16 count - 1}*
//   BRNG  u64 count, {u64 first, u64 last}*                  when there are blocking ranges, or
//   BRIX, BRDT  range index and range blocks                 when they are shorter (version 2.2)
//   IRNG  u64 count, {u64 first, u64 last, u32 label, u32 0}* when there are identification ranges, or
//   IRIX, IRDT  as BRIX, BRDT
//   BPAD  zeros up to the next multiple of 4096                when BDAT is longer than 4096
//   BDAT  blocking entry blocks
//   IPAD  zeros up to the next multiple of 4096                when IDAT is longer than 4096
//   IDAT  identification entry blocks
//   LDAT  label blocks, or
//   LPFX  prefix-coded label blocks, for more than one block      (version 2.3)
//   then the trailing sections (VERS, SIGN)
//
// A file is paged when BDAT or IDAT is longer than a page: it is version 2.1 or later and has HDRS.
//
// A file signed as it is written takes two passes over the sections: one to hash them, one to
// write them after the header, which holds the signature section's checksum. Spooled sections
// are read back from their spool files each time, so a signed file needs no more memory than an
// unsigned one.
//
// What a cold open and lookup read comes first, in the file's first page as far as it fits: the
// header, the tops' summaries, the tops, the indexes' headers or their copies, the ranges'
// counts. Tops too long together for the first page have summaries there, and come after the
// copies.
// Every section is complete, with its length and checksum known, before the first byte goes out:
// the header, which holds them all, comes first, so the file can be written in one pass to a pipe.

/// The finished contents of a directory, in canonical form, ready to be laid out as a file.
struct DirectoryContents {
  /// Each kind's data section and index bytes, from `EntrySectionWriter`.
  var blocking: (data: SectionBuffer, index: [UInt8])
  var identification: (data: SectionBuffer, index: [UInt8])
  /// The labels in ascending byte order; ids are positions here.
  var labels: SortedLabels
  /// Blocking ranges, ascending, disjoint, merged.
  var blockingRanges: [ClosedRange<Int64>]
  /// Identification ranges with their final label ids, ascending and disjoint.
  var identificationRanges: [CanonicalRuns.Run]

  /// Sections that follow the contents as given (a list version, a signature), in this order.
  var trailing: [RawSection] = []

  /// Hands the file to `sink`: the header and table first, then each section; with a key, the
  /// file is signed by it (a `SIGN` section last, in place of any among the trailing sections),
  /// the same bytes as `DirectorySigner.sign` makes of the unsigned file.
  func write(
    options: DirectoryBuilder.Options, signingWith key: SigningKey? = nil, to sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) {
    enum Bytes {
      case buffer(SectionBuffer)
      case array([UInt8])
      var count: Int {
        switch self {
        case .buffer(let buffer): buffer.count
        case .array(let bytes): bytes.count
        }
      }
      var checksum: UInt32 {
        switch self {
        case .buffer(let buffer): buffer.checksum.value
        case .array(let bytes): CRC32.checksum(bytes)
        }
      }
    }
    let (labelData, labelIndex, labelCoding) = LabelSections.encode(labels, options: options)
    var tops: [(kind: EntryKind, bytes: [UInt8], checks: [UInt8])] = []
    for (kind, index) in [(EntryKind.blocking, blocking.index), (.identification, identification.index)] {
      let records = index[FormatConstants.entryIndexHeaderSize...]
      // One group is all the index: a top would only add a step.
      guard records.count / FormatConstants.entryIndexRecordSize > TopIndex.canonicalStride else { continue }
      tops.append(
        (kind, TopIndex.encode(records: records), GroupChecks.encode(records: records, stride: TopIndex.canonicalStride)))
    }
    let groupChecks: [(SectionType, Bytes)] = tops.map { ($0.kind.levelSections.groupChecks, .array($0.checks)) }
    // Tops too long together for the first page: their summaries there, with the checks of the
    // tops' groups, and the tops after HDRS.
    let summaries = TopIndex.canonicalSummaries(of: tops.map(\.bytes))
    let topSections: [(SectionType, Bytes)] = tops.map { ($0.kind.levelSections.top, .array($0.bytes)) }
    var sections = topSections
    // With summaries, each top's samples and group checks again, a group of the summary at a time:
    // what a cold lookup reads of them, in one page.
    var checkedTops: [(SectionType, Bytes)] = []
    if let summaries {
      sections = zip(tops, summaries).map { ($0.kind.levelSections.summary, .array($1)) }
      for top in tops {
        let (samples, stride) = (top.bytes[TopIndex.headerSize...], TopIndex.canonicalSummaryStride)
        let types = top.kind.levelSections
        sections.append(
          (types.summaryChecks, .array(GroupChecks.encode(samples: samples, checks: top.checks, stride: stride))))
        checkedTops.append(
          (types.checkedTop, .array(CheckedTop.encode(samples: samples, checks: top.checks, stride: stride))))
      }
    }
    // The indexes by length, shortest first (a tie keeps this order): a cold open reads every
    // index's header, and a list of one kind then finds all three in the file's first page.
    let indexes: [(SectionType, [UInt8])] = [
      (.labelIndex, labelIndex), (.identificationIndex, identification.index), (.blockingIndex, blocking.index),
    ]
    // A paged file (version 2.1) has copies of the three headers next to the tops instead.
    let paged =
      PageAlignment.isPaged(dataLength: blocking.data.count) || PageAlignment.isPaged(dataLength: identification.data.count)
    if paged {
      sections.append(
        (
          .indexHeaders,
          .array(IndexHeadersSection.encode(blocking: blocking.index, identification: identification.index, labels: labelIndex))
        ))
    }
    if summaries != nil { sections += topSections }
    // The group checks a new reader's first lookup reads whole: right after the first page's
    // contents, which they must not push out of it.
    sections += groupChecks
    sections += checkedTops
    let byLength = indexes.indices.sorted { (indexes[$0].1.count, $0) < (indexes[$1].1.count, $1) }
    sections += byLength.map { (indexes[$0].0, .array(indexes[$0].1)) }
    let ranges =
      RangeSections.encode(blockingRanges.map { ($0, nil) }, kind: .blocking)
      + RangeSections.encode(identificationRanges.map { ($0.numbers, $0.label) }, kind: .identification)
    sections += ranges.map { ($0.0, .array($0.1)) }
    // Each long entry data section starts on a page, after padding whose length the offsets
    // below decide.
    for (type, data, padding) in [
      (SectionType.blockingData, blocking.data, SectionType.blockingPadding),
      (.identificationData, identification.data, .identificationPadding),
    ] {
      if PageAlignment.isPaged(dataLength: data.count) { sections.append((padding, .array([]))) }
      sections.append((type, .buffer(data)))
    }
    sections.append((labelCoding.section, .array(labelData)))
    var extra = trailing
    if let version = options.listVersion {
      extra.insert(RawSection(type: .listVersion, bytes: ListVersionSection(version: version).encoded), at: 0)
    }
    if let key {
      extra.removeAll { $0.type == SectionType.signature.code }
      extra.append(RawSection(type: .signature, bytes: SignatureDigest.placeholder(key: key)))
    }
    let count = sections.count + extra.count
    let minor = FormatVersion.minor(
      paged: paged, rangeBlocks: ranges.contains { $0.0.isRangeBlocks }, prefixedLabels: labelCoding == .prefixed,
      topSummaries: summaries != nil, groupChecks: !groupChecks.isEmpty, checkedTops: !checkedTops.isEmpty)
    var offset = UInt64(FileHeader.size(sectionCount: count))
    var table: [SectionEntry] = []
    for position in sections.indices {
      let type = sections[position].0
      if type.isPadding {
        sections[position].1 = .array([UInt8](repeating: 0, count: Int(PageAlignment.paddingLength(at: offset))))
      }
      let bytes = sections[position].1
      table.append(
        SectionEntry(
          type: type.code, flags: type.isRequired ? SectionFlags.required : 0, offset: offset, length: UInt64(bytes.count),
          checksum: bytes.checksum))
      offset += UInt64(bytes.count)
    }
    for section in extra {
      table.append(
        SectionEntry(
          type: section.type, flags: section.flags, offset: offset, length: UInt64(section.bytes.count),
          checksum: CRC32.checksum(section.bytes)))
      offset += UInt64(section.bytes.count)
    }

    func writeSections(to sink: ([UInt8]) throws(WriterError) -> Void) throws(WriterError) {
      for (_, bytes) in sections {
        switch bytes {
        case .buffer(let buffer): try buffer.write(to: sink)
        case .array(let array): try sink(array)
        }
      }
    }
    if let key {
      // The signed bytes: the header and table, every section, then SIGN up to its signature.
      var digest: SignatureDigest
      do throws(FormatError) {
        digest = try SignatureDigest(header: FileHeader(minor: minor, fileLength: offset, sections: table).encoded())
      } catch {
        preconditionFailure("a header this writer encoded, with a SIGN entry last: \(error)")
      }
      try writeSections { digest.update($0) }
      for section in extra.dropLast() { digest.update(section.bytes) }
      let section = digest.signatureSection(key: key)
      extra[extra.count - 1].bytes = section
      table[table.count - 1].checksum = CRC32.checksum(section)
    }
    try sink(FileHeader(minor: minor, fileLength: offset, sections: table).encoded())
    try writeSections(to: sink)
    for section in extra { try sink(section.bytes) }
  }

}

/// The label data and index sections (`Spec/FORMAT.md`, sections 8, 9 and 9.1).
enum LabelSections {
  /// Labels grouped into blocks of about `labelBlockTarget` bytes (as an offset table and the
  /// labels would take), the index of those blocks, and how the blocks code their labels:
  /// prefix-coded when there is more than one block and the options allow it.
  static func encode(
    _ labels: SortedLabels, options: DirectoryBuilder.Options
  ) -> (data: [UInt8], index: [UInt8], coding: LabelCoding) {
    // Each block's labels, as a range of label ids.
    var blocks: [Range<Int>] = []
    var start = 0
    while start < labels.count {
      var end = start
      var size = 4  // the first offset
      while end < labels.count && (end == start || size + 4 + labels.length(end) <= options.labelBlockTarget) {
        size += 4 + labels.length(end)
        end += 1
      }
      blocks.append(start..<end)
      start = end
    }
    // A table of one block gains a few bytes a label from prefixes and stays readable by every
    // version 2 reader in LDAT.
    let coding: LabelCoding = options.prefixCodedLabels && blocks.count > 1 ? .prefixed : .offsets
    var data: [UInt8] = []
    var index: [UInt8] = []
    index.appendUInt32LE(UInt32(labels.count))
    index.appendUInt32LE(UInt32(blocks.count))
    let deflater = Deflater()
    for block in blocks {
      index.appendUInt32LE(UInt32(block.lowerBound))
      index.appendUInt32LE(0)
      index.appendUInt64LE(UInt64(data.count))
      let text = labels.text[labels.start(block.lowerBound)..<labels.ends[block.upperBound - 1]]
      let ends = labels.ends[block]
      switch coding {
      case .offsets:
        data += LabelBlock.encode(text: text, ends: ends, allowDeflate: options.allowDeflate, using: deflater)
      case .prefixed:
        data += LabelBlock.encodePrefixed(text: text, ends: ends, allowDeflate: options.allowDeflate, using: deflater)
      }
    }
    return (data, index, coding)
  }
}
