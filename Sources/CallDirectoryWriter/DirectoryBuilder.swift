import CallDirectoryFormat
import CallDirectorySystem

/// Collects a directory's entries in any order and writes them as a call directory file.
///
/// The builder validates each entry as it is added, then, when asked for the file, sorts each
/// kind, merges exact duplicates and refuses a number given two different labels. The output
/// depends only on the set of entries and the options: the same entries always give the same
/// bytes.
///
///     var builder = DirectoryBuilder()
///     try builder.block(12025550100)
///     try builder.identify(12025550123, label: "Acme Support")
///     try builder.write(to: "list.calldir")
///
/// Memory: about 8 bytes per blocking entry and 16 per identification entry, plus each distinct
/// label once.
///
/// ## Which writer
///
/// Three writers make the same bytes of the same entries; choose by the order the entries come in
/// and whether they fit in memory:
///
/// | Entries come          | They fit in memory      | Use                        | Memory                          |
/// |-----------------------|-------------------------|----------------------------|---------------------------------|
/// | in any order          | yes                     | `DirectoryBuilder`         | 8 or 16 bytes an entry          |
/// | ascending, each kind  | need not                | `AscendingDirectoryWriter` | one block, the index, the labels|
/// | in any order          | need not                | `SortingDirectoryWriter`   | a set bound; runs spill to disk |
///
/// The builder is the one to start with. It is a plain copyable value, because nothing it holds
/// is shared: a copy is an independent builder, and `encoded()` and `write(to:)` leave it as it
/// was, so the same entries can be written twice. The other two own spool files and are
/// `~Copyable`, finished by a `consuming` call.
///
/// Each writer has one method per kind of entry, for a number or a range: `block`, and
/// `identify` with the label as a `String` or as UTF-8 bytes lent as a `Span<UInt8>` (from an
/// array, `array.span`; from a listing parser's `forEachEntry`, as it lends them). The bytes are
/// a `Span<UInt8>` rather than a `UTF8Span` so that they are validated by the writer, once per
/// distinct label, when it first sees them, and not by every caller for every entry.
public struct DirectoryBuilder: Sendable {
  /// Encoding choices; the defaults suit lists of any size.
  public struct Options: Sendable, Equatable {
    /// Entries per entry block (1 ... 4096): larger blocks make a smaller index and slower lookups.
    public var entriesPerBlock: Int = 512
    /// The payload size a label block is filled to before a new one starts, in bytes
    /// (1 ... 131,072, the format's cap on a label block's payload). Another value than the
    /// default makes a file that reads like any other but is not canonical (`Spec/FORMAT.md`
    /// section 12): a changeset made to it (`Changeset.diff`) cannot be applied.
    public var labelBlockTarget: Int = 4096
    /// Whether blocks may use the deflate codec where it pays: where it saves half of an entry
    /// block or an eighth of a label block. Off, the file is not canonical either, as above.
    public var allowDeflate: Bool = true
    /// Whether a label table of more than one block is prefix-coded (`LPFX`, `Spec/FORMAT.md`
    /// section 9.1, version 2.3): each label stores only what follows the prefix it shares with
    /// the label before it, about a third smaller on a business directory's labels. Off, the
    /// labels are in `LDAT` blocks, which readers of versions 2.0 to 2.2 read too (a reader
    /// before 2.3 refuses a file with `LPFX`, naming the section); such a file is not canonical
    /// either, as above.
    public var prefixCodedLabels: Bool = true
    /// The provider's list version, written in a `VERS` section when set (`Spec/FORMAT.md`,
    /// section 16): consumers refuse a list older than the one they have installed. Give each
    /// published list a higher version than the last, for example its publication time in seconds.
    public var listVersion: UInt64?
    /// What to do with a number given two or more different labels: by default the writer
    /// refuses it (`WriterError.conflictingLabels`).
    public var onLabelConflict: LabelConflictPolicy = .refuse

    /// The default options.
    public init() {}

