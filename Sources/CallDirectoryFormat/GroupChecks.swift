/// The group checks of one kind's entry index (`Spec/FORMAT.md`, section 5.4, version 2.5): a
/// CRC-32 for each group of records its top index defines, so that a reader checks the group a
/// lookup reads, not the whole index; and, over a top long enough to have a summary, a CRC-32 for
/// each group of the top's samples with their group checks, so that it checks the group of the
/// top a lookup reads, not the whole top.
///
/// Layout of the group checks (`BGCK`, `IGCK`): `count` u32 checks, one for each sample of the
/// top; check `j` is the CRC-32 of records `j * stride` to `min((j + 1) * stride + 1, blockCount)
/// - 1`: the group's records and the next group's first, whose offset ends the group's last block.
/// Layout of the summary checks (`BSCK`, `ISCK`): one u32 check for each sample of the summary;
/// check `t` is the CRC-32 of the top's samples `t * S` to `min((t + 1) * S, g) - 1` followed by
/// the same group checks. Both are derived and optional: a reader that ignores them checks the
/// index and the top whole, as before version 2.5.
@usableFromInline package enum GroupChecks {
  /// Where a kind's group checks lie, without their bytes: what a reader keeps.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The records a group holds: the top's stride.
    @usableFromInline package let stride: Int
    /// The number of groups: the top's samples, `ceil(blockCount / stride)`.
    @usableFromInline package let count: Int
    /// Where the checks lie in the file, `count * 4` bytes.
    @usableFromInline package let checks: FileRange
  }

  /// Bytes a check takes.
  @usableFromInline package static let checkSize = 4

  /// The records group `group` covers, of an index of `blockCount` records in groups of `stride`:
  /// its own and the next group's first, when there is one.
  /// Precondition: `group < ceil(blockCount / stride)`.
  /// - Complexity: O(1).
  @inlinable package static func records(ofGroup group: Int, stride: Int, blockCount: Int) -> Range<Int> {
    let first = group &* stride
    return first..<min(first &+ stride &+ 1, blockCount)
  }

  /// The CRC-32 of group `group` of `records`, an index's records, in groups of `stride`: what
  /// its check must be. Precondition: `group < ceil(records / stride)`.
  /// - Complexity: O(stride).
  @usableFromInline package static func checksum(ofGroup group: Int, stride: Int, records: ByteView) -> UInt32 {
    let size = FormatConstants.entryIndexRecordSize
    let covered = Self.records(ofGroup: group, stride: stride, blockCount: records.count / size)
    return CRC32.checksum(records.sliceOrEmpty(offset: covered.lowerBound &* size, length: covered.count &* size))
  }

  /// The CRC-32 of group `group` of a top's samples (8 bytes each, `samples`) in groups of
  /// `stride`, followed by the group checks of the same samples (`checks`): what its summary check
  /// must be. Precondition: `group < ceil(samples / stride)`, and `checks` holds a check a sample.
  /// - Complexity: O(stride).
  @usableFromInline package static func checksum(ofTopGroup group: Int, stride: Int, samples: ByteView, checks: ByteView)
    -> UInt32
  {
    let first = group &* stride
    let count = min(stride, samples.count / 8 &- first)
    var crc = CRC32()
    crc.update(samples.sliceOrEmpty(offset: first &* 8, length: count &* 8))
    crc.update(checks.sliceOrEmpty(offset: first &* checkSize, length: count &* checkSize))
    return crc.value
  }

  /// The summary checks section of a top whose samples are `samples` (8 bytes each, without the
  /// top's header) and whose group checks are `checks` (`encode(records:stride:)`), in groups of
  /// `stride`, the summary's.
  /// - Complexity: O(samples).
  @usableFromInline package static func encode(samples: ArraySlice<UInt8>, checks: [UInt8], stride: Int) -> [UInt8] {
    let groups = (samples.count / 8 + stride - 1) / stride
    return unsafe samples.withUnsafeBytes { samples in
      unsafe checks.withUnsafeBytes { checks in
        encode(groups: groups) {
          checksum(ofTopGroup: $0, stride: stride, samples: unsafe ByteView(samples), checks: unsafe ByteView(checks))
        }
      }
    }
  }

  /// The group checks section of an index whose records (16 bytes each, without the index's
  /// header) are `records`, in groups of `stride`.
  /// - Complexity: O(records).
  @usableFromInline package static func encode(records: ArraySlice<UInt8>, stride: Int) -> [UInt8] {
    let groups = (records.count / FormatConstants.entryIndexRecordSize + stride - 1) / stride
    return unsafe records.withUnsafeBytes { records in
      encode(groups: groups) { checksum(ofGroup: $0, stride: stride, records: unsafe ByteView(records)) }
    }
  }

  /// The checks `check(group)` of groups `0 ..< groups`, one u32 each: the reader's and the
  /// verifier's checksum is the writer's, so the three cannot disagree on a group's bytes.
  private static func encode(groups: Int, _ check: (Int) -> UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(groups * checkSize)
    for group in 0..<groups { bytes.appendUInt32LE(check(group)) }
    return bytes
  }
}

extension GroupChecks.Shape {
  /// Checks and wraps a group checks section over an index whose top has `groups` samples of
  /// `stride` records each, or a summary checks section (`summary`) over a top whose summary has
  /// `groups` samples of `stride` top samples each.
  /// - Throws: `FormatError`, placed in the file, when the length is not one check a group.
  /// - Complexity: O(1).
  package init(parsing section: ByteView, at place: FilePlace, stride: Int, groups: Int, summary: Bool = false)
    throws(FormatError)
  {
    guard section.count % GroupChecks.checkSize == 0, section.count / GroupChecks.checkSize == groups else {
      throw place.error(
        .malformedIndex(
          "\(summary ? "summary checks over a summary" : "group checks over a top") of \(groups) samples need "
            + "\(groups &* GroupChecks.checkSize) bytes, the section has \(section.count)"))
    }
    self.stride = stride
    count = groups
    checks = FileRange(offset: place.offset, count: section.count)
  }

  /// The stored check of group `group`. Precondition: `group < count`, and `file` is the bytes
  /// the shape was parsed from.
  @inlinable package func check(ofGroup group: Int, in file: ByteView) -> UInt32 {
    unsafe file.uncheckedUInt32LE(at: checks.offset &+ group &* GroupChecks.checkSize)  // group < count: inside
  }
}
