import CallDirectoryFormat

// Encodes one list of a changeset as blocks (`Spec/CHANGESET.md`, section 6):
//
//   u32 length | block: codec u8, list u8, run count u16 | payload (raw or deflated) | CRC-32
//   payload:   per run: varint (delta << 1 | isRange) [| varint (last - first - 1) if isRange]
//              [| varint label length | label bytes]   (identification additions only)
//   delta:     first - previous last, >= 1; both below 2^63, so the shift cannot overflow
//
// The previous last of a list's first run is 0, and it carries across the list's blocks.

/// Collects one list's runs into blocks and hands each finished block to a sink.
struct RunBlockWriter {
  let list: ChangeList
  private var payload: [UInt8] = []
  private var runsInBlock = 0
  private var previousLast: UInt64 = 0
  /// One compressor for every block of the list.
  private let deflater = Deflater()
  /// The runs written so far.
  private(set) var runs: UInt64 = 0
  /// The blocks written so far.
  private(set) var blocks: UInt32 = 0

  init(list: ChangeList) { self.list = list }

  /// Appends a run; the caller keeps runs ascending and disjoint within the list.
  mutating func append<E: Error>(
    _ numbers: ClosedRange<Int64>, label: String?, sink: ([UInt8]) throws(E) -> Void
  ) throws(E) {
    var run: [UInt8] = []
    // Ascending, disjoint runs of 1 ... Int64.max - 1: the delta is at least 1 and does not wrap.
    let delta = UInt64(numbers.lowerBound) &- previousLast
    let span = UInt64(numbers.upperBound &- numbers.lowerBound)
    // Most runs are single numbers: a flag bit in the delta saves them a byte each.
    Varint.append(delta << 1 | (span > 0 ? 1 : 0), to: &run)
    if span > 0 { Varint.append(span &- 1, to: &run) }
    if list.labelled, let label {
      let bytes = Array(label.utf8)
      Varint.append(UInt64(bytes.count), to: &run)
      run.append(contentsOf: bytes)
    }
    if runsInBlock > 0
      && (runsInBlock == ChangesetLayout.maximumRunsPerBlock || payload.count + run.count > ChangesetLayout.targetPayload)
    {
      try flush(sink: sink)
    }
    payload.append(contentsOf: run)
    runsInBlock += 1
    runs += 1
    previousLast = UInt64(numbers.upperBound)
  }

  /// Writes the last, partly filled block, if any.
  mutating func finish<E: Error>(sink: ([UInt8]) throws(E) -> Void) throws(E) {
    if runsInBlock > 0 { try flush(sink: sink) }
  }

  private mutating func flush<E: Error>(sink: ([UInt8]) throws(E) -> Void) throws(E) {
    let count = UInt16(runsInBlock)  // 1 ... 4096
    let block = Block.encode(
      header: (list.rawValue, UInt8(truncatingIfNeeded: count), UInt8(truncatingIfNeeded: count >> 8)), payload: payload,
      deflateWhenSaving: ChangesetLayout.deflateDivisor, using: deflater)
    var framed: [UInt8] = []
    framed.reserveCapacity(block.count + ChangesetLayout.blockPrefixSize)
    framed.appendUInt32LE(UInt32(block.count))
    framed.append(contentsOf: block)
    try sink(framed)
    blocks += 1
    payload.removeAll(keepingCapacity: true)
    runsInBlock = 0
  }
}
