import CallDirectoryFormat

/// Makes one kind's data and index sections (`Spec/FORMAT.md`, sections 6 and 7) from entries
/// given in ascending order: entries gather into a block of at most `B`, which ends early before
/// a wide gap (`endsBlock`) or before an entry that would take it out of the page of the
/// section it starts in (`PageAlignment.leavesPage`, section 12), each finished block is encoded and
/// appended, and the index records each block's first number, offset and entry count.
///
/// Memory: one block of entries, plus 16 bytes of index for every block.
struct EntrySectionWriter {
  private let perBlock: Int
  private let allowDeflate: Bool
  /// One compressor for every block: starting zlib per block cost more than the encoding.
  private let deflater = Deflater()
  private let identification: Bool
  private var data: SectionBuffer
  private var records: [UInt8] = []
  private var numbers: [Int64] = []
  private var labelIds: [UInt32] = []
  /// The smallest and largest label id of the block, for its label-id width.
  private var labelRange: (low: UInt32, high: UInt32) = (0, 0)
  /// The entry count up to which the block certainly stays inside its page (`leavesPage`),
  /// set when a block starts: below it the page rule costs one comparison an entry.
  private var inPageCount = 0
  private var total: UInt64 = 0

  /// A writer for blocking (`identification` false) or identification entries.
  init(identification: Bool, options: DirectoryBuilder.Options, spoolingIn directory: String?) throws(WriterError) {
    perBlock = options.entriesPerBlock
    allowDeflate = options.allowDeflate
    self.identification = identification
    data = try SectionBuffer(spoolingIn: directory)
    numbers.reserveCapacity(perBlock)
    if identification { labelIds.reserveCapacity(perBlock) }
  }

  /// Appends an entry; `label` is its final label id (identification entries only).
  /// - Precondition: `number` is greater than every number appended before.
  mutating func append(_ number: Int64, label: UInt32) throws(WriterError) {
    if let first = numbers.first {
      let range = (min(labelRange.low, label), max(labelRange.high, label))
      if Self.endsBlock(first: first, last: numbers[numbers.count - 1], count: numbers.count, next: number)
        || (numbers.count >= inPageCount && leavesPage(count: numbers.count &+ 1, span: UInt64(number &- first), labels: range))
      {
        try flush()
        startBlock(label: label)
      } else {
        labelRange = range
      }
    } else {
      startBlock(label: label)
    }
    numbers.append(number)
    if identification { labelIds.append(label) }
    if numbers.count == perBlock { try flush() }
  }

  /// Starts a block with an entry of label id `label` at the end of the data section.
  ///
  /// A raw block of `m` entries takes at most 16 + 9m bytes (blocking) or 16 + 13m
  /// (identification): 8 of frame, at most 62 low bits and 3 high bits an offset, and 4 + 4m of
  /// label ids. While that bound stays inside the page the block's exact length is not needed.
  private mutating func startBlock(label: UInt32) {
    labelRange = (label, label)
    let room = PageAlignment.pageSize &- data.count % PageAlignment.pageSize
    inPageCount = max(0, room &- 16) / (identification ? 13 : 9)
  }

  /// Whether the block, grown to `count` entries spanning `span` with label ids in `labels`,
  /// would leave the page of its section it starts in (the page rule, `Spec/FORMAT.md` section 12).
  private func leavesPage(count: Int, span: UInt64, labels: (low: UInt32, high: UInt32)) -> Bool {
    let grown = EntryBlock.rawLength(
      count: count, span: span, labelBits: Int(UInt64(labels.high &- labels.low).significantBitCount),
      identification: identification)
    return PageAlignment.leavesPage(start: data.count, grown: grown)
  }

  /// The fewest entries a block holds before a gap may end it.
  static let minimumEntriesBeforeGap = 16
  /// A gap ends a block when its 64th part exceeds the block's mean gap (`1 << 6`).
  static let gapShift: UInt64 = 6

  /// Whether a block of `count` entries from `first` to `last` ends before `next`
  /// (`Spec/FORMAT.md`, section 12): when it holds at least 16 entries and the gap to `next`,
  /// divided by 64, exceeds the block's mean gap, both rounded down.
  ///
  /// Elias-Fano spends about `gap / 2^l` bits on a gap, and `l` follows the block's mean: one gap
  /// between two area codes inflates a whole block, while a new block costs 24 bytes. The
  /// minimum keeps short runs (a company's few lines, far apart) from making tiny blocks.
  static func endsBlock(first: Int64, last: Int64, count: Int, next: Int64) -> Bool {
    guard count >= minimumEntriesBeforeGap else { return false }
    // Ascending numbers of 1 ... Int64.max - 1: the differences are positive and fit.
    // (gap >> 6) > floor(span / (count - 1)) exactly when span < (gap >> 6) * (count - 1): no
    // division for every entry added; a product past 64 bits exceeds any span.
    let (product, overflow) = (UInt64(next &- last) >> gapShift).multipliedReportingOverflow(by: UInt64(count &- 1))
    return overflow || UInt64(last &- first) < product
  }

  private mutating func flush() throws(WriterError) {
    guard let first = numbers.first else { return }
    // A data section of 2^48 bytes (256 TiB) would take a trillion blocks: beyond any input.
    guard UInt64(data.count) < 1 << 48 else { throw .invalidOption("a data section of more than 2^48 bytes") }
    records.appendUInt64LE(UInt64(first))
    // Version 2 record: the offset in 48 bits, the entry count minus one (below 4096) in the top 16.
    records.appendUInt64LE(UInt64(data.count) | UInt64(numbers.count &- 1) << 48)
    try data.append(block: EntryBlock.encode(numbers[...], labelIds: labelIds[...], allowDeflate: allowDeflate, using: deflater))
    total += UInt64(numbers.count)
    numbers.removeAll(keepingCapacity: true)
    labelIds.removeAll(keepingCapacity: true)
  }

  /// The finished data section and the index section's bytes.
  mutating func finish() throws(WriterError) -> (data: SectionBuffer, index: [UInt8]) {
    try flush()
    var index: [UInt8] = []
    index.reserveCapacity(16 + records.count)
    index.appendUInt64LE(total)
    index.appendUInt32LE(UInt32(perBlock))
    index.appendUInt32LE(0)
    index.append(contentsOf: records)
    return (data, index)
  }
}
