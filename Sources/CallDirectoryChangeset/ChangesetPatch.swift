import CallDirectoryFormat
import CallDirectoryReader
import CallDirectoryWriter

/// Applies a changeset (`Spec/CHANGESET.md`, section 9): OLD's runs, less the removals (each
/// must be one of OLD's runs exactly), plus the additions, re-encoded canonically.
enum ChangesetPatch {
  static func apply(old: CallDirectoryReader, changes: ChangesetReader) throws(ChangesetError) -> [UInt8] {
    let actual = old.contentHash
    guard actual == changes.base, UInt64(old.fileSize) == changes.header.baseLength else {
      throw ChangesetError(.baseMismatch(expected: changes.base, actual: actual))
    }
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = Int(changes.header.entriesPerBlock)
    for kind in [EntryKind.blocking, .identification] {
      try keep(old: old, kind: kind, changes: changes, into: &builder)
      try add(kind: kind, changes: changes, into: &builder)
    }
    let bytes: [UInt8]
    do { bytes = try builder.encoded() } catch { throw ChangesetError(.writer(error)) }
    let result = SHA256Digest.hash(bytes)
    guard result == changes.result, UInt64(bytes.count) == changes.header.resultLength else {
      throw ChangesetError(.resultMismatch(expected: changes.result, actual: result))
    }
    return bytes
  }

  /// Adds OLD's runs of `kind` to `builder`, skipping the removals.
  private static func keep(
    old: CallDirectoryReader, kind: EntryKind, changes: ChangesetReader, into builder: inout DirectoryBuilder
  ) throws(ChangesetError) {
    let list = ChangeList(kind, addition: false)
    var removals = changes.runs(list)
    func pull() throws(ChangesetError) -> ClosedRange<Int64>? {
      do throws(FormatError) { return try removals.next()?.numbers } catch { throw .format(error) }
    }
    var cursor = old.runCursor(kind)
    var pending = try pull()
    while true {
      let run: RunCursor.Run?
      do throws(FormatError) { run = try cursor.next() } catch { throw .format(error) }
      guard let run else { break }
      if let removal = pending, removal.lowerBound <= run.numbers.upperBound {
        // Both are ascending and OLD's runs disjoint: the removal is this run, or none of OLD's.
        guard removal == run.numbers else { throw ChangesetError(.removalNotInBase(removal, list: list.name)) }
        pending = try pull()
        continue
      }
      try add(run.numbers, label: run.label, to: &builder)
    }
    if let removal = pending { throw ChangesetError(.removalNotInBase(removal, list: list.name)) }
  }

  /// Adds the changeset's additions of `kind` to `builder`.
  private static func add(kind: EntryKind, changes: ChangesetReader, into builder: inout DirectoryBuilder) throws(ChangesetError) {
    var additions = changes.runs(ChangeList(kind, addition: true))
    while true {
      let run: RunBlockDecoder.Run?
      do throws(FormatError) { run = try additions.next() } catch { throw .format(error) }
      guard let run else { return }
      try add(run.numbers, label: kind == .identification ? run.label ?? "" : nil, to: &builder)
    }
  }

  private static func add(_ numbers: ClosedRange<Int64>, label: String?, to builder: inout DirectoryBuilder) throws(ChangesetError) {
    do throws(WriterError) {
      if let label { try builder.identify(numbers, label: label) } else { try builder.block(numbers) }
    } catch { throw ChangesetError(.writer(error)) }
  }
}
