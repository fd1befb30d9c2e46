import CallDirectoryFormat

/// Decodes and checks one block of a changeset list (`Spec/CHANGESET.md`, section 6).
///
/// The whole block is checked (checksum, frame, every run, no trailing bytes) before any of its
/// runs is returned, so a damaged block never yields a run.
enum RunBlockDecoder {
  /// One decoded run.
  struct Run {
    var numbers: ClosedRange<Int64>
    var label: String?
  }

  /// The runs of the block `bytes` (from its codec byte to its trailer), which lies at `place`.
  /// - Parameters:
  ///   - previousLast: the last number of the list's run before this block (0 for the first);
  ///     updated to the block's last.
  /// - Throws: `FormatError`, placed in the file.
  static func decode(
    _ bytes: ByteView, at place: FilePlace, list: ChangeList, number: Int, previousLast: inout UInt64
  ) throws(FormatError) -> [Run] {
    let block = try Block(parsing: bytes, at: place, number: number, maximumPayload: ChangesetLayout.maximumPayload)
    try block.checkChecksum()
    let expected = Int(block.header.2) | Int(block.header.3) << 8
    var last = previousLast
    let runs = try block.withPayload { (payload) throws(FormatError) -> [Run] in
      try decodePayload(payload, list: list, count: expected, block: block, previousLast: &last)
    }
    previousLast = last
    return runs
  }

  private static func decodePayload(
    _ payload: ByteView, list: ChangeList, count: Int, block: Block, previousLast: inout UInt64
  ) throws(FormatError) -> [Run] {
    func malformed(_ reason: String, _ offset: Int) -> FormatError {
      block.payloadError(.malformedBlock(block: block.number, reason: reason), at: offset)
    }
    var runs: [Run] = []
    var offset = 0
    let maximum = UInt64(Limits.maximumNumber)
    // The run count is at most 4,096 (checked when the file was opened) and each run takes at
    // least one payload byte, so the loop ends within the payload.
    for _ in 0..<count {
      let start = offset
      guard let head = Varint.read(payload, at: &offset) else {
        throw malformed("run \(runs.count) is not a canonical varint", start)
      }
      let delta = head >> 1
      // Subtraction form: previousLast <= maximum always holds, so `maximum &- previousLast` cannot wrap.
      guard delta >= 1, delta <= maximum &- previousLast else {
        throw malformed("run \(runs.count) is not above the previous run or leaves 1...\(Limits.maximumNumber)", start)
      }
      let first = previousLast &+ delta
      var span: UInt64 = 0
      if head & 1 == 1 {
        guard let extra = Varint.read(payload, at: &offset) else {
          throw malformed("run \(runs.count) has no canonical span", start)
        }
        // first <= maximum, so `maximum &- first` cannot wrap; extra < that difference keeps extra + 1 in range.
        guard extra < maximum &- first else { throw malformed("run \(runs.count) ends above \(Limits.maximumNumber)", start) }
        span = extra &+ 1
      }
      let last = first &+ span
      var label: String?
      if list.labelled {
        let at = offset
        guard let length = Varint.read(payload, at: &offset), let size = Int(exactly: length),
          Limits.isValidLabelLength(size), payload.contains(offset: offset, length: size)
        else { throw malformed("run \(runs.count) has no label of 1...\(Limits.maximumLabelBytes) bytes", at) }
        let text = try payload.slice(offset: offset, length: size)  // inside: checked above
        guard UTF8Validation.isValid(text) else { throw malformed("run \(runs.count) has a label that is not UTF-8", at) }
        label = String(decoding: text.bytes, as: UTF8.self)
        offset &+= size  // contains(offset:length:) proved offset + size <= count
      }
      runs.append(Run(numbers: Int64(first)...Int64(last), label: label))
      previousLast = last
    }
    guard offset == payload.count else { throw malformed("\(payload.count &- offset) bytes after the last run", offset) }
    return runs
  }
}
