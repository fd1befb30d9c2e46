import CallDirectoryFeed
import CallDirectoryFormat

/// What CallKit holds for the extension if its last load succeeded (`Spec/APPGROUP.md`,
/// section 4): the extension records it before completing each load.
///
/// CallKit offers an incremental load only after a successful one, so in an incremental load the
/// record is true; in a full load it is ignored.
///
///     if case .directory(let fingerprint) = container.holding(), fingerprint == installed.current.fingerprint {
///         print("CallKit holds the installed list")
///     }
public enum CallKitHolding: Sendable, Hashable {
  /// A load began and did not record its end: the entries are not known.
  case unknown
  /// The last load fed no list.
  case nothing
  /// The whole directory of this fingerprint.
  case directory(fingerprint: UInt64)
  /// Part of a load split at CallKit's cap: toward the directory of `fingerprint`, from the
  /// directory itself or from the kept changeset, resuming at `cursor`.
  case split(fingerprint: UInt64, fromChanges: Bool, cursor: FeedCursor)

  /// The record's payload.
  package var payload: [UInt8] {
    var bytes: [UInt8] = []
    switch self {
    case .unknown: bytes = [0]
    case .nothing: bytes = [1]
    case .directory(let fingerprint):
      bytes = [2]
      StateRecord.appendLE(fingerprint, size: 8, to: &bytes)
    case .split(let fingerprint, let fromChanges, let cursor):
      bytes = [3]
      StateRecord.appendLE(fingerprint, size: 8, to: &bytes)
      bytes += [fromChanges ? 1 : 0, cursor.kind == .blocking ? 0 : 1]
      StateRecord.appendLE(UInt64(bitPattern: cursor.next), size: 8, to: &bytes)
      StateRecord.appendLE(cursor.fingerprint, size: 8, to: &bytes)
    }
    return bytes
  }

  /// The holding a payload describes, or `nil` when it breaks a rule of section 4.
  init?(payload bytes: [UInt8]) {
    switch (bytes.first, bytes.count) {
    case (0, 1): self = .unknown
    case (1, 1): self = .nothing
    case (2, 9): self = .directory(fingerprint: StateRecord.readLE(bytes, at: 1, size: 8))
    case (3, 27):
      let next = Int64(bitPattern: StateRecord.readLE(bytes, at: 11, size: 8))
      guard bytes[9] <= 1, bytes[10] <= 1, Limits.isValidNumber(next) else { return nil }
      let cursor = FeedCursor(
        kind: bytes[10] == 0 ? .blocking : .identification, next: next, fingerprint: StateRecord.readLE(bytes, at: 19, size: 8))
      self = .split(fingerprint: StateRecord.readLE(bytes, at: 1, size: 8), fromChanges: bytes[9] == 1, cursor: cursor)
    default: return nil
    }
  }
}
