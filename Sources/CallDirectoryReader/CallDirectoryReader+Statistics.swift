import CallDirectoryFormat

/// What a directory file holds and how it is laid out: the figures a tool shows about a file
/// (`calldir info`), gathered from its header and indexes.
///
///     let directory = try CallDirectoryReader(path: "list.calldir")
///     let statistics = try directory.statistics()
///     print(statistics.blocking.entries, statistics.blocking.blocks, statistics.fileSize)
public struct DirectoryStatistics: Sendable {
  /// The figures of one kind of entry (blocking or identification).
  public struct Kind: Sendable, Equatable {
    /// The entries of this kind.
    public var entries: Int
    /// The entry blocks they are stored in.
    public var blocks: Int
    /// The most entries a block holds (version 2 blocks may end early; version 1 blocks hold
    /// exactly this many but the last).
    public var entriesPerBlock: Int
    /// The blocks stored deflated rather than plain.
    public var deflatedBlocks: Int
    /// The smallest number, or `nil` when there are no entries.
    public var first: Int64?
    /// The largest number, or `nil` when there are no entries.
    public var last: Int64?
    /// The entries of the kind's range section.
    public var ranges: Int
    /// The numbers the ranges cover, counted with overlaps, saturating at `Int.max`.
    public var rangeNumbers: Int
  }

  /// One section of the file, as its section table lists it.
  public struct Section: Sendable, Equatable {
    /// The section's four-byte type as text (`BDAT`, ...; other bytes as `\xNN`).
    public var type: String
    /// Where the section starts, in bytes from the start of the file.
    public var offset: UInt64
    /// The section's length in bytes.
    public var length: UInt64
  }

  /// The format version the file declares.
  public var version: (major: UInt16, minor: UInt16)
  /// The file's size in bytes.
  public var fileSize: Int
  /// The blocking entries.
  public var blocking: Kind
  /// The identification entries.
  public var identification: Kind
  /// The distinct labels.
  public var labelCount: Int
  /// The blocks the labels are stored in.
  public var labelBlocks: Int
  /// The sections in the order of the section table.
  public var sections: [Section]
  /// The list version (0 when the file has none).
  public var listVersion: UInt64
  /// The key that signed the file, if it is signed: read, not checked (see
  /// `CallDirectoryReader.check(_:)`).
  public var signer: PublicKey?
}

extension CallDirectoryReader {
  /// The file's statistics: counts, codecs, ranges and sections.
  ///
  /// Reads the header and the indexes, the frame of every entry block (for its codec) and
  /// decodes the last block of each kind (for its last number); no other block is decoded.
  /// - Throws: `FormatError` when an index, top index or range table fails its check (as a lookup
  ///   would), or a block frame or a last block is damaged.
  /// - Complexity: O(blocks + ranges + sections), plus one block's decoding per kind.
  public func statistics() throws(FormatError) -> DirectoryStatistics {
    DirectoryStatistics(
      version: version, fileSize: fileSize, blocking: try statistics(of: .blocking),
      identification: try statistics(of: .identification), labelCount: labelCount,
      labelBlocks: layout.labelIndex.blockCount,
      sections: layout.header.sections.map { .init(type: $0.typeName, offset: $0.offset, length: $0.length) },
      listVersion: listVersion, signer: signer)
  }

  private func statistics(of kind: EntryKind) throws(FormatError) -> DirectoryStatistics.Kind {
    // The first number is an index record's, and the ranges are counted from their records:
    // both are checked first, as a lookup checks them, so no figure comes from unchecked bytes.
    try checkLookupParts(kind)
    // Every record is read below; with group checks, the lookups' checks cover only the groups
    // they read (without them, checkLookupParts checked the index whole).
    if shape.index(kind).groupChecks != nil { try layout.checkChecksum(of: kind.sections.index) }
    let index = layout.index(kind)
    var deflated = 0
    for block in 0..<index.blockCount where try layout.entryBlock(kind, block).block.codec == .deflate { deflated += 1 }
    var last: Int64?
    if index.blockCount > 0 {
      last = try BlockDecoder.decode(layout: layout, kind: kind, block: index.blockCount - 1, after: 0).numbers.last
    }
    let first = index.blockCount > 0 ? Int64(truncatingIfNeeded: index.firstNumber(ofBlock: 0)) : nil
    let ranges = layout.ranges(kind)
    var covered = 0
    for range in 0..<ranges.count where ranges.last(range) >= ranges.first(range) {
      let size = ranges.last(range) - ranges.first(range)  // last >= first: cannot wrap
      covered = size >= UInt64(Int.max - covered) ? Int.max : covered + Int(size) + 1
    }
    return DirectoryStatistics.Kind(
      entries: index.entryCount, blocks: index.blockCount, entriesPerBlock: index.entriesPerBlock, deflatedBlocks: deflated,
      first: first, last: last, ranges: ranges.count, rangeNumbers: covered)
  }
}
