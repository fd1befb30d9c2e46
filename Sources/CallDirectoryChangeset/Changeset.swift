import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem

/// Changesets between two versions of a directory (`Spec/CHANGESET.md`): `diff` writes the
/// removals and additions that turn OLD into NEW; `patch` applies them to OLD and gives NEW, byte
/// for byte.
///
///     let old = try CallDirectoryReader(path: "v1.calldir")
///     let new = try CallDirectoryReader(path: "v2.calldir")
///     try Changeset.diff(old: old, new: new, to: "v1-v2.cdchanges")
///
///     let changes = try ChangesetReader(path: "v1-v2.cdchanges")
///     try Changeset.patch(old: old, changes: changes, to: "v2.calldir")
///
/// Runs are compared as the directories store them: a range that changed in any way is removed
/// whole and the new range added whole, and a label change is a removal plus an addition.
///
/// Patch rebuilds NEW with the canonical writer (`Spec/FORMAT.md` section 12), so NEW must be
/// canonical: written by `calldir pack` or a writer of this package with default options but for
/// `entriesPerBlock`. `diff` refuses any other NEW before it writes anything: a version 1 file,
/// sections it cannot carry, and a file written with other options (another `labelBlockTarget`,
/// `allowDeflate` off), whose entries it encodes again to compare (`.resultNotCanonical`).
public enum Changeset {
  /// Compares OLD and NEW and writes the changeset to `path` atomically (temporary file, `fsync`,
  /// rename); on failure `path` is left as it was.
  ///
  /// Both directories are streamed in ascending order, once per list; memory is one block of each
  /// plus one changeset block, and, while NEW is first encoded again to check that patch rebuilds
  /// it, what patch's writer keeps (NEW's distinct labels, ranges and index), its encoded
  /// sections spooled to unlinked files in `$TMPDIR` (else `/tmp`).
  /// - Parameter progress: called with the entries of each run compared, OLD's and NEW's, each once.
  /// - Throws: `ChangesetError` with `.format` for a damaged directory, `.resultNotCanonical` for
  ///   a NEW patch would not rebuild, `.sectionsNotCarried`, `.system` for file errors.
  /// - Complexity: O(runs of OLD + runs of NEW) plus encoding NEW once and hashing both files.
  public static func diff(
    old: CallDirectoryReader, new: CallDirectoryReader, to path: String, progress: ((Int) -> Void)? = nil
  ) throws(ChangesetError) {
    do throws(AtomicWriteError<ChangesetError>) {
      try AtomicFile.write(to: path) { (sink) throws(ChangesetError) in
        try ChangesetDiff.write(old: old, new: new, progress: progress) { (bytes) throws(ChangesetError) in
          do throws(SystemError) { try sink(bytes) } catch { throw ChangesetError(.system(error)) }
        }
      }
    } catch {
      switch error {
      case .system(let failure): throw ChangesetError(.system(failure))
      case .producer(let failure): throw failure
      }
    }
  }

  /// The changeset that turns OLD into NEW, in memory.
  /// - Throws: `ChangesetError` as the other `diff`, but for file errors.
  /// - Complexity: O(runs of OLD + runs of NEW) plus encoding NEW once and hashing both files.
  public static func diff(old: CallDirectoryReader, new: CallDirectoryReader) throws(ChangesetError) -> [UInt8] {
    var output: [UInt8] = []
    try ChangesetDiff.write(old: old, new: new) { (bytes) throws(ChangesetError) in output.append(contentsOf: bytes) }
    return output
  }

  /// Applies `changes` to OLD and writes the result to `path` atomically.
  ///
  /// Refuses, writing nothing, when OLD's SHA-256 is not the changeset's base, when a removal is
  /// not a run of OLD, or when the result's SHA-256 and length are not the changeset's result (the
  /// hash is checked before the file is renamed into place). OLD and the changeset are streamed
  /// and NEW is written as it is made, through spools in `path`'s directory: memory holds one block
  /// of each input, NEW's index (16 bytes per block), its distinct labels and its ranges, and does
  /// not grow with the number of entries.
  /// - Parameters:
  ///   - trust: what the changeset must satisfy first (`ChangesetReader.check(_:)`): with trusted
  ///     keys, a signature by one of them; with an installed version, a result no older. With
  ///     trusted keys, when OLD is signed or NEW's signature is carried, the result must be signed
  ///     by one of them and verify, as the consumer's own check of a directory asks; it is
  ///     checked as it is written, before it is published (`Spec/CHANGESET.md`, section 4.2).
  ///   - progress: called with the number of entries each run adds to NEW or keeps.
  /// - Throws: `ChangesetError`: `.notAuthentic`, `.baseMismatch`, `.removalNotInBase`,
  ///   `.resultMismatch`, `.resultNotAuthentic`, `.format` for damaged input, `.writer`, `.system`.
  public static func patch(
    old: CallDirectoryReader, changes: ChangesetReader, to path: String, trust: TrustPolicy = TrustPolicy(),
    progress: ((Int) -> Void)? = nil
  ) throws(ChangesetError) {
    do throws(AtomicWriteError<ChangesetError>) {
      try AtomicFile.write(to: path) { (sink) throws(ChangesetError) in
        try patch(
          old: old, changes: changes, trust: trust, temporaryDirectory: AtomicFile.directory(of: path), progress: progress
        ) {
          (bytes) throws(ChangesetError) in
          do throws(SystemError) { try sink(bytes) } catch { throw ChangesetError(.system(error)) }
        }
      }
    } catch {
      switch error {
      case .system(let failure): throw ChangesetError(.system(failure))
      case .producer(let failure): throw failure
      }
    }
  }

  /// Applies `changes` to OLD and hands NEW to `sink` as it is made, header first.
  ///
  /// The result's hash is checked after the last byte, so `sink` must not publish what it was
  /// given until this returns without throwing.
  /// - Parameters:
  ///   - trust: what the changeset must satisfy first, as for `patch(old:changes:to:trust:progress:)`.
  ///   - temporaryDirectory: where NEW's spools live while it is made; `nil` keeps them in memory.
  ///   - progress: called with the number of entries each run adds to NEW or keeps.
  /// - Throws: as `patch(old:changes:to:trust:progress:)`, and what `sink` throws.
  public static func patch(
    old: CallDirectoryReader, changes: ChangesetReader, trust: TrustPolicy = TrustPolicy(), temporaryDirectory: String?,
    progress: ((Int) -> Void)? = nil, into sink: ([UInt8]) throws(ChangesetError) -> Void
  ) throws(ChangesetError) {
    try ChangesetPatch.apply(
      old: old, changes: changes, trust: trust, temporaryDirectory: temporaryDirectory, progress: progress, into: sink)
  }

  /// Applies `changes` to OLD and returns the result's bytes, checked against the changeset's result hash.
  /// - Throws: as `patch(old:changes:to:)`, but for file errors.
  public static func patched(old: CallDirectoryReader, changes: ChangesetReader) throws(ChangesetError) -> [UInt8] {
    var output: [UInt8] = []
    try ChangesetPatch.apply(old: old, changes: changes, temporaryDirectory: nil) { (bytes) throws(ChangesetError) in
      output.append(contentsOf: bytes)
    }
    return output
  }
}
