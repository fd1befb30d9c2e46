import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem

/// Reads a changeset (`Spec/CHANGESET.md`): what it applies to, what it produces, and its
/// removals and additions of each kind, streamed in ascending order.
///
/// Opening checks the header, the footer and the framing of every block (O(blocks), no block
/// decoded); streaming checks each block whole, its CRC-32 first, before handing out its runs.
/// Memory while streaming: one block (at most 128 KiB of payload and 4,096 runs).
///
///     let changes = try ChangesetReader(path: "changes.cdchanges")
///     try changes.forEachRemoval(.blocking) { run in print("-", run) }
///     try changes.forEachAddition(.identification) { run, label in print("+", run, label ?? "") }
public final class ChangesetReader: Sendable {
  private let storage: FileStorage
  let header: ChangesetHeader
  let footer: ChangesetFooter
  /// The file offset of each list's first block, in `ChangeList` order.
  private let listStarts: [Int]
  /// NEW's optional sections, which patch appends to the contents it rebuilds.
  let carried: [RawSection]
  /// The signature trailer, when the changeset is signed.
  let signature: SignatureSection?

  /// Opens and maps the changeset at `path`.
  /// - Throws: `ChangesetError` with `.system` when the file cannot be opened or mapped, else
  ///   `.format` naming what is wrong with its header, footer or block framing.
  /// - Complexity: O(blocks).
  public init(path: String) throws(ChangesetError) {
    let storage: FileStorage
    do { storage = try FileStorage(mapping: path) } catch { throw ChangesetError(.system(error)) }
    self.storage = storage
    (header, footer, listStarts, carried, signature) = try Self.open(storage.view)
  }

  /// Opens a copy of `bytes`.
  /// - Throws: `ChangesetError.format` for a malformed header, footer or block framing.
  /// - Complexity: O(bytes) for the copy, O(blocks) for the checks.
  public init(bytes: [UInt8]) throws(ChangesetError) {
    let storage = FileStorage(copying: bytes)
    self.storage = storage
    (header, footer, listStarts, carried, signature) = try Self.open(storage.view)
  }

  /// The 32-byte SHA-256 of the directory (OLD) the changeset applies to.
  public var base: [UInt8] { header.base }

  /// The 32-byte SHA-256 of the directory (NEW) that applying the changeset produces.
  public var result: [UInt8] { header.result }

  /// The length in bytes of the directory the changeset produces.
  public var resultLength: UInt64 { header.resultLength }

  /// The changeset's size in bytes.
  public var size: Int { file.count }

  /// The changeset's bytes, for checking its signature and reading its runs, for as long as the
  /// reader is borrowed.
  var file: ByteView {
    // The reader holds its storage in a `let`, for its whole life.
    @_lifetime(borrow self) get { unsafe storage.view(heldBy: self) }
  }

  /// The number of runs (a single number or a range each) in each list.
  public var counts: (removals: (blocking: Int, identification: Int), additions: (blocking: Int, identification: Int)) {
    // Each list's run count was checked at open against its blocks (at most 4,096 runs each).
    let runs = footer.lists.map { Int($0.runs) }
    return ((runs[0], runs[1]), (runs[2], runs[3]))
  }

