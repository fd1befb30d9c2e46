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
/// merged. At most `fanIn` runs are read at once, each through a window (`MergedRuns`): more
/// are first merged `fanIn` at a time into longer runs, so memory is `limit` records plus
/// `fanIn` windows, whatever the count.
struct ExternalSorter<Record: SpoolRecord> {
  private var buffer: [Record] = []
  private var runs: [SpoolFile] = []
  /// The records held in memory before a spill.
  let limit: Int
  /// The most runs merged at once.
  let fanIn: Int
  private let directory: String
  /// The records added.
  private(set) var count = 0
  /// The records the buffer makes room for at the first append.
  let initialCapacity: Int

  /// - Parameter initialCapacity: the records to make room for at the first append. Room is
  ///   address space: a page is touched only when records reach it. Growing by doubling instead
  ///   copies every record once more and touches the old pages as well as the new (a tenth of
  ///   the time of a pack of 10M shuffled lines).
  init(limit: Int, directory: String, fanIn: Int = .max, initialCapacity: Int = 0) {
    self.limit = max(1, limit)
    self.fanIn = max(2, fanIn)
    self.directory = directory
    self.initialCapacity = max(0, initialCapacity)
  }

  /// The most runs whose windows fit in `bytes` of memory, at least 2.
  static func fanIn(memory bytes: Int) -> Int { max(2, bytes / MergedRuns<Record>.memoryPerRun) }

  /// The bytes the records in memory take.
  var bufferedBytes: Int { buffer.count * MemoryLayout<Record>.stride }

  mutating func append(_ record: Record) throws(WriterError) {
    if buffer.capacity == 0 { buffer.reserveCapacity(initialCapacity) }
    buffer.append(record)
    count += 1
    if buffer.count >= limit { try spill() }
  }

  /// Sorts the records in memory and writes them out as one more run.
  mutating func spill() throws(WriterError) {
    guard !buffer.isEmpty else { return }
    Record.sort(&buffer)
    do {
      // Gone before the buffer is emptied, so that emptying it keeps its room instead of
      // copying a buffer two owners share.
      var sorted = ArraySource(buffer)
      runs.append(try Self.run(of: &sorted, directory: directory))
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Every record added, in ascending order: runs past `fanIn` are first merged, `fanIn` at a
  /// time and oldest first, into runs of their own (each such pass reads and writes its records
  /// once, so every record is copied about log base `fanIn` of the run count times).
  /// - Throws: `WriterError.system` when a run cannot be read or written.
  consuming func merged() throws(WriterError) -> MergedRuns<Record> {
    Record.sort(&buffer)
    var runs = runs
    var passes = 0
    while runs.count > fanIn {
      let group = Array(runs.prefix(fanIn))
      runs.removeFirst(fanIn)
      var source = MergedRuns<Record>(runs: group, remainder: [])
      runs.append(try Self.run(of: &source, directory: directory))
      passes += 1
    }
    return MergedRuns(runs: runs, remainder: buffer, passes: passes)
  }

  /// A new run of the records of `source`, written to a spool file in `directory` 64 KiB at a
  /// time: a spill's sorted buffer, or a pass's merge of older runs.
  private static func run<Source: SortedSource>(of source: inout Source, directory: String) throws(WriterError) -> SpoolFile
  where Source.Record == Record {
    let run: SpoolFile
    do { run = try SpoolFile(in: directory) } catch { throw .system(error) }
    func write(_ bytes: [UInt8]) throws(WriterError) {
      do { try run.append(bytes) } catch { throw .system(error) }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 << 16)
    while let record = try source.next() {
      record.append(to: &bytes)
      if bytes.count >= 1 << 16 {
        try write(bytes)
        bytes.removeAll(keepingCapacity: true)
      }
    }
    try write(bytes)
    return run
  }
}

/// The k-way merge of sorted runs: each run is read through a window of 64 KiB.
struct MergedRuns<Record: SpoolRecord>: SortedSource {
  /// What a run costs while it is merged: its window, and the one a refill reads before it
  /// replaces it.
  static var memoryPerRun: Int { 2 << 16 }

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
  /// The passes that merged runs into longer ones before this merge (`ExternalSorter.fanIn`).
  let passes: Int

  init(runs: [SpoolFile], remainder: [Record], passes: Int = 0) {
    self.passes = passes
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
