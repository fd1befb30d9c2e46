import CallDirectoryFormat

/// Makes one kind's data and index sections (`Spec/FORMAT.md`, sections 6 and 7) from entries
/// given in ascending order: entries gather into a block of `B`, each full block is encoded and
/// appended, and the index records each block's first number and offset.
///
/// Memory: one block of entries, plus 16 bytes of index for every `B` entries.
struct EntrySectionWriter {
  private let perBlock: Int
  private let allowDeflate: Bool
  private let identification: Bool
  private var data: SectionBuffer
  private var records: [UInt8] = []
  private var numbers: [Int64] = []
  private var labelIds: [UInt32] = []
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
    numbers.append(number)
    if identification { labelIds.append(label) }
    if numbers.count == perBlock { try flush() }
  }

  private mutating func flush() throws(WriterError) {
    guard let first = numbers.first else { return }
    records.appendUInt64LE(UInt64(first))
    records.appendUInt64LE(UInt64(data.count))
    try data.append(EntryBlock.encode(numbers[...], labelIds: labelIds[...], allowDeflate: allowDeflate))
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
