import CallDirectoryCrypto
import CallDirectoryFormat
import CallDirectorySystem
import CallDirectoryWriter

/// Why a changeset could not be made, read or applied.
///
///     do {
///       let reader = try ChangesetReader(bytes: changesetBytes)
///       _ = try reader.check(TrustPolicy(trustedKeys: [providerKey]))
///     } catch {
///       print("changeset refused: \(error)")
///     }
public struct ChangesetError: Error, Sendable, CustomStringConvertible {
  /// The kinds of failure. New kinds may be added in later versions.
  public enum Kind: Sendable {
    /// A changeset's or a directory's bytes are malformed; the error says where.
    case format(FormatError)
    /// The file given as a changeset does not start with a changeset's magic bytes; `directory`
    /// when it starts with a call directory's instead.
    case notAChangeset(directory: Bool)
    /// The directory to patch is not the one the changeset was made from.
    case baseMismatch(expected: [UInt8], actual: [UInt8])
    /// Applying the changeset did not give the file it was made from (its SHA-256 or length differs).
    case resultMismatch(expected: [UInt8], actual: [UInt8])
    /// NEW is of a directory version this writer does not write (a version 1 file): patch could
    /// not rebuild its bytes, so no changeset is made to it.
    case resultNotRebuildable(major: UInt16)
    /// NEW is not in the canonical form patch writes (`Spec/FORMAT.md` section 12): its entries
    /// encode to other bytes, as for a file written with other writer options, so no changeset
    /// is made to it.
    case resultNotCanonical
    /// NEW has optional sections a changeset cannot carry (`Spec/CHANGESET.md` section 4.1: at
    /// most 8, each of at most 65,536 bytes), so patch could not rebuild it.
    case sectionsNotCarried(reason: String)
    /// A removal names a run the base does not hold as it is stored.
    case removalNotInBase(ClosedRange<Int64>, list: String)
    /// The merged entries could not be encoded as a directory.
    case writer(WriterError)
    /// An operating-system call failed.
    case system(SystemError)
    /// The changeset, or the directory it produces, is not trusted: unsigned, signed by an unknown
    /// key, a signature that does not verify, or a rollback to an older list version.
    case notAuthentic(AuthenticityFailure)
    /// A patch with trusted keys would give a directory its consumer's own check refuses: over a
    /// signed base, or with a signature carried, one unsigned, signed by a key not trusted, or
    /// whose signature does not verify (`Spec/CHANGESET.md`, section 4.2). Nothing is published.
    case resultNotAuthentic(AuthenticityFailure)
  }

  /// What went wrong.
  public var kind: Kind

  /// An error of `kind`.
  public init(_ kind: Kind) { self.kind = kind }

  /// A one-line message; hashes are shown in lowercase hex.
  public var description: String {
    switch kind {
    case .format(let error):
      // FormatError's own text names the directory's major versions; a changeset's differ.
      if case .unsupportedVersion(let major, let minor) = error.kind {
        let known = ChangesetLayout.majors
        return "unsupported changeset version \(major).\(minor) (this reader reads changeset major versions "
          + "\(known.lowerBound) to \(known.upperBound)) at byte \(error.offset)"
      }
      return error.description
    case .notAChangeset(let directory):
      return directory
        ? "a call directory, not a changeset (give the changeset diff wrote, after OLD)"
        : "not a changeset file (bad magic)"
    case .baseMismatch(let expected, let actual):
      // The hash matches and the length does not: the changeset's header contradicts itself.
      if expected == actual {
        return "the changeset names this file's SHA-256 (\(SHA256Digest.hex(actual))) but another length: its header is wrong"
      }
      return
        "the changeset applies to a file with SHA-256 \(SHA256Digest.hex(expected)), not to this one (SHA-256 \(SHA256Digest.hex(actual)))"
    case .resultMismatch(let expected, let actual):
      if expected == actual {
        return
          "the patched file has the changeset's SHA-256 (\(SHA256Digest.hex(actual))) but another length: its header is wrong"
      }
      return "the patched file has SHA-256 \(SHA256Digest.hex(actual)), not the changeset's result \(SHA256Digest.hex(expected))"
    case .resultNotRebuildable(let major):
      return "the new directory is a version \(major) file, and patch rebuilds only version \(FormatVersion.major) files: "
        + "repack it with `calldir pack` first"
    case .resultNotCanonical:
      return "the new directory is not in the canonical form patch rebuilds (its entries encode to other bytes, as "
        + "in a file packed with other options such as --no-prefix-labels): repack it with `calldir pack` first"
    case .sectionsNotCarried(let reason):
      return "the new directory's optional sections cannot go in a changeset: \(reason); repack it with `calldir pack` first"
    case .removalNotInBase(let run, let list):
      return
        "\(list): +\(run.lowerBound)\(run.lowerBound == run.upperBound ? "" : "..+\(run.upperBound)") is not a run of the base"
    case .writer(let error): return error.description
    case .system(let error): return error.description
    case .notAuthentic(let failure): return failure.description
    case .resultNotAuthentic(let failure): return "the patched directory would not be trusted: \(failure)"
    }
  }

  static func format(_ error: FormatError) -> ChangesetError { ChangesetError(.format(error)) }
}
