/// The top level over one kind's entry index (`Spec/FORMAT.md`, section 5.1): the first number
/// of every `stride`-th index record, so that a lookup finds its group of records here, in the
/// file's first page, and reads one page of records instead of binary-searching all of them.
///
/// Layout: u32 stride, u32 reserved (0), then `ceil(blocks / stride)` u64 samples; sample `g` is
/// the first number of record `g * stride`. The section is derived from the index and optional:
/// a reader that ignores it finds the same block.
///
/// A long top has a summary of the same layout (`BSUM`, `ISUM`, section 5.3): the top's every
/// `stride`-th sample, so that a cold lookup reads one page of the top, not a binary search's
/// several. A summary is a `TopIndex` whose records are the top's samples.
@usableFromInline package struct TopIndex: ~Escapable, Sendable {
  /// What the top index is, without its bytes: its stride and where its samples lie in the file.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The records a sample stands for: sample `g` is record `g * stride`'s first number.
    @usableFromInline package let stride: Int
    /// The number of samples, `ceil(blockCount / stride)`.
    @usableFromInline package let count: Int
    /// Where the samples lie in the file, `count * 8` bytes.
    @usableFromInline package let samples: FileRange
  }

  /// The records a sample stands for.
  @usableFromInline package let stride: Int
  /// The samples, `count * 8` bytes.
  @usableFromInline package let samples: ByteView

  /// The top index of `stride` over `samples`, 8 bytes a sample (any bytes past a whole sample
  /// are not read).
  /// - Complexity: O(1).
  @inlinable @inline(__always) @_lifetime(copy samples)
  package init(stride: Int, samples: ByteView) {
    self.stride = stride
    self.samples = samples
  }

  /// The number of samples.
  @inlinable @inline(__always) package var count: Int { samples.count >> 3 }

  /// The stride the canonical writer uses: 64 records (1 KiB of index) a group, so that a group
  /// mostly lies in one page and the samples of ten million entries fit in the first page.
  @usableFromInline package static let canonicalStride = 64
  /// Bytes before the samples.
  @usableFromInline package static let headerSize = 8
  /// The most samples a canonical file's tops have together without summaries: the tops, the
  /// header, a full section table and the headers' copies then fit in the first page (3,768
  /// bytes), and a list of one kind keeps its top there up to about 12 million entries.
  @usableFromInline package static let canonicalSamplesWithoutSummaries = 384
  /// The stride of a canonical summary: 32 of the top's samples (256 bytes) a summary sample, so
  /// that all but one group in sixteen lie inside a page, and the summary of a hundred million
  /// entries (103 samples) fits in the first page.
  @usableFromInline package static let canonicalSummaryStride = 32

  /// Sample `group`, the stored first number of record `group * stride`. Precondition: `group < count`.
  @inlinable
  package func sample(_ group: Int) -> UInt64 {
    unsafe samples.uncheckedUInt64LE(at: group &* 8)  // group < count: inside samples
  }

  /// The top index section over `records`, each `recordSize` bytes that begin with a u64 first
  /// number: an entry index's records (16 bytes), or a top's samples (8 bytes) for its summary.
  @usableFromInline package static func encode(
    records: ArraySlice<UInt8>, recordSize: Int = FormatConstants.entryIndexRecordSize, stride: Int = canonicalStride
  ) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendUInt32LE(UInt32(stride))
    bytes.appendUInt32LE(0)
    for record in Swift.stride(from: 0, to: records.count / recordSize, by: stride) {
      let at = records.startIndex + record * recordSize
      bytes.append(contentsOf: records[at..<(at + 8)])  // the first number, little-endian as stored
    }
    return bytes
  }

  /// The summary sections of top index sections `tops` (`encode(records:)`'s bytes), one for
  /// each, or `nil` when the canonical writer makes none: the tops have at most
  /// `canonicalSamplesWithoutSummaries` samples together.
  @usableFromInline package static func canonicalSummaries(of tops: [[UInt8]]) -> [[UInt8]]? {
    let samples = tops.reduce(0) { $0 + ($1.count - headerSize) / 8 }
    guard samples > canonicalSamplesWithoutSummaries else { return nil }
    return tops.map { encode(records: $0[headerSize...], recordSize: 8, stride: canonicalSummaryStride) }
  }
}

extension TopIndex.Shape {
  /// Checks and wraps a top index section over an index of `blockCount` records, or a summary
  /// (`summary`) over a top of `blockCount` samples.
  /// - Throws: `FormatError`, placed in the file, for a stride outside 1 ... 65,536, a
  ///   nonzero reserved field, or a length that does not hold one sample per group.
  /// - Complexity: O(1).
  package init(parsing section: ByteView, at place: FilePlace, blockCount: Int, summary: Bool = false) throws(FormatError) {
    let name = summary ? "top summary" : "top index"
    guard section.count >= TopIndex.headerSize else {
      throw place.error(.truncated(needed: TopIndex.headerSize, available: section.count))
    }
    let rawStride = unsafe section.uncheckedUInt32LE(at: 0)
    guard rawStride >= 1, rawStride <= 65_536 else {
      throw place.error(.invalidField(field: "\(name) stride", value: UInt64(rawStride)))
    }
    guard unsafe section.uncheckedUInt32LE(at: 4) == 0 else {
      throw place.error(.nonzeroReserved(field: "\(name) header"), at: 4)
    }
    let stride = Int(rawStride)
    let groups = blockCount / stride + (blockCount % stride == 0 ? 0 : 1)
    let sampleBytes = section.count - TopIndex.headerSize
    guard sampleBytes % 8 == 0, sampleBytes / 8 == groups else {
      throw place.error(
        .malformedIndex(
          "a \(name) over \(blockCount) \(summary ? "samples" : "records") in groups of \(stride) needs \(groups) samples "
            + "(\(groups &* 8) bytes), "
            + "the section has \(sampleBytes) bytes of samples"))
    }
    self.stride = stride
    count = groups
    samples = FileRange(offset: place.offset &+ TopIndex.headerSize, count: sampleBytes)
  }
}
