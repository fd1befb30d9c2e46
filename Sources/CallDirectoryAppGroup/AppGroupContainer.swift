import CallDirectorySystem

/// The directory an app and its Call Directory extension share, and the files in it
/// (`Spec/APPGROUP.md`, section 1): the generations of the directory, the kept changeset, and
/// one state record for each process.
///
/// Every write is atomic (a temporary file beside the target, `fsync`, `rename`), so either
/// process sees a file whole or not at all, and a crash at any point leaves a container that the
/// next update repairs.
///
///     let container = AppGroupContainer(path: groupURL.path)
///     let updater = ListUpdater(container: container, trustedKeys: [providerKey])
///     print(try updater.install(directory: downloaded).reloadNeeded)
public struct AppGroupContainer: Sendable, Hashable {
  /// The shared directory, which must exist.
  public let path: String

  /// The container at `path` (an App Group container, or a folder in one).
  /// - Complexity: O(1); nothing is read.
  public init(path: String) {
    self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
  }

  /// The path of generation `number` of the directory.
  public func listPath(_ number: UInt64) -> String { "\(path)/list-\(number).calldir" }

  /// The path of the changeset that made generation `number` from the one before.
  public func changesPath(_ number: UInt64) -> String { "\(path)/changes-\(number).cdchanges" }

  /// The app's record of what it installed.
  var installedPath: String { "\(path)/installed.calldirstate" }

  /// The extension's record of what CallKit holds.
  var holdingPath: String { "\(path)/callkit.calldirstate" }

  /// What the app installed, or `nil` when nothing is, or its record is absent or invalid.
  /// - Complexity: O(1): one read of 53 bytes.
  public func installed() -> InstalledLists? {
    read(installedPath, kind: StateRecord.installedKind).flatMap(InstalledLists.init(payload:))
  }

  /// What CallKit holds if the extension's last load succeeded; `.unknown` when the record is
  /// absent or invalid.
  /// - Complexity: O(1).
  public func holding() -> CallKitHolding {
    read(holdingPath, kind: StateRecord.holdingKind).flatMap(CallKitHolding.init(payload:)) ?? .unknown
  }

  /// Publishes the app's record.
  /// - Throws: `SystemError` from the atomic write; the old record then stays.
  package func record(_ installed: InstalledLists) throws(SystemError) {
    try write(installedPath, StateRecord.encode(kind: StateRecord.installedKind, payload: installed.payload))
  }

  /// Publishes the extension's record.
  /// - Throws: `SystemError` from the atomic write; the old record then stays.
  package func record(_ holding: CallKitHolding) throws(SystemError) {
    try write(holdingPath, StateRecord.encode(kind: StateRecord.holdingKind, payload: holding.payload))
  }

  /// Writes `bytes` to `target` atomically.
  /// - Throws: `SystemError` from any step.
  func write(_ target: String, _ bytes: [UInt8]) throws(SystemError) {
    do throws(AtomicWriteError<SystemError>) {
      try AtomicFile.write(to: target) { (sink) throws(SystemError) in try sink(bytes) }
    } catch {
      switch error {
      case .system(let failure), .producer(let failure): throw failure
      }
    }
  }

  /// Removes `target`; a file already gone is no error.
  func remove(_ target: String) {
    try? FileDescriptor.remove(target)
  }

  /// The bytes of a small file, or `nil` when it cannot be read or is over 4 KiB (no record is).
  private func read(_ target: String, kind: UInt8) -> [UInt8]? {
    guard let file = try? FileDescriptor.openForReading(target) else { return nil }
    let bytes = file.closeAfter { try? file.readAll(limit: 4_096) }
    return bytes.flatMap { StateRecord.decode($0, kind: kind) }
  }
}