    /// Checks every option is within its range, as each writer does before it writes.
    /// - Throws: `WriterError.invalidOption` naming the option and its range.
    public func check() throws(WriterError) {
      guard (FormatConstants.minimumEntriesPerBlock...FormatConstants.maximumEntriesPerBlock).contains(entriesPerBlock) else {
        throw .invalidOption(
          "entries per block must be \(FormatConstants.minimumEntriesPerBlock)...\(FormatConstants.maximumEntriesPerBlock)")
      }
      // A block filled to the target then stays within the cap; a label alone in its block,
      // 8 + 65,534 bytes at most, is within it too.
      guard (1...FormatConstants.maximumLabelPayload).contains(labelBlockTarget) else {
        throw .invalidOption("label block target must be 1...\(FormatConstants.maximumLabelPayload) bytes")
      }
    }
  }

  /// The encoding options.
  public var options: Options
  private var blocking: [Int64] = []
  private var identification: [IdentificationEntry] = []
  /// Blocking ranges and exceptions (one number or more), by label.
  private var blockingRanges: [LabelledRange] = []
  private var identificationRanges: [LabelledRange] = []
  private var labels = LabelTable()
  private var order = InputOrder()

  /// An empty builder.
  public init(options: Options = Options()) {
    self.options = options
  }

  /// The entries added so far, duplicates included (ranges not counted).
  public var addedCount: (blocking: Int, identification: Int) { (blocking.count, identification.count) }

  /// Adds a number to block.
  /// - Throws: `WriterError.numberOutOfRange` when `number` is outside `1 ... Int64.max - 1`.
  /// - Complexity: amortised O(1).
  public mutating func block(_ number: Int64) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    blocking.append(number)
  }

  /// Adds a number to identify with `label`.
  /// - Throws: `WriterError` when the number is out of range or the label is empty or too long.
  /// - Complexity: amortised O(label length).
  public mutating func identify(_ number: Int64, label: String) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let id = try labels.id(of: label, for: number)
    identification.append(IdentificationEntry(number: number, label: id, sequence: try order.next(options)))
  }

  /// Adds a number to identify with a label's UTF-8 bytes lent for the call, as a listing
  /// parser's `forEachEntry` lends them: no `String` and no array is made. Each distinct label's
  /// bytes are checked once, when first seen.
  /// - Throws: `WriterError` when the number is out of range, or the label is not valid UTF-8,
  ///   empty or too long.
  /// - Complexity: amortised O(label length).
  public mutating func identify(_ number: Int64, utf8 label: Span<UInt8>) throws(WriterError) {
    guard Limits.isValidNumber(number) else { throw .numberOutOfRange(number) }
    let id = try labels.id(of: label, for: number)
    identification.append(IdentificationEntry(number: number, label: id, sequence: try order.next(options)))
  }

  /// Adds a range of numbers to block, both ends included; a one-number range is a single entry.
  ///
  /// Overlapping and adjacent ranges are merged, and single entries inside a range dropped, when
  /// the file is made; a narrower exception (`allow`) inside a range punches a hole in it.
  /// - Throws: `WriterError.invalidRange` when an end is outside `1 ... Int64.max - 1`.
  public mutating func block(_ range: ClosedRange<Int64>) throws(WriterError) {
    try Self.check(range)
    if range.lowerBound == range.upperBound {
      blocking.append(range.lowerBound)
    } else {
      blockingRanges.append(LabelledRange(range: range, label: BlockingLabel.block))
    }
  }

  /// Adds an exception to the blocking list: the numbers of `range` (one number or more) are not
  /// blocked, except those that a blocking entry or a narrower blocking range names
  /// (`Spec/INPUT.md`, section 3.5). An exception that no blocking range holds changes nothing.
  ///
  /// When the file is made, an exception that is exactly a blocking entry or range, or overlaps a
  /// blocking range with neither inside the other, is refused.
  /// - Throws: `WriterError.invalidRange` when an end is outside `1 ... Int64.max - 1`.
  public mutating func allow(_ range: ClosedRange<Int64>) throws(WriterError) {
    try Self.check(range)
    blockingRanges.append(LabelledRange(range: range, label: BlockingLabel.allow))
  }

  /// Adds a range of numbers, both ends included, to identify with `label`; a one-number range
  /// is a single entry.
  ///
  /// When the file is made, each number answers to its own entry, else to the narrowest range
  /// that holds it; overlapping or adjacent ranges with the same label are merged, and two ranges
  /// with different labels that are the same numbers, or overlap with neither inside the other,
  /// are refused (`Spec/INPUT.md`, section 3.5).
  /// - Throws: `WriterError` when an end is out of range or the label is invalid.
  public mutating func identify(_ range: ClosedRange<Int64>, label: String) throws(WriterError) {
    try Self.check(range)
    if range.lowerBound == range.upperBound { return try identify(range.lowerBound, label: label) }
    identificationRanges.append(LabelledRange(range: range, label: try labels.id(of: label, for: range.lowerBound)))
  }

  /// Adds a range of numbers, both ends included, to identify with a label's UTF-8 bytes lent for
  /// the call; a one-number range is a single entry. Merged and refused as for a `String` label.
  /// - Throws: `WriterError` when an end is out of range or the label is invalid.
  public mutating func identify(_ range: ClosedRange<Int64>, utf8 label: Span<UInt8>) throws(WriterError) {
    try Self.check(range)
    if range.lowerBound == range.upperBound { return try identify(range.lowerBound, utf8: label) }
    identificationRanges.append(LabelledRange(range: range, label: try labels.id(of: label, for: range.lowerBound)))
  }

  private static func check(_ range: ClosedRange<Int64>) throws(WriterError) {
    try AscendingDirectoryWriter.check(range)
  }

  /// The directory file's bytes.
  /// - Throws: `WriterError.conflictingLabels` for a number given two different labels, or
  ///   `.invalidOption` for options out of range.
  /// - Complexity: O(n log n) in the entries added.
  public func encoded() throws(WriterError) -> [UInt8] {
    var output: [UInt8] = []
    try encode { (piece) throws(WriterError) in output.append(contentsOf: piece) }
    return output
  }

  /// Writes the directory to `path` atomically: to a temporary file beside it, flushed, then
  /// renamed over `path`. On any failure `path` is left as it was and the temporary file removed.
  /// - Throws: `WriterError`, with `.system` for file errors.
  public func write(to path: String) throws(WriterError) {
    try writeAtomically(to: path) { (sink) throws(WriterError) in try encode(sink) }
  }

  /// Sorts the entries and streams them through a `AscendingDirectoryWriter`, which merges and
  /// checks them and hands the file to `sink` in pieces.
  func encode(_ sink: ([UInt8]) throws(WriterError) -> Void) throws(WriterError) {
    var writer = try AscendingDirectoryWriter(options: options, labels: labels)
    var sorted = blocking
    RadixSort.sort(&sorted)
    var numbers = ArraySource(sorted)
    try writer.add(blocking: &numbers, ranges: Self.sorted(blockingRanges))
    // A listing sorted by number comes in order: checked in one pass, not copied and sorted.
    var entries = ArraySource(RadixSort.isAscending(identification) ? identification : identification.sorted())
    try writer.add(identification: &entries, ranges: Self.sorted(identificationRanges))
    try writer.finish(into: sink)
  }

  /// Ranges in the order the stream writer takes them; equal ranges next to each other.
  static func sorted(_ ranges: [LabelledRange]) -> [LabelledRange] {
    ranges.sorted { ($0.range.lowerBound, $0.range.upperBound, $0.label) < ($1.range.lowerBound, $1.range.upperBound, $1.label) }
  }
}

