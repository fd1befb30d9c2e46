import CallDirectoryFormat
import CallDirectorySystem

/// A call directory file opened for reading, memory-mapped.
///
/// Opening reads the header, the section table and the index headers: O(1) work whatever the
/// number of entries, with nothing decompressed. Every later read is checked against the mapping,
/// so no file, however damaged, makes the reader trap or read outside it, and no answer comes
/// from a byte whose checksum has not been checked: each part a lookup or a stream reads (an
/// index, a range table, an entry block, a label block) is checked before its first use and
/// remembered as checked (`Spec/FORMAT.md` section 14). Damage shows as a thrown `FormatError`.
///
/// A reader is immutable and `Sendable`: share one between threads.
///
///     let directory = try CallDirectoryReader(path: "list.calldir")
///     try directory.forEachBlocking { number in print(number) }
public final class CallDirectoryReader: Sendable {
  /// Where everything is in the file, without its bytes: what `layout` lays over them.
  @usableFromInline package let shape: DirectoryLayout.Shape
  /// The path the file was opened from, or `nil` for in-memory bytes.
  public let path: String?
  /// The bytes, mapped or copied; the reader holds them for its whole life.
  @usableFromInline let storage: FileStorage
  /// Decoded label blocks, shared by lookups and streams.
  @usableFromInline let labelCache: LabelCache
  /// What has been checked of the file, so that each part is checked once before its first use.
  @usableFromInline package let checks: ReadChecks
  /// What a warm lookup reads, as addresses in `storage` and `checks`.
  @usableFromInline package let lookupPlans: LookupPlans

  /// Opens and maps the file at `path`.
  /// - Throws: `OpenError`: `.system` when the file cannot be opened or mapped, `.format` for
  ///   what is wrong with its header, section table or indexes.
  /// - Complexity: O(1) in the number of entries.
  public convenience init(path: String) throws(OpenError) {
    let storage: FileStorage
    do { storage = try FileStorage(mapping: path) } catch { throw .system(error) }
    do { try self.init(storage: storage, path: path) } catch { throw .format(error) }
  }

  /// Reads a file already mapped (a reloader maps first, to learn which file it opened even
  /// when the file then fails to parse).
  /// - Throws: `FormatError` for a malformed header, section table or index.
  package init(storage: FileStorage, path: String?) throws(FormatError) {
    self.storage = storage
    shape = try Self.open(storage.view)
    checks = ReadChecks(shape: shape)
    labelCache = LabelCache(storage: storage, shape: shape, checks: checks)
    lookupPlans = LookupPlans(storage: storage, shape: shape, checks: checks)
    self.path = path
  }

  /// Opens a copy of `bytes` (a file read from standard input or the network).
  /// - Throws: `FormatError` for a malformed header, section table or index.
  public init(bytes: [UInt8]) throws(FormatError) {
    let storage = FileStorage(copying: bytes)
    self.storage = storage
    shape = try Self.open(storage.view)
    checks = ReadChecks(shape: shape)
    labelCache = LabelCache(storage: storage, shape: shape, checks: checks)
    lookupPlans = LookupPlans(storage: storage, shape: shape, checks: checks)
    path = nil
  }

  /// Parses the header, the section table and the index headers, and checks the CRC of every
  /// small section open reads whole (the index headers' copies, the list version and the
  /// signature, at most 160 bytes), so that the list version and the signer never come from
  /// unchecked bytes. The counts of an index header that lies in its index are checked with
  /// that index, on first use (`ReadChecks`).
  private static func open(_ file: ByteView) throws(FormatError) -> DirectoryLayout.Shape {
    let layout = try DirectoryLayout(parsing: file)
    for type in [SectionType.indexHeaders, .listVersion, .signature] { try layout.checkChecksum(of: type) }
    return layout.shape
  }

  /// All of the file's bytes, for as long as the reader is borrowed.
  @inlinable @inline(__always) package var file: ByteView {
    @_lifetime(borrow self) get {
      // The reader holds its storage in a `let`, for its whole life.
      unsafe storage.view(heldBy: self)
    }
  }

  /// Where everything is in the file, over its bytes, for as long as the reader is borrowed.
  /// - Complexity: O(1).
  @inlinable package var layout: DirectoryLayout {
    @_lifetime(borrow self) get { DirectoryLayout(shape, file: file) }
  }

  /// Calls `body` with every byte the reader reads, as a view that lives for the call.
  /// Package-only, for the verifier, which reads them in order: the kernel reads ahead meanwhile,
  /// and lookups' random access is restored after.
  package func withBytes<Result>(_ body: (ByteView) -> Result) -> Result {
    streaming { body(file) }
  }

  /// Runs `body`, a stream over the file, with the mapping read ahead; random access after.
  // Inlinable, as the streams that call it are: an opaque call here kept a stream's loop from
  // inlining into its consumer, so each label a `String` stream lent was retained and released
  // around the consumer's call (forEachIdentification at a third of its rate).
  @inlinable @inline(__always) package func streaming<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    adviseStreaming(true)
    defer { adviseStreaming(false) }
    return try body()
  }

  /// Tells the kernel the mapping is read in order (`true`), or at random again (`false`).
  @usableFromInline func adviseStreaming(_ inOrder: Bool) {
    storage.advise(inOrder ? .sequential : .random)
  }

  /// The identity (device and inode) of the file that was mapped, to notice when the path is replaced.
  public var fileIdentity: FileIdentity? { storage.identity }

  /// The stamp (identity, size and times) of the file the reader was opened from, when it was
  /// opened; `nil` for bytes from memory.
  package var fileStamp: FileStamp? { storage.stamp }

  /// Whether the reader's bytes are those of `storage`.
  /// - Complexity: O(file size).
  package func hasSameBytes(as storage: FileStorage) -> Bool { self.storage.hasSameBytes(as: storage) }

  /// The file's format version.
  public var version: (major: UInt16, minor: UInt16) { (shape.header.major, shape.header.minor) }

  /// The number of blocking entries.
  public var blockingCount: Int { shape.blockingIndex.entryCount }

  /// The number of identification entries.
  public var identificationCount: Int { shape.identificationIndex.entryCount }

  /// The number of distinct labels.
  public var labelCount: Int { shape.labelIndex.labelCount }

  /// The file's size in bytes.
  public var fileSize: Int { shape.fileLength }

  /// The text of label `id`, or `nil` when there is no such label.
  ///
  /// The label's block is checked in full (checksum, offsets, lengths, UTF-8) the first time it is
  /// read, then kept in the reader's label cache.
  /// - Throws: `FormatError` when the label's block is damaged.
  /// - Complexity: O(log label blocks), plus decoding one label block when it is not cached.
  public func label(id: Int) throws(FormatError) -> String? {
    guard id >= 0 && id < labelCount else { return nil }
    return try labelCache.label(id)
  }
}
