import CallDirectoryFormat
import CallDirectorySystem

/// Writes a call directory from entries given in ascending order, in memory that does not grow
/// with the number of entries.
///
/// Each kind's runs (single numbers and ranges) must arrive in ascending order of their first
/// number, in any order among runs that share one; the kinds may interleave. Runs may nest: each
/// number answers to its own entry, else to the narrowest range that holds it, and a blocking
/// list's exceptions (`allow`) punch holes in its ranges (`Spec/INPUT.md`, section 3.5). The
/// writer flattens them as the canonical form asks, so the file is byte-identical to what
/// `DirectoryBuilder` makes of the same entries with the same options.
///
///     var writer = try AscendingDirectoryWriter(temporaryDirectory: "/var/tmp")
///     for number in sortedNumbers { try writer.block(number) }
///     try writer.write(to: "list.calldir")
///
/// An entry the writer refuses (out of order, or in conflict with an earlier one) is left out,
/// and its label too when no other entry has it: a caller may report it and go on with entries
/// that do not start before it.
///
/// Blocking entries are encoded as they arrive. Identification entries wait in a spool, 12 bytes
/// each, until every label is known: the file numbers labels in byte order (`DirectoryBuilder`
/// and `SortingDirectoryWriter`, which know every label first, have them encoded as they
/// arrive). With a temporary directory the spool and the encoded blocks live in unlinked files
/// there, and memory is one block of entries, the index (16 bytes per block of `B` entries), the
/// distinct labels and the ranges; without one they are kept in memory.
///
/// The writer is `~Copyable`: its spools are files that one value owns, so a copy could only
/// corrupt them, and `finish` and `write(to:)` consume it, so that adding after finishing does not
/// compile. It is `Sendable`: a writer filled on one task can be finished on another. It needs no
/// `deinit`: its spool files are unlinked as they are made and closed with their last reference.
@safe public struct AscendingDirectoryWriter: ~Copyable, @unchecked Sendable {
  // Unchecked because the spools are `SpoolFile` objects, which are not `Sendable`: each is made
  // by this writer, never handed out, and reachable from this one value only, so moving the
  // writer moves them all.
  /// The encoding options, as for `DirectoryBuilder`.
  public let options: DirectoryBuilder.Options
  private let temporaryDirectory: String?
  private var labels = LabelTable()
  private var blocking: EntrySectionWriter
  private var blockingRuns = CanonicalRuns(exceptionLabel: BlockingLabel.allow)
  private var blockingRanges: [ClosedRange<Int64>] = []
  private var identifications: SectionBuffer
  /// The file's numbering of the labels and the identification section, from the start when
  /// every label was given before any entry (a builder's): entries then go straight to their
  /// section, with no spool to replay.
  private var numbered: (sorted: SortedLabels, newId: [UInt32])?
  private var numberedEntries: EntrySectionWriter?
  private var identificationRuns: CanonicalRuns
  /// Which provisional label ids the file uses, kept where a settled conflict may leave a label
  /// unused (not under `.refuse`), so that the table holds exactly the labels used.
  private var usedLabels: [Bool] = []
  private var identificationRanges: [CanonicalRuns.Run] = []
  private var record: [UInt8] = []
  /// The single entries released to the sections so far, both kinds.
  private var entriesStored = 0

  /// A writer that keeps its spools in `temporaryDirectory`, or in memory when it is `nil`.
  /// - Throws: `WriterError.invalidOption` for options out of range, `.system` when a spool
  ///   cannot be created.
  public init(options: DirectoryBuilder.Options = .init(), temporaryDirectory: String? = nil) throws(WriterError) {
    // Everything that can throw comes before `self` is touched: a noncopyable value cannot be
    // left half made.
    try options.check()
    let blocking = try EntrySectionWriter(identification: false, options: options, spoolingIn: temporaryDirectory)
    // Records with provisional label ids, replayed with the final ones at the end.
    let identifications = try SectionBuffer(spoolingIn: temporaryDirectory, checksummed: false)
    self.init(options: options, temporaryDirectory: temporaryDirectory, blocking: blocking, identifications: identifications)
  }

  private init(
    options: DirectoryBuilder.Options, temporaryDirectory: String?, blocking: EntrySectionWriter,
    identifications: SectionBuffer
  ) {
    self.options = options
    self.temporaryDirectory = temporaryDirectory
    self.blocking = blocking
    self.identifications = identifications
    identificationRuns = CanonicalRuns(labelConflicts: options.onLabelConflict)
    record.reserveCapacity(12)
  }

