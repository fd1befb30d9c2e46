import CallDirectoryFormat

/// Reads one kind's entries in ascending order, one block at a time.
///
/// Before handing out a block's entries the cursor checks the block's checksum, its encoding, and
/// that its numbers are in range, strictly ascending and above the previous block's, so every
/// entry it returns is one a CallKit load accepts. Memory: one block's numbers and label ids
/// (at most 4,096 entries).
///
///     var cursor = reader.cursor(.identification)
///     while let entry = try cursor.next() {
///       print(entry.number, try reader.label(id: Int(entry.labelId)) ?? "")
///     }
public struct EntryCursor: Sendable {
  /// One entry: its number and, for identification, its label id.
  public struct Entry: Sendable, Equatable {
    /// The phone number.
    public var number: Int64
    /// The label id (0 for blocking entries).
    public var labelId: UInt32
  }

  /// The reader whose bytes the cursor decodes, kept alive for as long as the cursor is: a
  /// cursor may outlive the expression that opened the reader.
  private let reader: CallDirectoryReader
  /// Where the reader's sections are; its views point into the bytes `reader` keeps alive.
  private let kind: EntryKind
  private var nextBlock = 0
  private var numbers: [Int64] = []
  private var labelIds: [UInt32] = []
  private var position = 0
  private var previous: Int64 = 0
  /// Entries of the blocks decoded so far, checked against the index's total at the end.
  private var entriesDecoded = 0

  init(reader: CallDirectoryReader, kind: EntryKind) {
    self.reader = reader
    self.kind = kind
  }

  /// The next entry, or `nil` after the last.
  /// - Throws: `FormatError` with the file offset of the damaged block.
  public mutating func next() throws(FormatError) -> Entry? {
    if position == numbers.count {
      guard try advance() else { return nil }
    }
    defer { position += 1 }
    return Entry(number: numbers[position], labelId: labelIds.isEmpty ? 0 : labelIds[position])
  }

  /// The entries `next()` has yet to return of the current block, or the next block's entries,
  /// or `nil` after the last: for streams that take a block at a time, which saves a call per entry.
  /// `labelIds` is empty for blocking entries.
  /// - Throws: `FormatError` as `next()` does.
  /// - Complexity: O(entries of the block) when it decodes one, O(1) otherwise.
  public mutating func takeBlock() throws(FormatError) -> (
    numbers: ArraySlice<Int64>, labelIds: ArraySlice<UInt32>
  )? {
    if position == numbers.count {
      guard try advance() else { return nil }
    }
    defer { position = numbers.count }
    return (numbers[position...], labelIds.isEmpty ? [] : labelIds[position...])
  }

  /// Decodes the next block, or returns `false` after the last one.
  private mutating func advance() throws(FormatError) -> Bool {
    let reader = self.reader
    let layout = reader.layout
    let index = layout.index(kind)
    // Each block's first number is in its index record, outside the block's checksum: the index
    // section's own is checked before the first block, so that damage there stops the stream
    // instead of shifting a block's numbers.
    if nextBlock == 0 { try layout.checkChecksum(of: kind.sections.index) }
    guard nextBlock < index.blockCount else {
      // Version 2 blocks carry their own counts; the index's total must be what they add up to.
      guard entriesDecoded == index.entryCount else {
        throw index.place.error(
          .malformedIndex(
            "the index declares \(index.entryCount) entries, the blocks hold \(entriesDecoded)"))
      }
      return false
    }
    try decode(block: nextBlock)
    nextBlock += 1
    position = 0
    return true
  }

  /// Decodes and checks block `number` into `numbers` and `labelIds`.
  private mutating func decode(block number: Int) throws(FormatError) {
    // The arrays change only once the block has decoded: after a throw `position == numbers.count`
    // still holds, so a caller that pulls again retries the block (and gets the error again)
    // instead of indexing an emptied array.
    let reader = self.reader
    let decoded = try BlockDecoder.decode(layout: reader.layout, kind: kind, block: number, after: previous)
    numbers = decoded.numbers
    labelIds = decoded.labelIds
    previous = numbers.last ?? previous
    entriesDecoded &+= numbers.count  // at most the index's blocks times 4096
  }
}

/// Decodes a whole entry block with every check: the one decoding path streaming and the verifier share.
package enum BlockDecoder {
  /// Block `block` of `kind`: its numbers and label ids, checked.
  ///
  /// - Parameter after: the last number of the block before (0 for the first block); the block's
  ///   numbers must all be above it.
  /// - Throws: `FormatError` with file offsets: a damaged frame, checksum, payload or deflate
  ///   stream; numbers out of range or not ascending; a first number that differs from the index.
  package static func decode(
    layout: DirectoryLayout, kind: EntryKind, block: Int, after: Int64
  ) throws(FormatError) -> (numbers: [Int64], labelIds: [UInt32]) {
    let entryBlock = try layout.entryBlock(kind, block)
    let index = layout.index(kind)
    let place = entryBlock.block.place
    let first = index.firstNumber(ofBlock: block)
    guard first >= UInt64(Limits.minimumNumber) && first <= UInt64(Limits.maximumNumber) else {
      // The first number is stored in the index record, not in the block: place the error there.
      // block < blockCount: inside the index section
      throw index.place.error(
        .numberOutOfRange(first),
        at: FormatConstants.entryIndexHeaderSize &+ block &* FormatConstants.entryIndexRecordSize)
    }
    try entryBlock.block.checkChecksum()
    let firstNumber = Int64(first)
    guard firstNumber > after else {
      throw place.error(.notAscending(previous: after, next: firstNumber))
    }
    // At most 4096 entries: bounded by the format. Entry 0 is the first number.
    var numbers = [Int64](repeating: firstNumber, count: entryBlock.entryCount)
    var labelIds: [UInt32] = []
    try entryBlock.withPayload { (payload) throws(FormatError) in
      if let failure = payload.numbers.decode(first: firstNumber, into: &numbers) {
        throw place.error(.malformedBlock(block: block, reason: failure))
      }
      // The numbers ascend (as unsigned sums, which cannot wrap): the last is the largest.
      if let last = numbers.last, UInt64(bitPattern: last) > UInt64(Limits.maximumNumber) {
        let first = numbers.first { UInt64(bitPattern: $0) > UInt64(Limits.maximumNumber) } ?? last
        throw place.error(.numberOutOfRange(UInt64(bitPattern: first)))
      }
      guard payload.paddingIsZero(entryCount: entryBlock.entryCount, lowBits: entryBlock.lowBits)
      else {
        throw place.error(
          .malformedBlock(block: block, reason: "bits past the last label id or low part are set"))
      }
      if kind == .identification {
        let labelCount = UInt64(layout.labelIndex.labelCount)
        labelIds = [UInt32](repeating: 0, count: entryBlock.entryCount)
        if let id = payload.decodeLabelIds(into: &labelIds, below: labelCount) {
          throw place.error(
            .labelIdOutOfRange(id: UInt32(truncatingIfNeeded: id), labelCount: Int(labelCount)))
        }
      }
    }
    return (numbers, labelIds)
  }
}
