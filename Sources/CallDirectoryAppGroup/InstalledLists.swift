/// What the app has installed in the container: the current directory, the one before it (the
/// last good version), and whether the changeset between them is kept (`Spec/APPGROUP.md`,
/// section 3).
///
/// The app writes it after each installed update; the extension reads it to find the files.
///
///     let installed = container.installed()
///     print("version \(installed?.listVersion ?? 0)")
public struct InstalledLists: Sendable, Hashable {
  /// One installed directory.
  public struct Generation: Sendable, Hashable {
    /// Its number in the file names (`list-G.calldir`), from 1.
    public var number: UInt64
    /// Its `DirectoryFeed.fingerprint`.
    public var fingerprint: UInt64

    /// A generation of this number and fingerprint.
    public init(number: UInt64, fingerprint: UInt64) {
      self.number = number
      self.fingerprint = fingerprint
    }
  }

  /// The highest generation number a record may name, 2^63 - 1: one above it is still a
  /// number, and numbering then begins again at 1.
  public static let mostGeneration: UInt64 = (1 << 63) - 1

  /// The directory to feed.
  public var current: Generation
  /// The current directory's list version: an update older than it is a rollback.
  public var listVersion: UInt64
  /// The directory installed before, kept until the next update; `nil` for none.
  public var previous: Generation?
  /// Whether `changes-G.cdchanges` (G the current number) turns `previous` into `current`.
  public var hasChanges: Bool

  /// These installed lists.
  public init(current: Generation, listVersion: UInt64, previous: Generation?, hasChanges: Bool) {
    self.current = current
    self.listVersion = listVersion
    self.previous = previous
    self.hasChanges = hasChanges
  }

  /// The record's payload: 41 bytes.
  var payload: [UInt8] {
    var bytes: [UInt8] = []
    for word in [current.number, current.fingerprint, listVersion, previous?.number ?? 0, previous?.fingerprint ?? 0] {
      StateRecord.appendLE(word, size: 8, to: &bytes)
    }
    bytes.append(hasChanges ? 1 : 0)
    return bytes
  }

  /// The lists a payload describes, or `nil` when it breaks a rule of section 3.
  init?(payload bytes: [UInt8]) {
    guard bytes.count == 41, bytes[40] & ~1 == 0 else { return nil }
    let words = (0..<5).map { StateRecord.readLE(bytes, at: 8 * $0, size: 8) }
    guard words[0] >= 1, words[0] <= Self.mostGeneration, words[3] < words[0] else { return nil }
    current = Generation(number: words[0], fingerprint: words[1])
    listVersion = words[2]
    previous = words[3] == 0 ? nil : Generation(number: words[3], fingerprint: words[4])
    hasChanges = bytes[40] == 1
    // A changeset is kept only from the generation just before.
    if hasChanges && previous?.number != current.number - 1 { return nil }
    if previous == nil && words[4] != 0 { return nil }
  }
}
