import CallDirectoryFormat
import CallDirectorySystem

/// Writes a call directory from entries in any order, in bounded memory: an external sort.
///
/// Entries gather in memory up to `memoryLimit` bytes; then the larger kind is sorted and spilled
/// to a run in an unlinked spool file in `temporaryDirectory`. When the file is written the runs
/// are merged and streamed through `AscendingDirectoryWriter`, which spools the encoded sections, so
/// the whole job holds about `memoryLimit` bytes of entries, as much again for the sort's scratch
/// and then for the runs' read windows (128 KiB a run: more runs than fit are first merged into
/// longer ones, in passes), the distinct labels, the ranges and the index (16 bytes per block of
/// entries), whatever the number of entries.
/// Disk: about 8 bytes per blocking entry and 16 per identification entry for the runs, plus the
/// output, in `temporaryDirectory`.
///
/// The file is byte-identical to what `DirectoryBuilder` makes of the same entries.
///
///     var writer = try SortingDirectoryWriter(temporaryDirectory: "/var/tmp", memoryLimit: 256 << 20)
///     for number in numbersInAnyOrder { try writer.block(number) }
///     let report = try writer.write(to: "big.calldir")
///
/// The writer is `~Copyable`: its spilled runs are files that one value owns, so a copy could only
/// corrupt them, and `finish` and `write(to:)` consume it, so that adding after finishing does not
/// compile. It is `Sendable`: a writer filled on one task can be finished on another. It needs no
/// `deinit`: its runs are unlinked as they are made and closed with their last reference.
@safe public struct SortingDirectoryWriter: ~Copyable, @unchecked Sendable {
  // Unchecked because the runs are `SpoolFile` objects, which are not `Sendable`: each is made by
  // this writer, never handed out, and reachable from this one value only, so moving the writer
  // moves them all.
  /// The encoding options.
  public let options: DirectoryBuilder.Options
  private let temporaryDirectory: String
  private let memoryLimit: Int
  private var labels = LabelTable()
  private var blocking: ExternalSorter<Int64>
  private var identification: ExternalSorter<IdentificationEntry>
  /// Blocking ranges and exceptions (one number or more), by label: few next to the entries, and
  /// kept in memory.
  private var blockingRanges: [LabelledRange] = []
  private var identificationRanges: [LabelledRange] = []
  private var order = InputOrder()

  /// A writer spilling to `temporaryDirectory` once its entries take `memoryLimit` bytes.
  /// - Throws: `WriterError.invalidOption` for options out of range.
  public init(
    options: DirectoryBuilder.Options = .init(), temporaryDirectory: String, memoryLimit: Int = 256 << 20
  ) throws(WriterError) {
    try options.check()
    self.options = options
    self.temporaryDirectory = temporaryDirectory
    self.memoryLimit = max(1 << 12, memoryLimit)
    // The runs are merged after the last sort, whose scratch (as large as the entries, in
    // `calldir pack`'s budget) is free by then: their windows may take as much.
    // Each buffer makes room for the budget, up to 128 MiB, at its first entry: address space,
    // not memory, and a bound that asks no more of the system than a default pack.
    let room = min(self.memoryLimit, 128 << 20)
    blocking = ExternalSorter(
      limit: .max, directory: temporaryDirectory, fanIn: ExternalSorter<Int64>.fanIn(memory: self.memoryLimit),
      initialCapacity: room / MemoryLayout<Int64>.stride)
    identification = ExternalSorter(
      limit: .max, directory: temporaryDirectory,
      fanIn: ExternalSorter<IdentificationEntry>.fanIn(memory: self.memoryLimit),
      initialCapacity: room / MemoryLayout<IdentificationEntry>.stride)
  }

  /// The entries added so far, duplicates included (ranges not counted).
  public var addedCount: (blocking: Int, identification: Int) { (blocking.count, identification.count) }

