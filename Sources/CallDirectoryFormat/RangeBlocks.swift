/// One kind's range index and range data sections (`Spec/FORMAT.md` section 10.1): blocks of
/// `perBlock` ranges each (the last the rest), found through an entry index whose first numbers
/// are the blocks' first numbers.
@usableFromInline package struct RangeBlocks: ~Escapable, Sendable {
  /// What the two sections are, without their bytes.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The range index (`BRIX`, `IRIX`), read as an entry index of ranges.
    @usableFromInline package let index: EntryIndex.Shape
    /// Where the range data section (`BRDT`, `IRDT`) lies in the file.
    @usableFromInline package let data: FileRange
    /// Where the range data section lies in the file, for its errors.
    @usableFromInline package let dataPlace: FilePlace
    /// Whether the blocks hold identification ranges.
    @usableFromInline package let labelled: Bool

    /// Wraps the two sections.
    /// - Throws: `FormatError`, placed in the file, when the index's size rules fail.
    /// - Complexity: O(1).
    package init(
      index section: ByteView, at indexPlace: FilePlace, data: ByteView, at dataPlace: FilePlace, labelled: Bool
    ) throws(FormatError) {
      index = try EntryIndex.Shape(parsing: section, at: indexPlace, dataLength: data.count, countedBlocks: true)
      self.data = FileRange(offset: dataPlace.offset, count: data.count)
      self.dataPlace = dataPlace
      self.labelled = labelled
    }
  }

  /// The range index (`BRIX`, `IRIX`), read as an entry index of ranges.
  @usableFromInline package let index: EntryIndex
  /// The range data section (`BRDT`, `IRDT`).
  @usableFromInline package let data: ByteView
  /// Where the range data section lies in the file.
  @usableFromInline package let dataPlace: FilePlace
  /// Whether the blocks hold identification ranges.
  @usableFromInline package let labelled: Bool

  /// The range blocks of `shape` over `file`, the bytes the shape was parsed from.
  /// - Complexity: O(1).
  @inlinable @_lifetime(copy file)
  package init(_ shape: borrowing Shape, in file: ByteView) {
    index = EntryIndex(shape.index, in: file)
    data = unsafe file.view(of: shape.data)
    dataPlace = shape.dataPlace
    labelled = shape.labelled
  }

  /// Block `number`, its frame and parts checked for size (O(1)).
  /// - Throws: `FormatError` for offsets or a frame that do not fit.
  @inlinable @_lifetime(copy self)
  package func block(_ number: Int) throws(FormatError) -> RangeBlock {
    let range = try index.blockRange(number)
    let place = dataPlace.advanced(by: range.lowerBound)
    return try RangeBlock(
      parsing: try data.slice(offset: range.lowerBound, length: range.count, in: place), at: place, number: number,
      first: index.firstNumber(ofBlock: number), rangeCount: try index.entryCount(ofBlock: number), labelled: labelled)
  }

  /// Range `index` of the kind as stored, or `nil` when its block cannot be parsed: block
  /// `index / perBlock` holds it, since every block but the last holds exactly `perBlock`.
  @inlinable
  package func range(_ index: Int) -> (first: UInt64, last: UInt64, labelId: UInt64)? {
    let perBlock = self.index.entriesPerBlock
    guard let block = try? block(index / perBlock), index % perBlock < block.rangeCount else { return nil }
    let (first, last) = block.range(index % perBlock)
    return (first, last, block.labelId(index % perBlock))
  }

  /// Checks every block in order against every rule of section 10.1: the counts (exactly
  /// `perBlock` in every block but the last, adding up to the range count), each block's CRC and
  /// code, and the ranges they give, across blocks as within one.
  /// - Returns: the first problem, placed in the file, or `nil`.
  /// - Complexity: O(ranges).
  package func check(labelCount: Int) -> FormatError? {
    var previous: (last: Int64, labelId: UInt32)?
    var total = 0
    for number in 0..<index.blockCount {
      let block: RangeBlock
      do {
        block = try self.block(number)
        try block.block.checkChecksum()
      } catch {
        return error
      }
      let isLast = number == index.blockCount - 1
      guard isLast ? block.rangeCount <= index.entriesPerBlock : block.rangeCount == index.entriesPerBlock else {
        return index.place.error(
          .malformedIndex(
            "range block \(number) holds \(block.rangeCount) ranges; every block but the last holds \(index.entriesPerBlock)"),
          at: FormatConstants.entryIndexHeaderSize &+ number &* FormatConstants.entryIndexRecordSize &+ 14)
      }
      total &+= block.rangeCount
      switch block.check(after: previous, labelCount: labelCount) {
      case .failure(let error): return error
      case .success(let last): previous = last
      }
    }
    guard total == index.entryCount else {
      return index.place.error(.malformedIndex("the blocks hold \(total) ranges, the header says \(index.entryCount)"))
    }
    return nil
  }
}
