import CallDirectoryFormat
import CallDirectorySystem

/// Writes a call directory from entries given in ascending order, in memory that does not grow
/// with the number of entries.
///
/// Each kind's runs (single numbers and ranges) must arrive in ascending order of their first
/// number; the kinds may interleave. Exact duplicates are merged, ranges merged and covered
/// singles dropped as the canonical form asks, so the file is byte-identical to what
/// `DirectoryBuilder` makes of the same entries with the same options.
///
///     var writer = try AscendingDirectoryWriter(temporaryDirectory: "/var/tmp")
///     for number in sortedNumbers { try writer.block(number) }
///     try writer.write(to: "list.calldir")
///
/// An entry the writer refuses (out of order, or in conflict with an earlier one) changes
/// nothing, not even the label table: a caller may report it and go on.
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
  private var blockingRuns = CanonicalRuns(labelled: false)
  private var blockingRanges: [ClosedRange<Int64>] = []
  private var identifications: SectionBuffer
  /// The file's numbering of the labels and the identification section, from the start when
  /// every label was given before any entry (a builder's): entries then go straight to their
  /// section, with no spool to replay.
  private var numbered: (sorted: SortedLabels, newId: [UInt32])?
  private var numberedEntries: EntrySectionWriter?
  private var identificationRuns = CanonicalRuns(labelled: true)
  private var identificationRanges: [CanonicalRuns.Run] = []
  private var record: [UInt8] = []

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
    record.reserveCapacity(12)
  }

  /// Continues with every label already given (a builder's), so that entries can be given by
  /// their ids; no label may be added after.
  init(options: DirectoryBuilder.Options, allLabels labels: LabelTable, temporaryDirectory: String? = nil) throws(WriterError) {
    let entries = try EntrySectionWriter(identification: true, options: options, spoolingIn: temporaryDirectory)
    try self.init(options: options, temporaryDirectory: temporaryDirectory)
    self.labels = labels
    numbered = labels.sortedOrder()
    numberedEntries = entries
  }

  /// What the canonical form dropped or joined among the entries added so far. A range that
  /// repeats one given earlier counts as a duplicate when the two arrive next to each other, as
  /// they do from `DirectoryBuilder` (which orders ranges by both ends); with another range of
  /// the same start between them it counts as merged. The file is the same either way.
  public var statistics: CanonicalStatistics { blockingRuns.statistics + identificationRuns.statistics }

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

  /// Adds a blocking run whose ends are valid numbers.
  mutating func add(blocking run: ClosedRange<Int64>) throws(WriterError) {
    let released: CanonicalRuns.Released
    do { released = try blockingRuns.add(run, label: 0) } catch {
      throw error.writerError(kind: "blocking", label: labels.text)
    }
    try keep(blocking: released)
  }

  /// Adds an identification run whose ends are valid numbers, with a provisional label id.
  /// `labelsBefore` is the label count before this run's label was asked for: a run the
  /// canonical form refuses takes a label it added back out, so that a caller who goes on past
  /// the error gets a file without it.
  mutating func add(identification run: ClosedRange<Int64>, label: UInt32, labelsBefore: Int? = nil) throws(WriterError) {
    let released: CanonicalRuns.Released
    do { released = try identificationRuns.add(run, label: label) } catch {
      let failure = error.writerError(kind: "identification", label: labels.text)
      if let labelsBefore { labels.removeNewest(downTo: labelsBefore) }
      throw failure
    }
    try keep(identification: released)
  }

  /// Adds sorted single blocking numbers and sorted ranges (by first number, then last), merged in order.
  mutating func add<Source: SortedSource>(
    blocking singles: inout Source, ranges: [ClosedRange<Int64>]
  ) throws(WriterError) where Source.Record == Int64 {
    var next = 0
    while let number = try singles.next() {
      while next < ranges.count && ranges[next].lowerBound <= number {
        try add(blocking: ranges[next])
        next += 1
      }
      try add(blocking: number...number)
    }
    for range in ranges[next...] { try add(blocking: range) }
  }

  /// Adds sorted single identification entries and sorted ranges, merged in order.
  mutating func add<Source: SortedSource>(
    identification singles: inout Source, ranges: [IdentificationRange]
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

  private mutating func keep(blocking released: CanonicalRuns.Released) throws(WriterError) {
    if let single = released.single { try blocking.append(single.numbers.lowerBound, label: 0) }
    if let range = released.range { blockingRanges.append(range.numbers) }
  }

  private mutating func keep(identification released: CanonicalRuns.Released) throws(WriterError) {
    if let single = released.single, let newId = numbered?.newId {
      try numberedEntries?.append(single.numbers.lowerBound, label: newId[Int(single.label)])
    } else if let single = released.single {
      record.removeAll(keepingCapacity: true)
      record.appendUInt64LE(UInt64(single.numbers.lowerBound))
      record.appendUInt32LE(single.label)
      try identifications.append(record)
    }
    if let range = released.range { identificationRanges.append(range) }
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
    try keep(blocking: blockingRuns.finish())
    try keep(identification: identificationRuns.finish())
    let (sortedLabels, newId) = numbered ?? labels.sortedOrder()
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

extension [UInt8] {
  /// The little-endian integer at `offset`.
  /// - Precondition: `offset + MemoryLayout<T>.size <= count`.
  fileprivate func littleEndian<T: FixedWidthInteger & UnsignedInteger>(at offset: Int, as type: T.Type) -> T {
    var value: T = 0
    for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(self[offset + index]) }
    return value
  }
}
