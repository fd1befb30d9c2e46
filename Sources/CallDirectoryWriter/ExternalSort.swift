import CallDirectoryFormat
import CallDirectorySystem

/// A fixed-size record that a sort can spill to a spool file and read back.
protocol SpoolRecord: Comparable {
  /// The record's size in a spool, in bytes.
  static var size: Int { get }
  /// Appends the record's bytes.
  func append(to bytes: inout [UInt8])
  /// The record stored at `offset` of `bytes`.
  init(_ bytes: [UInt8], at offset: Int)
  /// Sorts records in memory, ascending.
  static func sort(_ records: inout [Self])
}

extension SpoolRecord {
  static func sort(_ records: inout [Self]) { records.sort() }
}

extension Int64: SpoolRecord {
  static var size: Int { 8 }
  static func sort(_ records: inout [Int64]) { RadixSort.sort(&records) }
  func append(to bytes: inout [UInt8]) { bytes.appendUInt64LE(UInt64(bitPattern: self)) }
  init(_ bytes: [UInt8], at offset: Int) {
    self = Int64(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) })
  }
}

extension IdentificationEntry: SpoolRecord, Comparable {
  static var size: Int { 16 }
  static func == (a: IdentificationEntry, b: IdentificationEntry) -> Bool {
    a.number == b.number && a.sequence == b.sequence && a.label == b.label
  }
  /// By number, then by the order given (all equal but under `.keepFirst` and `.keepLast`), then
  /// by label.
  static func < (a: IdentificationEntry, b: IdentificationEntry) -> Bool {
    (a.number, a.sequence, a.label) < (b.number, b.sequence, b.label)
  }
  func append(to bytes: inout [UInt8]) {
    number.append(to: &bytes)
    bytes.appendUInt32LE(label)
    bytes.appendUInt32LE(sequence)
  }
  init(_ bytes: [UInt8], at offset: Int) {
    func u32(_ at: Int) -> UInt32 { (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) } }
    self.init(number: Int64(bytes, at: offset), label: u32(offset + 8), sequence: u32(offset + 12))
  }
}

/// Records in ascending order, pulled one at a time.
protocol SortedSource {
  associatedtype Record
  /// The next record, or `nil` after the last.
  mutating func next() throws(WriterError) -> Record?
}

/// The records of an array already sorted.
struct ArraySource<Record>: SortedSource {
  let records: [Record]
  var index = 0
  init(_ records: [Record]) { self.records = records }
  mutating func next() throws(WriterError) -> Record? {
    guard index < records.count else { return nil }
    defer { index += 1 }
    return records[index]
  }
}

/// An external sort: records gather in memory; when there are `limit` of them they are sorted
/// and spilled to a spool file as a run; at the end the runs and what remains in memory are
/// merged, so memory is `limit` records plus a 64 KiB window per run, whatever the count.
struct ExternalSorter<Record: SpoolRecord> {
  private var buffer: [Record] = []
  private var runs: [SpoolFile] = []
  /// The records held in memory before a spill.
  let limit: Int
  private let directory: String
  /// The records added.
  private(set) var count = 0

  init(limit: Int, directory: String) {
    self.limit = max(1, limit)
    self.directory = directory
  }

  /// The bytes the records in memory take.
  var bufferedBytes: Int { buffer.count * MemoryLayout<Record>.stride }

  mutating func append(_ record: Record) throws(WriterError) {
    buffer.append(record)
    count += 1
    if buffer.count >= limit { try spill() }
  }

  /// Sorts the records in memory and writes them out as one more run.
  mutating func spill() throws(WriterError) {
    guard !buffer.isEmpty else { return }
    Record.sort(&buffer)
    do {
      let run = try SpoolFile(in: directory)
      var bytes: [UInt8] = []
      bytes.reserveCapacity(1 << 16)
      for record in buffer {
        record.append(to: &bytes)
        if bytes.count >= 1 << 16 {
          try run.append(bytes)
          bytes.removeAll(keepingCapacity: true)
        }
      }
      try run.append(bytes)
      runs.append(run)
    } catch {
      throw .system(error)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Every record added, in ascending order.
  consuming func merged() -> MergedRuns<Record> {
    Record.sort(&buffer)
    return MergedRuns(runs: runs, remainder: buffer)
  }
}

/// The k-way merge of sorted runs: each run is read through a window of 64 KiB.
struct MergedRuns<Record: SpoolRecord>: SortedSource {
  private struct Cursor {
    let run: SpoolFile
    var offset = 0
    var window: [UInt8] = []
    var position = 0
  }
  private var cursors: [Cursor]
  private var heads: [Record?]
  private var remainder: ArraySource<Record>
  private var remainderHead: Record?
  private var started = false

  init(runs: [SpoolFile], remainder: [Record]) {
    cursors = runs.map { Cursor(run: $0) }
    heads = Array(repeating: nil, count: runs.count)
    self.remainder = ArraySource(remainder)
  }

  private mutating func advance(_ index: Int) throws(WriterError) {
    if cursors[index].position + Record.size > cursors[index].window.count {
      let cursor = cursors[index]
      let size = (1 << 16) / Record.size * Record.size
      do { cursors[index].window = try cursor.run.read(at: cursor.offset, count: size) } catch { throw .system(error) }
      cursors[index].offset += cursors[index].window.count
      cursors[index].position = 0
      guard !cursors[index].window.isEmpty else {
        heads[index] = nil
        return
      }
    }
    heads[index] = Record(cursors[index].window, at: cursors[index].position)
    cursors[index].position += Record.size
  }

  mutating func next() throws(WriterError) -> Record? {
    if !started {
      started = true
      for index in cursors.indices { try advance(index) }
      remainderHead = try remainder.next()
    }
    // Few runs (one per `limit` records): a linear scan for the least head is cheap.
    var best: Int? = nil
    var least = remainderHead
    for (index, head) in heads.enumerated() {
      if let head, least.map({ head < $0 }) ?? true {
        least = head
        best = index
      }
    }
    guard let least else { return nil }
    if let best { try advance(best) } else { remainderHead = try remainder.next() }
    return least
  }
}
