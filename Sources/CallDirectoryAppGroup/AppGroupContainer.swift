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
  public func listPath(_ number: UInt64) -> String { "\(path)/\(Self.listName(number))" }

  /// The path of the changeset that made generation `number` from the one before.
  public func changesPath(_ number: UInt64) -> String { "\(path)/\(Self.changesName(number))" }

  /// The name of generation `number`'s directory file.
  static func listName(_ number: UInt64) -> String { "list-\(number).calldir" }

  /// The name of the changeset that made generation `number`.
  static func changesName(_ number: UInt64) -> String { "changes-\(number).cdchanges" }

  /// The generation a file of the container belongs to, when `name` is a generation's directory
  /// or changeset (`list-G.calldir`, `changes-G.cdchanges`, `G` in decimal from 1, without
  /// leading zeros); `nil` for any other name.
  static func generation(of name: Substring) -> UInt64? {
    for (prefix, suffix) in [("list-", ".calldir"), ("changes-", ".cdchanges")]
    where name.hasPrefix(prefix) && name.hasSuffix(suffix) && name.count > prefix.count + suffix.count {
      let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
      guard digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt64(digits) else {
        return nil
      }
      return number
    }
    return nil
  }

  /// See `generation(of:)`.
  static func generation(of name: String) -> UInt64? { generation(of: name[...]) }

  /// The lock an update holds (`ListUpdater`), so that two updates never interleave.
  var updateLockPath: String { "\(path)/.update.lock" }

  /// The app's record of what it installed.
  var installedPath: String { "\(path)/installed.calldirstate" }

  /// The extension's record of what CallKit holds.
  var holdingPath: String { "\(path)/callkit.calldirstate" }
  /// The user's own list.
  var personalPath: String { "\(path)/personal.calldirstate" }
  /// The user's own list as the extension last fed it.
  var fedPersonalPath: String { "\(path)/personal-fed.calldirstate" }

  /// The user's own list; empty when none was saved or its record is invalid.
  /// - Complexity: O(size of the list).
  public func personalList() -> PersonalList {
    read(personalPath, kind: StateRecord.personalKind, limit: PersonalList.maximumEncodedSize + 12)
      .flatMap(PersonalList.init(payload:)) ?? PersonalList()
  }

  /// Saves the user's own list, which the extension's next load feeds (reload it after).
  /// - Throws: `SystemError` from the atomic write; the list saved before then stays.
  /// - Complexity: O(size of the list).
  public func save(_ personal: PersonalList) throws(SystemError) {
    try write(personalPath, StateRecord.encode(kind: StateRecord.personalKind, payload: personal.payload))
  }

  /// The user's list as CallKit was last fed it, or `nil` when unknown.
  func fedPersonalList() -> PersonalList? {
    read(fedPersonalPath, kind: StateRecord.fedPersonalKind, limit: PersonalList.maximumEncodedSize + 12)
      .flatMap(PersonalList.init(payload:))
  }

  /// Records the user's list the extension is feeding.
  /// - Throws: `SystemError` from the atomic write.
  func recordFed(_ personal: PersonalList) throws(SystemError) {
    try write(fedPersonalPath, StateRecord.encode(kind: StateRecord.fedPersonalKind, payload: personal.payload))
  }

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

  /// The payload of a record file, or `nil` when it cannot be read, is over `limit` bytes (4 KiB:
  /// no fixed record is more) or is not a valid record of `kind`.
  private func read(_ target: String, kind: UInt8, limit: Int = 4_096) -> [UInt8]? {
    guard let file = try? FileDescriptor.openForReading(target) else { return nil }
    let bytes = file.closeAfter { try? file.readAll(limit: limit) }
    return bytes.flatMap { StateRecord.decode($0, kind: kind) }
  }
}
