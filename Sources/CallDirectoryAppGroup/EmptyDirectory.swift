import CallDirectoryFeed
import CallDirectoryReader
import CallDirectoryWriter

/// A directory of no entries: what the user's own list is merged into while no provider's list is
/// installed (`Spec/APPGROUP.md`, section 6). The same bytes in every process, so the app and the
/// extension agree on its fingerprint.
enum EmptyDirectory {
  /// A feed of the empty directory in loads of `limit` additions, or `nil` when `limit` leaves
  /// no room (the user's list has as many entries as a load takes).
  static func feed(limit: Int) -> DirectoryFeed? {
    guard limit > 0, let bytes = try? DirectoryBuilder().encoded(), let reader = try? CallDirectoryReader(bytes: bytes)
    else { return nil }
    return try? DirectoryFeed(reader, limit: limit)
  }

  /// Its fingerprint.
  static var fingerprint: UInt64? { feed(limit: 1)?.fingerprint }
}