  /// Calls `body` with the removals of `kind`: ascending runs, a single number as `n...n`.
  ///
  /// Each block's CRC-32 and encoding are checked before any of its runs is handed out.
  /// - Throws: `StreamError.format` for a damaged block, or `.consumer` with what `body` throws.
  /// - Complexity: O(runs of the list).
  public func forEachRemoval<E: Error>(_ kind: EntryKind, _ body: (ClosedRange<Int64>) throws(E) -> Void) throws(StreamError<E>) {
    var cursor = runs(ChangeList(kind, addition: false))
    while true {
      let run: RunBlockDecoder.Run?
      do throws(FormatError) { run = try cursor.next() } catch { throw .format(error) }
      guard let run else { return }
      do throws(E) { try body(run.numbers) } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with the additions of `kind`: ascending runs, each with its label (`nil` for blocking).
  ///
  /// Each block's CRC-32 and encoding are checked before any of its runs is handed out.
  /// - Throws: `StreamError.format` for a damaged block, or `.consumer` with what `body` throws.
  /// - Complexity: O(runs of the list).
  public func forEachAddition<E: Error>(
    _ kind: EntryKind, _ body: (ClosedRange<Int64>, String?) throws(E) -> Void
  ) throws(StreamError<E>) {
    var cursor = runs(ChangeList(kind, addition: true))
    while true {
      let run: RunBlockDecoder.Run?
      do throws(FormatError) { run = try cursor.next() } catch { throw .format(error) }
      guard let run else { return }
      do throws(E) { try body(run.numbers, run.label) } catch { throw .consumer(error) }
    }
  }

  /// Reads every block of every list as streaming does (CRC, inflate, every run), keeping
  /// nothing: a changeset that passes reads whole, as a signer must know before it signs.
  /// - Throws: `ChangesetError.format` naming the first damaged block.
  /// - Complexity: O(size); memory: one block.
  public func checkBlocks() throws(ChangesetError) {
    for list in ChangeList.allCases {
      var cursor = runs(list)
      do throws(FormatError) { while try cursor.next() != nil {} } catch { throw .format(error) }
    }
  }

  /// A pull cursor over one list, for merging it with a directory's runs.
  @_lifetime(borrow self)
  func runs(_ list: ChangeList) -> ChangeRunCursor {
    ChangeRunCursor(
      file: file, list: list, start: listStarts[Int(list.rawValue)], blocks: Int(footer.lists[Int(list.rawValue)].blocks))
  }

  /// The signature trailer at `at`, the file's last `ChangesetLayout.trailerSize` bytes: its CRC
  /// first, so that a changed key or signature is refused without trusted keys too.
  private static func signatureTrailer(_ file: ByteView, at: Int) throws(FormatError) -> SignatureSection {
    let size = SignatureSection.size
    let section = try file.slice(offset: at, length: size)
    // The footer parse proved the trailer's bytes present: at = count - size - 4.
    let stored = unsafe file.uncheckedUInt32LE(at: at &+ size)
    let computed = CRC32.checksum(section)
    guard stored == computed else {
      throw FormatError(.sectionChecksumMismatch(stored: stored, computed: computed), at: at &+ size, section: "signature")
    }
    return try SignatureSection(parsing: section, at: FilePlace(offset: at, part: "signature"))
  }

  /// Checks the header, the footer and that the blocks tile the space between them, list by
  /// list, with the counts the footer declares.
  private static func open(
    _ file: ByteView
  ) throws(ChangesetError) -> (ChangesetHeader, ChangesetFooter, [Int], [RawSection], SignatureSection?) {
    do throws(FormatError) {
      let header = try ChangesetHeader(parsing: file)
      let trailer = header.flags & ChangesetLayout.signedFlag != 0 ? ChangesetLayout.trailerSize : 0
      let footer = try ChangesetFooter(parsing: file, trailer: trailer)
      // The footer parse proved count >= header + footer + trailer.
      let end = file.count &- ChangesetLayout.footerSize &- trailer
      var signature: SignatureSection?
      if trailer > 0 {
        signature = try Self.signatureTrailer(file, at: file.count &- trailer)
      }
      var offset = ChangesetLayout.headerSize
      var carried: [RawSection] = []
      if header.flags & ChangesetLayout.carriesSectionsFlag != 0 {
        (carried, offset) = try CarriedSections.parse(file, at: offset, end: end)
      }
      var starts: [Int] = []
      for list in ChangeList.allCases {
        starts.append(offset)
        let declared = footer.lists[Int(list.rawValue)]
        var runs: UInt64 = 0
        // Each block takes at least 12 bytes or the walk throws, so a hostile block count ends
        // the loop within the bytes present; nothing is allocated from it.
        var block: UInt32 = 0
        while block < declared.blocks {
          guard let length = file.uint32LE(at: offset), offset <= end &- 4 else {
            throw FormatError(.truncated(needed: 4, available: max(0, end &- offset)), at: offset, section: list.name)
          }
          let size = Int(length)
          let body = offset &+ ChangesetLayout.blockPrefixSize  // offset <= end - 4
          guard size >= 8, size <= end &- body else {
            throw FormatError(
              .malformedBlock(block: Int(block), reason: "block length \(size) does not fit"), at: offset, section: list.name)
          }
          // size >= 8 proves the block header's four bytes are present.
          guard unsafe file.uncheckedByte(at: body &+ 1) == list.rawValue else {
            throw FormatError(
              .malformedBlock(block: Int(block), reason: "block belongs to another list"), at: body &+ 1, section: list.name)
          }
          let count = Int(unsafe file.uncheckedUInt16LE(at: body &+ 2))
          guard count >= 1, count <= ChangesetLayout.maximumRunsPerBlock else {
            throw FormatError(
              .malformedBlock(block: Int(block), reason: "run count \(count) is not 1...4096"), at: body &+ 2, section: list.name)
          }
          runs &+= UInt64(count)  // at most 2^32 blocks of 4,096 runs: far below UInt64.max
          offset = body &+ size  // size <= end - body
          block &+= 1
        }
        guard runs == declared.runs else {
          throw FormatError(.invalidField(field: "\(list.name) run count", value: declared.runs), at: end, section: "footer")
        }
      }
      guard offset == end else {
        throw FormatError(.sectionLayout("\(end &- offset) bytes between the last block and the footer"), at: offset)
      }
      return (header, footer, starts, carried, signature)
    } catch {
      // A directory given where a changeset is expected (patch OLD NEW) is named as such.
      if case .badMagic = error.kind {
        let start = file.sliceOrEmpty(offset: 0, length: 8).bytes
        throw ChangesetError(.notAChangeset(directory: Array(start) == FormatConstants.magic))
      }
      throw .format(error)
    }
  }
}

/// Pulls one list's runs, a block at a time.
struct ChangeRunCursor: ~Escapable {
  private let file: ByteView
  private let list: ChangeList
  private var offset: Int
  private var blocksLeft: Int
  private var blockNumber = 0
  private var runs: [RunBlockDecoder.Run] = []
  private var position = 0
  private var previousLast: UInt64 = 0

  @_lifetime(copy file)
  init(file: ByteView, list: ChangeList, start: Int, blocks: Int) {
    self.file = file
    self.list = list
    offset = start
    blocksLeft = blocks
  }

  /// The next run, or `nil` after the last.
  /// - Throws: `FormatError` for a damaged block.
  mutating func next() throws(FormatError) -> RunBlockDecoder.Run? {
    if position == runs.count {
      guard blocksLeft > 0 else { return nil }
      // The reader proved at open that every block's prefix and length lie inside the file.
      let size = Int(unsafe file.uncheckedUInt32LE(at: offset))
      let body = offset &+ ChangesetLayout.blockPrefixSize
      let place = FilePlace(offset: body, part: list.part)
      let bytes = try file.slice(offset: body, length: size, in: place)
      runs = try RunBlockDecoder.decode(bytes, at: place, list: list, number: blockNumber, previousLast: &previousLast)
      offset = body &+ size
      blocksLeft -= 1
      blockNumber += 1
      position = 0
    }
    defer { position += 1 }
    return runs[position]
  }
}
