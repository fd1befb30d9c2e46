import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem

/// Checks a whole call directory file: everything the reader trusts, plus a full decode.
///
/// The reader checks only what it touches, so a file it opens may still hold a damaged block it
/// has not read yet. The verifier reads every byte: the header and section table, every
/// section's checksum, every index record, every entry block and every label block. A file it
/// passes streams and answers lookups without a single error. It reports every problem it finds
/// with its place, not only the first, and carries on past each one wherever the structure
/// still allows it. No input makes it trap, hang or allocate more than one block's payload plus
/// the problem list.
///
///     let report = try Verifier.verify(path: "list.calldir")
///     guard report.isValid else {
///       for problem in report.problems { print(problem) }
///       return
///     }
public enum Verifier {
  /// Verifies the file held in `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: the whole file.
  ///   - options: the checks and the problem cap.
  /// - Returns: every problem found, up to the cap, and the counts the file declares.
  /// - Complexity: O(file size); memory O(one block) plus the problem list.
  public static func verify(_ bytes: [UInt8], options: VerificationOptions = VerificationOptions()) -> VerificationReport {
    unsafe bytes.withUnsafeBytes { unsafe verify(ByteView($0), options: options) }
  }

  /// Verifies the file at `path`, memory-mapped: the file is read once, never copied.
  ///
  /// - Parameters:
  ///   - path: the file to verify.
  ///   - options: the checks and the problem cap.
  ///   - progress: called after each entry block with the entries it held, for a progress display.
  /// - Returns: every problem found, up to the cap.
  /// - Throws: `SystemError` when the file cannot be opened or mapped: nothing was verified.
  /// - Complexity: O(file size); memory O(one block) plus the problem list.
  public static func verify(
    path: String, options: VerificationOptions = VerificationOptions(), progress: ((Int) -> Void)? = nil
  ) throws(SystemError) -> VerificationReport {
    try CallDirectoryReader.withMappedBytes(path: path) { verify($0, options: options, progress: progress) }
  }

  /// Verifies the bytes `reader` reads: the very file it answers from, so nothing can replace it
  /// between the check and the use, as a rename between verifying a path and opening it could.
  /// When the file is valid the reader remembers it, and its lookups skip their first-use checks.
  ///
  ///     let reader = try CallDirectoryReader(path: path, trust: policy)
  ///     let report = Verifier.verify(reader)
  ///     guard report.isValid else { return print("not feeding a damaged list: \(report.problems[0])") }
  ///     var load = try store.beginLoad()
  ///     try DirectoryFeed(reader).feedWhole(into: &load)
  ///
  /// - Parameters:
  ///   - reader: the open directory.
  ///   - options: the checks and the problem cap.
  ///   - progress: called after each entry block with the entries it held, for a progress display.
  /// - Returns: every problem found, up to the cap, and the counts the file declares.
  /// - Complexity: O(file size); memory O(one block) plus the problem list.
  public static func verify(
    _ reader: CallDirectoryReader, options: VerificationOptions = VerificationOptions(), progress: ((Int) -> Void)? = nil
  ) -> VerificationReport {
    let report = reader.withBytes { verify($0, options: options, progress: progress) }
    // Every byte passed its check: the reader's lookups need check nothing more.
    if report.isValid { reader.passedVerification() }
    return report
  }