  /// Continues with every label already given (a builder's), so that entries can be given by
  /// their ids; no label may be added after.
  ///
  /// The labels are numbered at once and the entries encoded as they come, unless the options
  /// settle label conflicts: a label whose entries all lost may then be left unused, and the
  /// labels are numbered at the end, without it, the entries waiting in the spool.
  init(options: DirectoryBuilder.Options, labels: LabelTable, temporaryDirectory: String? = nil) throws(WriterError) {
    let entries = try EntrySectionWriter(identification: true, options: options, spoolingIn: temporaryDirectory)
    try self.init(options: options, temporaryDirectory: temporaryDirectory)
    self.labels = labels
    guard options.onLabelConflict == .refuse else { return }
    numbered = labels.sortedOrder()
    numberedEntries = entries
  }

  /// What the canonical form dropped or joined among the entries added so far. Runs sharing a
  /// first number are counted once the next first number arrives (or the writer finishes).
  public var statistics: CanonicalStatistics {
    var sum = blockingRuns.statistics + identificationRuns.statistics
    sum.entriesStored = entriesStored
    sum.rangesStored = blockingRanges.count + identificationRanges.count
    return sum
  }

  /// Adds a number to block; numbers must not decrease.
  /// - Throws: `WriterError.numberOutOfRange`, or `.outOfOrder` for a number below the last one.
  /// - Complexity: amortised O(1).
  public mutating func block(_ number: Int64) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    try add(blocking: number...number)
  }

  /// Adds a range of numbers to block, both ends included; ranges and numbers must not decrease
  /// by their first number.
  /// - Throws: `WriterError.invalidRange`, or `.outOfOrder`.
  public mutating func block(_ range: ClosedRange<Int64>) throws(WriterError) {
    try Self.check(range)
    try add(blocking: range)
  }

  /// Adds an exception to the blocking list: `number` is not blocked, even inside a blocking
  /// range, unless it is itself a blocking entry (which is then an error). Runs must not decrease.
  /// - Throws: `WriterError.numberOutOfRange`, `.outOfOrder`, or `.conflictingLabels` (as
  ///   `block` and `allow`) when the number is also blocked on its own.
  public mutating func allow(_ number: Int64) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    try add(blocking: number...number, label: BlockingLabel.allow)
  }

  /// Adds a range of exceptions to the blocking list: its numbers are not blocked, except those
  /// a narrower blocking range or a blocking entry names. Runs must not decrease.
  /// - Throws: `WriterError.invalidRange`, `.outOfOrder`, or `.overlappingRanges` when it
  ///   overlaps a blocking range with neither inside the other.
  public mutating func allow(_ range: ClosedRange<Int64>) throws(WriterError) {
    try Self.check(range)
    try add(blocking: range, label: BlockingLabel.allow)
  }

  /// Adds a number to identify with `label`; numbers must not decrease.
  /// - Throws: `WriterError` for an invalid number or label, `.outOfOrder`, or a conflict with
  ///   an earlier entry or range.
  public mutating func identify(_ number: Int64, label: String) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let known = labels.count
    try add(identification: number...number, label: try labels.id(of: label, for: number), labelsBefore: known)
  }

  /// Adds a number to identify with a label's UTF-8 bytes lent for the call, as a listing
  /// parser's `forEachEntry` lends them: no `String` and no array is made, and each distinct
  /// label's bytes are checked once, when first seen. Numbers must not decrease.
  /// - Throws: as `identify(_:label:)`, and `.invalidUTF8`.
  public mutating func identify(_ number: Int64, utf8 label: Span<UInt8>) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let known = labels.count
    try add(identification: number...number, label: try labels.id(of: label, for: number), labelsBefore: known)
  }

  /// Adds a range of numbers, both ends included, to identify with `label`.
  /// - Throws: as `identify(_:label:)`, and `.invalidRange`.
  public mutating func identify(_ range: ClosedRange<Int64>, label: String) throws(WriterError) {
    try Self.check(range)
    let known = labels.count
    try add(identification: range, label: try labels.id(of: label, for: range.lowerBound), labelsBefore: known)
  }

  /// Adds a range of numbers, both ends included, to identify with a label's UTF-8 bytes lent
  /// for the call.
  /// - Throws: as `identify(_:utf8:)`, and `.invalidRange`.
  public mutating func identify(_ range: ClosedRange<Int64>, utf8 label: Span<UInt8>) throws(WriterError) {
    try Self.check(range)
    let known = labels.count
    try add(identification: range, label: try labels.id(of: label, for: range.lowerBound), labelsBefore: known)
  }

  static func check(_ range: ClosedRange<Int64>) throws(WriterError) {
    guard Limits.isValidNumber(range.lowerBound), Limits.isValidNumber(range.upperBound) else {
      throw .invalidRange(first: range.lowerBound, last: range.upperBound)
    }
  }

  /// Adds a blocking run (or, with `BlockingLabel.allow`, an exception) whose ends are valid numbers.
  mutating func add(blocking run: ClosedRange<Int64>, label: UInt32 = BlockingLabel.block) throws(WriterError) {
    let single: CanonicalRuns.Run?
    do { single = try blockingRuns.add(run, label: label) } catch {
      throw error.writerError(kind: "blocking", label: BlockingLabel.name)
    }
    if let single {
      try blocking.append(single.numbers.lowerBound, label: 0)
      entriesStored += 1
    }
    try keepBlocking()
  }

  /// Adds an identification run whose ends are valid numbers, with a provisional label id.
  /// `labelsBefore` is the label count before this run's label was asked for: a run the
  /// canonical form refuses takes a label it added back out, so that a caller who goes on past
  /// the error gets a file without it.
  mutating func add(identification run: ClosedRange<Int64>, label: UInt32, labelsBefore: Int? = nil) throws(WriterError) {
    let single: CanonicalRuns.Run?
    do { single = try identificationRuns.add(run, label: label) } catch {
      let failure = error.writerError(kind: "identification", label: labels.text)
      if let labelsBefore { labels.removeNewest(downTo: labelsBefore) }
      throw failure
    }
    if let single { try keepIdentification(single) }
    try keepIdentification()
  }

  /// Adds sorted single blocking numbers, and ranges and exceptions sorted by first number,
  /// merged in order.
  mutating func add<Source: SortedSource>(
    blocking singles: inout Source, ranges: [LabelledRange]
  ) throws(WriterError) where Source.Record == Int64 {
    var next = 0
    while let number = try singles.next() {
      while next < ranges.count && ranges[next].range.lowerBound <= number {
        try add(blocking: ranges[next].range, label: ranges[next].label)
        next += 1
      }
      try add(blocking: number...number)
    }
    for range in ranges[next...] { try add(blocking: range.range, label: range.label) }
  }

  /// Adds sorted single identification entries and sorted ranges, merged in order.
  mutating func add<Source: SortedSource>(
    identification singles: inout Source, ranges: [LabelledRange]
  ) throws(WriterError) where Source.Record == IdentificationEntry {
    var next = 0
    while let entry = try singles.next() {
      while next < ranges.count && ranges[next].range.lowerBound <= entry.number {
        try add(identification: ranges[next].range, label: ranges[next].label)
        next += 1
      }
      try add(identification: entry.number...entry.number, label: entry.label)
    }
    for range in ranges[next...] { try add(identification: range.range, label: range.label) }
  }

  /// Takes what the blocking sweep released: its entries to their section, its ranges.
  private mutating func keepBlocking() throws(WriterError) {
    guard !blockingRuns.released.isEmpty else { return }
    for single in blockingRuns.released.singles { try blocking.append(single.numbers.lowerBound, label: 0) }
    entriesStored += blockingRuns.released.singles.count
    for range in blockingRuns.released.ranges { blockingRanges.append(range.numbers) }
    blockingRuns.released.singles.removeAll(keepingCapacity: true)
    blockingRuns.released.ranges.removeAll(keepingCapacity: true)
  }

  /// Takes what the identification sweep released: its entries to their section (or the spool,
  /// until every label is numbered), its ranges.
  private mutating func keepIdentification() throws(WriterError) {
    guard !identificationRuns.released.isEmpty else { return }
    for single in identificationRuns.released.singles { try keepIdentification(single) }
    for range in identificationRuns.released.ranges { markUsed(range.label) }
    identificationRanges.append(contentsOf: identificationRuns.released.ranges)
    identificationRuns.released.singles.removeAll(keepingCapacity: true)
    identificationRuns.released.ranges.removeAll(keepingCapacity: true)
  }

  /// Ends both kinds' sweeps: what they still hold is released and counted in `statistics`.
  /// Adding a run after this is refused as out of order.
  mutating func finishRuns() throws(WriterError) {
    blockingRuns.finish()
    try keepBlocking()
    identificationRuns.finish()
    try keepIdentification()
  }

  /// Records that the file uses provisional label `id`.
  private mutating func markUsed(_ id: UInt32) {
    guard options.onLabelConflict != .refuse else { return }
    if usedLabels.count <= Int(id) { usedLabels += repeatElement(false, count: Int(id) + 1 - usedLabels.count) }
    usedLabels[Int(id)] = true
  }

  /// Takes one released identification entry: to its section, or to the spool until every label
  /// is numbered.
  private mutating func keepIdentification(_ single: CanonicalRuns.Run) throws(WriterError) {
    entriesStored += 1
    if let newId = numbered?.newId {
      try numberedEntries?.append(single.numbers.lowerBound, label: newId[Int(single.label)])
    } else {
      markUsed(single.label)
      record.removeAll(keepingCapacity: true)
      record.appendUInt64LE(UInt64(single.numbers.lowerBound))
      record.appendUInt32LE(single.label)
      try identifications.append(record)
    }
  }

  /// Finishes the directory and hands the file to `sink` in pieces, header first.
  ///
  /// - Parameter key: signs the file as it is written (`Spec/FORMAT.md`, section 16): the same
  ///   bytes as `DirectorySigner.sign` of the unsigned file, without holding the file in memory
  ///   (spooled sections are read twice, once to hash them).
  /// - Throws: `WriterError`, or what `sink` throws.
  public consuming func finish(
    signingWith key: SigningKey? = nil, into sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) {
    try finishOnce(signingWith: key, into: sink)
  }

  /// Finishes the directory with `trailing` sections after its contents (a patch carries the list
  /// version and signature of the file it rebuilds this way).
  package consuming func finish(
    appending trailing: [RawSection], into sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) {
    try finishOnce(appending: trailing, into: sink)
  }

  private mutating func finishOnce(
    appending trailing: [RawSection] = [], signingWith key: SigningKey? = nil,
    into sink: ([UInt8]) throws(WriterError) -> Void
  ) throws(WriterError) {
    try finishRuns()
    let (sortedLabels, newId) = numbered ?? labels.sortedOrder(keeping: options.onLabelConflict == .refuse ? nil : usedLabels)
    assert(newId.count == labels.count, "no label added after they were numbered")
    var entries: EntrySectionWriter
    if let given = numberedEntries {
      entries = given
      numberedEntries = nil  // `entries` is then its only owner, and appends in place
    } else {
      entries = try EntrySectionWriter(identification: true, options: options, spoolingIn: temporaryDirectory)
    }
    // Pieces are whole multiples of a record's 12 bytes, so no record straddles two of them.
    try identifications.write(chunk: 12 << 12) { (piece) throws(WriterError) in
      var offset = 0
      while offset + 12 <= piece.count {
        try entries.append(
          Int64(bitPattern: piece.littleEndian(at: offset, as: UInt64.self)),
          label: newId[Int(piece.littleEndian(at: offset + 8, as: UInt32.self))])
        offset += 12
      }
    }
    let contents = DirectoryContents(
      blocking: try blocking.finish(), identification: try entries.finish(), labels: sortedLabels,
      blockingRanges: blockingRanges,
      identificationRanges: identificationRanges.map { CanonicalRuns.Run(numbers: $0.numbers, label: newId[Int($0.label)]) },
      trailing: trailing)
    try contents.write(options: options, signingWith: key, to: sink)
  }

  /// Finishes the directory and writes it to `path` atomically, as `DirectoryBuilder.write(to:)`.
  /// - Throws: `WriterError`, with `.system` for file errors; `path` is then left as it was.
  public consuming func write(to path: String) throws(WriterError) {
    try writeAtomically(to: path) { (sink) throws(WriterError) in try finishOnce(into: sink) }
  }
}

/// The labels of a blocking list's runs: blocked numbers, and exceptions, whose numbers are
/// holes in the ranges around them.
enum BlockingLabel {
  static let block: UInt32 = 0
  static let allow: UInt32 = 1

  /// The label's name in messages.
  static func name(_ label: UInt32) -> String { label == allow ? "allow" : "block" }
}

extension [UInt8] {
  /// The little-endian integer at `offset`.
  /// - Precondition: `offset + MemoryLayout<T>.size <= count`.
  fileprivate func littleEndian<T: FixedWidthInteger & UnsignedInteger>(at offset: Int, as type: T.Type) -> T {
    var value: T = 0
    for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(self[offset + index]) }
    return value
  }
}
