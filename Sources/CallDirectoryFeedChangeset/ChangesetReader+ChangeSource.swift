// A changeset feeds CallKit's incremental loads as it is: its reader already streams each kind's
// removals and additions as ascending runs, the shape `ChangeSource` asks for. Only the
// fingerprint its cursors carry is added here.
import CallDirectoryChangeset
import CallDirectoryFeed

extension ChangesetReader: ChangeSource {
  /// The changeset's identity for feed cursors: from the SHA-256 of its base and of its result,
  /// so that a changeset to the same result from another base has another. The base's part is
  /// multiplied so that the changeset back (result to base) differs too.
  public var fingerprint: UInt64 {
    func word(_ hash: [UInt8]) -> UInt64 { hash.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }
    return word(result) ^ word(base) &* 0x9E37_79B9_7F4A_7C15
  }
}