  /// Verifies the file in `file`, which the caller keeps alive until this returns.
  ///
  /// - Parameters:
  ///   - file: the whole file.
  ///   - options: the checks and the problem cap.
  ///   - progress: called after each entry block with the entries it held, for a progress display.
  /// - Returns: every problem found, up to the cap, and the counts the file declares.
  /// - Complexity: O(file size); memory O(one block) plus the problem list.
  package static func verify(
    _ file: ByteView, options: VerificationOptions = VerificationOptions(), progress: ((Int) -> Void)? = nil
  ) -> VerificationReport {
    var problems = ProblemList(limit: options.maximumProblems)
    // Without a header and section table nothing else can be located: that is the one problem.
    let header: FileHeader
    do { header = try FileHeader(parsing: file) } catch {
      problems.record(error)
      return VerificationReport(problems: problems, layout: nil)
    }
    // Checked before the indexes are parsed, so a damaged index header still names its section.
    // The data sections' checksums follow from their blocks' once those are checked (below).
    checkSectionChecksums(header, in: file, into: &problems) { !VerificationPass.isDataSection($0) }
    let layout: DirectoryLayout
    do { layout = try DirectoryLayout(parsing: file) } catch {
      problems.record(error)
      // No blocks can be located: the data sections' checksums come from their bytes.
      checkSectionChecksums(header, in: file, into: &problems, where: VerificationPass.isDataSection)
      return VerificationReport(problems: problems, layout: nil)
    }
    var pass = VerificationPass(layout: layout, problems: problems, progress: progress)
    // Whole-file limits come before the block checks, so a capped list still names them.
    if options.callKit { pass.checkCallKitLimits() }
    pass.checkRanges(.blocking)
    pass.checkRanges(.identification)
    pass.checkTop(.blocking)
    pass.checkTop(.identification)
    pass.checkPageLayout()
    if options.concurrent {
      // The labels and the entries share nothing but the layout: the label pass keeps its own
      // problems, added after the entries' as the serial order has them.
      let limit = options.maximumProblems
      let (_, labels) = Parallel.both(
        {
          pass.checkEntries(.blocking)
          pass.checkEntries(.identification)
        },
        { () -> (ProblemList, Bool) in
          var labels = VerificationPass(layout: layout, problems: ProblemList(limit: limit), progress: nil)
          labels.checkLabels()
          return (labels.problems, labels.checksummedBlocks.contains(layout.labelCoding.section))
        })
      pass.problems.append(labels.0)
      if labels.1 { pass.checksummedBlocks.insert(layout.labelCoding.section) }
    } else {
      pass.checkEntries(.blocking)
      pass.checkEntries(.identification)
      pass.checkLabels()
    }
    pass.checkDataChecksums()
    let found = pass.problems
    var report = VerificationReport(problems: found, layout: layout.shape)
    do { report.signer = try layout.check(options.trust) } catch { report.authenticityFailure = error }
    return report
  }

  /// Compares the CRC-32 of every section that `selected` picks, known type or not, with the
  /// section table.
  private static func checkSectionChecksums(
    _ header: FileHeader, in file: ByteView, into problems: inout ProblemList, where selected: (SectionEntry) -> Bool
  ) {
    for entry in header.sections where !problems.isOverflowing && selected(entry) {
      checkChecksum(of: entry, in: file, into: &problems)
    }
  }

  /// Compares the CRC-32 of the section `entry` locates, `known` or else summed from its bytes,
  /// with the one the table stores.
  static func checkChecksum(of entry: SectionEntry, known: UInt32? = nil, in file: ByteView, into problems: inout ProblemList) {
    // The header parser proved that every section lies inside the file.
    let computed: UInt32
    if let known {
      computed = known
    } else {
      guard let bytes = file.subview(offset: Int(entry.offset), length: Int(entry.length)) else { return }
      computed = CRC32.checksum(bytes)
    }
    if computed != entry.checksum {
      problems.record(
        FormatError(
          .sectionChecksumMismatch(stored: entry.checksum, computed: computed), at: Int(entry.offset), section: entry.typeName))
    }
  }
}

/// The checks that need located sections, with the problems found so far.
struct VerificationPass: ~Escapable {
  let layout: DirectoryLayout
  var problems: ProblemList
  /// Told the entries of each block checked.
  var progress: ((Int) -> Void)?
  /// The data sections whose every block decoded, so passed its checksum.
  var checksummedBlocks: Set<SectionType> = []

  /// A pass over `layout`'s file, starting from `problems`.
  @_lifetime(copy layout)
  init(layout: DirectoryLayout, problems: ProblemList, progress: ((Int) -> Void)?) {
    self.layout = layout
    self.problems = problems
    self.progress = progress
  }

  /// The sections of blocks, whose checksums `checkDataChecksums` compares.
  static let dataSections: [SectionType] = [.blockingData, .identificationData, .labelData, .labelPrefixData]

  /// Whether `entry` is one of `dataSections`.
  static func isDataSection(_ entry: SectionEntry) -> Bool { dataSections.contains { $0.code == entry.type } }

