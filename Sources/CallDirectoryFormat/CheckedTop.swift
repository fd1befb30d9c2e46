/// The checked top of one kind's entry index (`Spec/FORMAT.md`, section 5.5, version 2.6): the
/// top's samples and their group checks, a group of the summary at a time, so that the one group
/// of the top a cold lookup searches and the one check it then needs lie in one page.
///
/// Layout (`BTCK`, `ITCK`): for each summary group `t`, the top's samples `t * S` to
/// `min((t + 1) * S, g) - 1` (8 bytes each), then the group checks of the same samples (4 bytes
/// each): the bytes summary check `t` covers (section 5.4), contiguous, so that group `t` starts
/// at `12 * S * t` and its summary check is the CRC-32 of its span. The section copies `BTOP` and
/// `BGCK` (or `ITOP` and `IGCK`); it is derived and optional, and a reader that ignores it reads
/// those instead.
@usableFromInline package enum CheckedTop {
  /// Where a kind's checked top lies, without its bytes: what a reader keeps.
  @frozen @usableFromInline package struct Shape: Sendable {
    /// The top's samples a group holds: the summary's stride.
    @usableFromInline package let stride: Int
    /// The number of the top's samples, `g`.
    @usableFromInline package let count: Int
    /// Where the section lies in the file, `count * 12` bytes.
    @usableFromInline package let bytes: FileRange
  }

  /// Bytes a sample and its group check take together.
  @usableFromInline package static let entrySize = 8 + GroupChecks.checkSize

  /// The bytes of checks that follow each full group's samples in a checked top whose summary
  /// groups `stride` samples: what a search of the samples skips from one group to the next
  /// (`calldir_entry_plan`'s `top_gap`).
  @inlinable package static func gap(stride: Int) -> Int { stride &* GroupChecks.checkSize }

  /// The checked top section of a top whose samples are `samples` (8 bytes each, without the
  /// top's header) and whose group checks are `checks` (one u32 a sample), in groups of `stride`,
  /// the summary's.
  /// - Complexity: O(samples).
  @usableFromInline package static func encode(samples: ArraySlice<UInt8>, checks: [UInt8], stride: Int) -> [UInt8] {
    let count = samples.count / 8
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count * entrySize)
    for first in Swift.stride(from: 0, to: count, by: stride) {
      let end = min(first + stride, count)
      bytes.append(contentsOf: samples[(samples.startIndex + first * 8)..<(samples.startIndex + end * 8)])
      bytes.append(contentsOf: checks[(first * GroupChecks.checkSize)..<(end * GroupChecks.checkSize)])
    }
    return bytes
  }
}

extension CheckedTop.Shape {
  /// Checks and wraps a checked top section over a top of `samples` samples whose summary groups
  /// them by `stride`.
  /// - Throws: `FormatError`, placed in the file, when the length is not 12 bytes a sample.
  /// - Complexity: O(1).
  package init(parsing section: ByteView, at place: FilePlace, stride: Int, samples: Int) throws(FormatError) {
    guard section.count % CheckedTop.entrySize == 0, section.count / CheckedTop.entrySize == samples else {
      throw place.error(
        .malformedIndex(
          "a checked top of \(samples) samples needs \(samples &* CheckedTop.entrySize) bytes, "
            + "the section has \(section.count)"))
    }
    self.stride = stride
    count = samples
    bytes = FileRange(offset: place.offset, count: section.count)
  }

  /// The samples of summary group `group`, as a range of the top's samples.
  /// Precondition: `group < ceil(count / stride)`.
  @inlinable package func samples(ofGroup group: Int) -> Range<Int> {
    let first = group &* stride
    return first..<min(first &+ stride, count)
  }

  /// Where summary group `group` lies in the file: its samples, then their group checks, the
  /// bytes its summary check covers. Precondition: `group < ceil(count / stride)`.
  @inlinable package func span(ofGroup group: Int) -> FileRange {
    let samples = samples(ofGroup: group)
    return FileRange(
      offset: bytes.offset &+ samples.lowerBound &* CheckedTop.entrySize, count: samples.count &* CheckedTop.entrySize)
  }

  /// The file offsets of the top's sample `sample` and of its group check, inside its summary
  /// group's span. Precondition: `sample < count`.
  @inlinable package func offsets(ofSample sample: Int) -> (sample: Int, check: Int) {
    let span = span(ofGroup: sample / stride)
    let position = sample % stride
    return (
      span.offset &+ position &* 8,
      span.offset &+ (span.count / CheckedTop.entrySize) &* 8 &+ position &* GroupChecks.checkSize
    )
  }

  /// The bytes of checks that follow each full group's samples (`CheckedTop.gap(stride:)`).
  @inlinable package var gap: Int { CheckedTop.gap(stride: stride) }
}
