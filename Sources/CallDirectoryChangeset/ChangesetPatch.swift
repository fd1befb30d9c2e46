import CallDirectoryCrypto
import CallDirectoryFormat
import CallDirectoryReader
import CallDirectoryWriter

/// Applies a changeset (`Spec/CHANGESET.md`, section 9): OLD's runs, less the removals (each
/// must be one of OLD's runs exactly), merged in ascending order with the additions, streamed
/// through the canonical writer and hashed as they go out.
///
/// Memory: one block of OLD, one changeset block, and what `AscendingDirectoryWriter` keeps (NEW's
/// distinct labels, ranges and index); with a temporary directory, no more.
enum ChangesetPatch {
  /// Streams NEW to `sink`, then checks its hash and length against the changeset's result.
  ///
  /// The check comes after the last byte: a sink that publishes must do so only when this
  /// returns, as `AtomicFile` does.
  static func apply(
    old: CallDirectoryReader, changes: ChangesetReader, trust: TrustPolicy = TrustPolicy(), temporaryDirectory: String?,
    progress: ((Int) -> Void)? = nil, into sink: ([UInt8]) throws(ChangesetError) -> Void
  ) throws(ChangesetError) {
    try changes.check(trust)
    let actual = old.contentHash
    guard actual == changes.base, UInt64(old.fileSize) == changes.header.baseLength else {
      throw ChangesetError(.baseMismatch(expected: changes.base, actual: actual))
    }
    // A consumer that checks signatures must not be handed a result its own check refuses.
    var resultSignature = try changes.resultMustBeSigned(under: trust, baseSigned: old.signer != nil) ? StreamedSignature() : nil
    var writer = try writer(entriesPerBlock: Int(changes.header.entriesPerBlock), temporaryDirectory: temporaryDirectory)
    for kind in [EntryKind.blocking, .identification] {
      try merge(old: old, kind: kind, changes: changes, into: &writer, progress: progress)
    }
    let (result, length) = try finish(writer, appending: changes.carried) { (piece) throws(ChangesetError) in
      resultSignature?.update(piece)
      try sink(piece)
    }
    guard result == changes.result, length == changes.header.resultLength else {
      throw ChangesetError(.resultMismatch(expected: changes.result, actual: result))
    }
    if let resultSignature { _ = try resultSignature.check(trust) }
  }

  /// Ends `writer`'s file with the `carried` sections, streaming it to `sink`.
  /// - Returns: the file's SHA-256 and length.
  static func finish(
    _ writer: consuming AscendingDirectoryWriter, appending carried: [RawSection],
    into sink: ([UInt8]) throws(ChangesetError) -> Void
  ) throws(ChangesetError) -> (hash: [UInt8], length: UInt64) {
    var hasher = SHA256Hasher()
    var length: UInt64 = 0
    // The writer's sink throws writer errors: a failure of `sink` is kept here and rethrown as it was.
    var sinkFailure: ChangesetError?
    do {
      try writer.finish(appending: carried) { (piece) throws(WriterError) in
        hasher.update(piece)
        length += UInt64(piece.count)
        do throws(ChangesetError) { try sink(piece) } catch {
          sinkFailure = error
          throw .invalidOption("output failed")
        }
      }
    } catch {
      throw sinkFailure ?? ChangesetError(.writer(error))
    }
    return (hasher.finish(), length)
  }

  /// A writer of NEW as patch makes it: the canonical writer, with the changeset's block size.
  static func writer(entriesPerBlock: Int, temporaryDirectory: String?) throws(ChangesetError) -> AscendingDirectoryWriter {
    var options = DirectoryBuilder.Options()
    options.entriesPerBlock = entriesPerBlock
    do { return try AscendingDirectoryWriter(options: options, temporaryDirectory: temporaryDirectory) } catch {
      throw ChangesetError(.writer(error))
    }
  }

  /// OLD's runs of `kind` without the removals, merged with the additions, into `writer`.
  private static func merge(
    old: CallDirectoryReader, kind: EntryKind, changes: ChangesetReader, into writer: inout AscendingDirectoryWriter,
    progress: ((Int) -> Void)?
  ) throws(ChangesetError) {
    let list = ChangeList(kind, addition: false)
    var removals = changes.runs(list)
    var additions = changes.runs(ChangeList(kind, addition: true))
    var cursor = old.runCursor(kind)
    func decoded<T>(_ next: () throws(FormatError) -> T?) throws(ChangesetError) -> T? {
      do throws(FormatError) { return try next() } catch { throw .format(error) }
    }
    var removal = try decoded { () throws(FormatError) in try removals.next()?.numbers }
    var addition = try decoded { () throws(FormatError) in try additions.next() }
    var kept = try decoded { () throws(FormatError) in try cursor.next() }
    while kept != nil || addition != nil {
      if let run = kept, addition.map({ run.numbers.lowerBound <= $0.numbers.lowerBound }) ?? true {
        kept = try decoded { () throws(FormatError) in try cursor.next() }
        if let pending = removal, pending.lowerBound <= run.numbers.upperBound {
          // Both are ascending and OLD's runs disjoint: the removal is this run, or none of OLD's.
          guard pending == run.numbers else { throw ChangesetError(.removalNotInBase(pending, list: list.name)) }
          removal = try decoded { () throws(FormatError) in try removals.next()?.numbers }
          continue
        }
        try add(run.numbers, label: run.label, to: &writer)
        progress?(run.numbers.count)
      } else if let run = addition {
        addition = try decoded { () throws(FormatError) in try additions.next() }
        try add(run.numbers, label: kind == .identification ? run.label ?? "" : nil, to: &writer)
        progress?(run.numbers.count)
      }
    }
    if let pending = removal { throw ChangesetError(.removalNotInBase(pending, list: list.name)) }
  }

  static func add(
    _ numbers: ClosedRange<Int64>, label: String?, to writer: inout AscendingDirectoryWriter
  ) throws(ChangesetError) {
    do throws(WriterError) {
      if let label { try writer.identify(numbers, label: label) } else { try writer.block(numbers) }
    } catch { throw ChangesetError(.writer(error)) }
  }
}