/// One identification entry: a number and the id of its label.
struct IdentificationEntry: Sendable {
  var number: Int64
  var label: UInt32
  /// The entry's place in the order the entries were given, which `.keepFirst` and `.keepLast`
  /// judge conflicting labels by; 0 for every entry under the other policies, so that entries
  /// sort by number and label as they always have. It fits in the padding after `label`: an
  /// entry takes 16 bytes in memory either way.
  var sequence: UInt32 = 0
}

/// One identification range: its numbers and the id of its label.
struct LabelledRange: Sendable, Equatable {
  var range: ClosedRange<Int64>
  var label: UInt32
}

/// The order in which identification entries were given, counted only where the label conflict
/// policy needs it (`LabelConflictPolicy.needsInputOrder`).
struct InputOrder: Sendable {
  private var count: UInt32 = 0

  /// The next entry's place, or 0 when `options` do not need it.
  /// - Throws: `WriterError.invalidOption` past 4,294,967,295 entries, the most whose order
  ///   the writers keep.
  mutating func next(_ options: DirectoryBuilder.Options) throws(WriterError) -> UInt32 {
    guard options.onLabelConflict.needsInputOrder else { return 0 }
    guard count < .max else {
      throw .invalidOption("keeping the first or last label needs at most \(UInt32.max) identified numbers")
    }
    count += 1
    return count
  }
}