  /// Compares each data section's CRC-32 with the table. Where every block passed its own check
  /// and the blocks tile the section, the section's checksum follows from theirs without reading
  /// a byte again: every valid block sums, trailer included, to `CRC32.residue`. Elsewhere (a
  /// damaged section) it is computed from the bytes.
  /// - Complexity: O(blocks) for a valid section, O(section length) for another.
  mutating func checkDataChecksums() {
    for type in Self.dataSections where !problems.isOverflowing {
      guard let entry = layout.header.section(type) else { continue }
      let entries = layout.index(type == .blockingData ? .blocking : .identification)
      let labels = type == layout.labelCoding.section
      let blockCount = labels ? layout.labelIndex.blockCount : entries.blockCount
      func range(_ block: Int) -> Range<Int>? {
        labels ? try? layout.labelIndex.blockRange(block) : try? entries.blockRange(block)
      }
      var derived: UInt32? = nil
      if checksummedBlocks.contains(type) {
        var crc: UInt32 = 0
        var end = 0
        for block in 0..<blockCount {
          guard let range = range(block), range.lowerBound == end else { break }
          crc = CRC32.combine(crc, CRC32.residue, secondLength: range.count)
          end = range.upperBound
        }
        if end == Int(entry.length) { derived = crc }
      }
      Verifier.checkChecksum(of: entry, known: derived, in: layout.file, into: &problems)
    }
  }

  /// Flags a file CallKit would refuse to load whole.
  mutating func checkCallKitLimits() {
    // Each count is bounded by its index section's size, so the sum cannot overflow. CallKit
    // takes single numbers only, so a range counts as every number in it (saturating: a damaged
    // range may claim anything).
    // Every range is counted, so that the report gives the file's total, not where the sum passed
    // the limit; the sum saturates at Int.max, which the ranges of a valid file cannot reach
    // (at most Int64.max - 1 numbers).
    var total = layout.blockingIndex.entryCount &+ layout.identificationIndex.entryCount
    for kind in EntryKind.allCases {
      let table = layout.ranges(kind)
      for index in 0..<table.count {
        let (first, last) = (table.first(index), table.last(index))
        let numbers = last >= first ? Int(min(last - first, UInt64(Int.max - 1))) &+ 1 : 0
        total = numbers > Int.max &- total ? Int.max : total &+ numbers
      }
    }
    if total > Limits.callKitMaximumEntriesPerLoad {
      problems.record(
        FormatError(unplaced: .maximumEntriesExceeded(count: total, limit: Limits.callKitMaximumEntriesPerLoad)),
        callKitLimit: true)
    }
  }

  /// Reports a data section that holds bytes although its index lists no blocks: nothing would
  /// ever read or check them.
  mutating func checkUnindexedData(_ type: SectionType, blockCount: Int) {
    let section = layout.section(type)
    if blockCount == 0 && section.length > 0 {
      problems.record(
        FormatError(
          .malformedIndex("the index lists no blocks, but the data section holds \(section.length) bytes"),
          at: Int(section.offset), section: type.rawValue))
    }
  }

  /// Records a problem when the file's version is below 2.`minor`, which introduced `what`.
  /// Version 1 never has a section of version 2 (section 17), so its fault is the major version;
  /// a version 2 file's is the minor version (section 11).
  mutating func checkVersion(atLeast minor: UInt16, for what: String) {
    let header = layout.header
    guard (header.major, header.minor) < (2, minor) else { return }
    let (field, value, at) = header.major < 2 ? ("major", header.major, 8) : ("minor", header.minor, 10)
    problems.record(
      FormatError(
        .invalidField(field: "\(field) version of a file with \(what) (2.\(minor) or later)", value: UInt64(value)), at: at))
  }
}

extension VerificationReport {
  init(problems: ProblemList, layout: DirectoryLayout.Shape?) {
    self.init(
      problems: problems.problems, truncatedProblemList: problems.isOverflowing,
      blockingCount: layout?.blockingIndex.entryCount ?? 0,
      identificationCount: layout?.identificationIndex.entryCount ?? 0,
      labelCount: layout?.labelIndex.labelCount ?? 0,
      blockingRangeCount: layout?.blockingRanges.count ?? 0,
      identificationRangeCount: layout?.identificationRanges.count ?? 0, listVersion: layout?.listVersion ?? 0)
  }
}