  /// Adds a number to block.
  /// - Throws: `WriterError.numberOutOfRange`, or `.system` when a run cannot be spilled.
  public mutating func block(_ number: Int64) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    try blocking.append(number)
    try spillIfFull()
  }

  /// Adds a range of numbers to block, both ends included.
  /// - Throws: `WriterError.invalidRange`.
  public mutating func block(_ range: ClosedRange<Int64>) throws(WriterError) {
    try AscendingDirectoryWriter.check(range)
    if range.count == 1 { return try block(range.lowerBound) }
    blockingRanges.append(LabelledRange(range: range, label: BlockingLabel.block))
  }

  /// Adds an exception to the blocking list, as `DirectoryBuilder.allow(_:)` does: the numbers
  /// of `range` (one number or more) are not blocked, except those a blocking entry or a narrower
  /// blocking range names. Exceptions are kept in memory, 24 bytes each.
  /// - Throws: `WriterError.invalidRange`.
  public mutating func allow(_ range: ClosedRange<Int64>) throws(WriterError) {
    try AscendingDirectoryWriter.check(range)
    blockingRanges.append(LabelledRange(range: range, label: BlockingLabel.allow))
  }

  /// Adds a number to identify with `label`.
  /// - Throws: `WriterError` for an invalid number or label, or `.system`.
  public mutating func identify(_ number: Int64, label: String) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let id = try labels.id(of: label, for: number)
    try identification.append(IdentificationEntry(number: number, label: id, sequence: try order.next(options)))
    try spillIfFull()
  }

  /// Adds a range of numbers, both ends included, to identify with `label`.
  /// - Throws: `WriterError` for an invalid range or label.
  public mutating func identify(_ range: ClosedRange<Int64>, label: String) throws(WriterError) {
    try AscendingDirectoryWriter.check(range)
    if range.count == 1 { return try identify(range.lowerBound, label: label) }
    identificationRanges.append(
      LabelledRange(range: range, label: try labels.id(of: label, for: range.lowerBound)))
  }

  /// Adds a number to identify with a label's UTF-8 bytes lent for the call, as a listing
  /// parser's `forEachEntry` lends them.
  /// - Throws: `WriterError` for an invalid number or label, or `.system` when spilling fails.
  public mutating func identify(_ number: Int64, utf8 label: Span<UInt8>) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let id = try labels.id(of: label, for: number)
    try identification.append(IdentificationEntry(number: number, label: id, sequence: try order.next(options)))
    try spillIfFull()
  }

  /// Adds a range of numbers, both ends included, to identify with a label's UTF-8 bytes lent for
  /// the call.
  /// - Throws: `WriterError` for an invalid range or label.
  public mutating func identify(_ range: ClosedRange<Int64>, utf8 label: Span<UInt8>) throws(WriterError) {
    try AscendingDirectoryWriter.check(range)
    if range.count == 1 { return try identify(range.lowerBound, utf8: label) }
    identificationRanges.append(
      LabelledRange(range: range, label: try labels.id(of: label, for: range.lowerBound)))
  }

  private mutating func spillIfFull() throws(WriterError) {
    guard blocking.bufferedBytes + identification.bufferedBytes >= memoryLimit else { return }
    if blocking.bufferedBytes >= identification.bufferedBytes { try blocking.spill() } else { try identification.spill() }
  }

  /// Merges the runs and hands the file to `sink`, header first.
  /// - Returns: what the canonical form dropped or joined.
  /// - Throws: `WriterError` for conflicting labels or ranges, or `.system`.
  /// - Parameter key: signs the file as it is written, as `AscendingDirectoryWriter.finish` does.
  public consuming func finish(
    signingWith key: SigningKey? = nil, into sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) -> CanonicalStatistics {
    try finishOnce(signingWith: key, into: sink)
  }

  private mutating func finishOnce(
    signingWith key: SigningKey? = nil, into sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) -> CanonicalStatistics {
    var writer = try AscendingDirectoryWriter(options: options, labels: labels, temporaryDirectory: temporaryDirectory)
    var numbers = try Self.takeAll(&blocking, directory: temporaryDirectory).merged()
    try writer.add(blocking: &numbers, ranges: DirectoryBuilder.sorted(blockingRanges))
    var entries = try Self.takeAll(&identification, directory: temporaryDirectory).merged()
    try writer.add(identification: &entries, ranges: DirectoryBuilder.sorted(identificationRanges))
    try writer.finishRuns()
    let statistics = writer.statistics
    try writer.finish(signingWith: key, into: sink)
    return statistics
  }

  /// The sorter's records, moved out of it: the sorter left behind is empty, so that sorting
  /// what is in memory does not copy it (two owners of one array would).
  private static func takeAll<Record>(_ sorter: inout ExternalSorter<Record>, directory: String) -> ExternalSorter<Record> {
    // No room made: nothing is added to the sorter left behind.
    var taken = ExternalSorter<Record>(limit: sorter.limit, directory: directory, fanIn: sorter.fanIn)
    swap(&taken, &sorter)
    return taken
  }

  /// Merges the runs and writes the file to `path` atomically, signed by `key` when given.
  /// - Returns: what the canonical form dropped or joined.
  /// - Throws: `WriterError`; `path` is then left as it was.
  public consuming func write(to path: String, signingWith key: SigningKey? = nil) throws(WriterError) -> CanonicalStatistics {
    var statistics = CanonicalStatistics()
    try writeAtomically(to: path) { (sink) throws(WriterError) in statistics = try finishOnce(signingWith: key, into: sink) }
    return statistics
  }
}
