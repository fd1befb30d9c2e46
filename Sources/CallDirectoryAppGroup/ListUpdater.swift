import CallDirectoryChangeset
import CallDirectoryFeed
import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem
import CallDirectoryVerifier

/// The app's half: installs a downloaded directory or changeset into the container, after checking
/// its authenticity, its list version and every byte, keeping the directory before it.
///
/// An update writes its files under a new generation number, then publishes the record naming
/// them, then removes older generations (`Spec/APPGROUP.md`, section 1): the record is the one
/// point of change, so a crash at any step leaves the old lists installed or the new ones, and
/// the next update removes what a crash left over. After an update the app asks CallKit to reload
/// the extension, and again after each reload while `reloadNeeded(since:)` says so (a list over
/// CallKit's cap takes several loads).
///
///     let updater = ListUpdater(container: container, trustedKeys: [providerKey])
///     let result = try updater.apply(changeset: downloaded)
///     if result.reloadNeeded { CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier: extensionID) }
public struct ListUpdater: Sendable {
  /// Where the lists go.
  public let container: AppGroupContainer
  /// The provider's keys: a download must be signed by one of them (none: signatures are not
  /// required).
  public let trustedKeys: [PublicKey]
  /// Stops the update after a step when it returns `true`, as a crash would (tests only).
  package var interruption: (@Sendable (UpdateStep) -> Bool)?

  /// An updater of `container` accepting lists signed by one of `trustedKeys`.
  /// - Complexity: O(1).
  public init(container: AppGroupContainer, trustedKeys: [PublicKey]) {
    self.container = container
    self.trustedKeys = trustedKeys
  }

  /// What an installed update changed.
  public struct Result: Sendable, Hashable {
    /// The list version now installed.
    public var listVersion: UInt64
    /// The fingerprint of the directory now installed.
    public var fingerprint: UInt64
    /// Whether the update changed the installed directory (`false`: it was installed already).
    public var changed: Bool
    /// Whether to ask CallKit for a reload.
    public var reloadNeeded: Bool
  }

  /// Whether CallKit does not yet hold the whole installed directory merged with the user's own
  /// list, by the extension's record: ask for a reload after an update or an edit of the user's
  /// list, and again after each reload while this says so.
  /// - Complexity: O(1) reads, and O(size) of the user's list.
  public var reloadNeeded: Bool {
    let personal = container.personalList()
    guard let installed = container.installed() else {
      // With no provider's list, CallKit holds the user's alone, or nothing once it is emptied.
      if personal.isEmpty {
        return container.fedPersonalList().map { !$0.isEmpty } == true && container.holding() != .nothing
      }
      guard let empty = EmptyDirectory.fingerprint else { return false }
      return container.holding() != .directory(fingerprint: personal.merged(with: empty))
    }
    return container.holding() != .directory(fingerprint: personal.merged(with: installed.current.fingerprint))
  }

  /// Whether to ask for another reload after one that completed: CallKit does not hold the whole
  /// installed directory yet, and that reload made progress (the extension's record is no longer
  /// `before`, read when the reload was asked for). A reload that changed nothing, as when the
  /// extension kept CallKit's entries because a file could not be used, is not repeated, so the
  /// app never reloads in a loop.
  ///
  ///     let before = container.holding()
  ///     CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier: extensionID) { error in
  ///         if error == nil && updater.reloadNeeded(since: before) { print("reload again") }
  ///     }
  ///
  /// - Complexity: O(1): two small reads.
  public func reloadNeeded(since before: CallKitHolding) -> Bool {
    reloadNeeded && container.holding() != before
  }

  /// Installs the directory in `bytes`.
  /// - Throws: `UpdateError`: `.damaged`, `.notAuthentic` (including a rollback), `.system`.
  /// - Complexity: O(file): one pass to verify, one to write.
  public func install(directory bytes: [UInt8]) throws(UpdateError) -> Result {
    recover()
    let installed = container.installed()
    let (fingerprint, version) = try check(directory: bytes, installed: installed)
    if fingerprint == installed?.current.fingerprint { return result(installed, changed: false) }
    try step(.verified)
    let number = (installed?.current.number ?? 0) + 1
    try write(container.listPath(number), bytes)
    try step(.listWritten)
    return try publish(
      InstalledLists(
        current: .init(number: number, fingerprint: fingerprint), listVersion: version, previous: installed?.current,
        hasChanges: false))
  }

  /// Installs the directory in the file at `path` (a download).
  /// - Throws: as `install(directory:)`, and `.system` when the file cannot be read.
  public func install(directoryAt path: String) throws(UpdateError) -> Result {
    try install(directory: try read(path))
  }

  /// Applies the changeset in `bytes` to the installed directory and installs the result, keeping
  /// the changeset for the extension to feed CallKit incrementally.
  /// A changeset whose result is the installed directory changes nothing.
  /// - Throws: `UpdateError`: `.noBase`, `.baseMismatch`, `.notAuthentic` (of the changeset or of
  ///   the directory it makes), `.damaged`, `.changeset`, `.system`.
  /// - Complexity: O(old + new): the patch streams the old directory and the changeset.
  public func apply(changeset bytes: [UInt8]) throws(UpdateError) -> Result {
    recover()
    guard let installed = container.installed() else { throw .noBase }
    let changes: ChangesetReader
    do { changes = try ChangesetReader(bytes: bytes) } catch { throw .damaged("changeset: \(error)") }
    let old: CallDirectoryReader
    do { old = try CallDirectoryReader(path: container.listPath(installed.current.number)) } catch {
      throw .damaged("the installed list: \(error)")
    }
    var patched: [UInt8] = []
    do throws(ChangesetError) {
      try Changeset.patch(old: old, changes: changes, trust: policy(installed), temporaryDirectory: nil) {
        (piece) throws(ChangesetError) in patched += piece
      }
    } catch {
      switch error.kind {
      case .notAuthentic(let failure), .resultNotAuthentic(let failure): throw .notAuthentic(failure)
      case .baseMismatch:
        // Applied already (a retry after a crash, a second download): nothing to do.
        if old.contentHash == changes.result { return result(installed, changed: false) }
        throw .baseMismatch
      case .format(let fault): throw .damaged("changeset: \(fault)")
      default: throw .changeset(error)
      }
    }
    let (fingerprint, version) = try check(directory: patched, installed: installed)
    if fingerprint == installed.current.fingerprint { return result(installed, changed: false) }
    try step(.verified)
    let number = installed.current.number + 1
    try write(container.changesPath(number), bytes)
    try step(.changesWritten)
    try write(container.listPath(number), patched)
    try step(.listWritten)
    return try publish(
      InstalledLists(
        current: .init(number: number, fingerprint: fingerprint), listVersion: version, previous: installed.current,
        hasChanges: true))
  }

  /// Applies the changeset in the file at `path` (a download).
  /// - Throws: as `apply(changeset:)`, and `.system` when the file cannot be read.
  public func apply(changesetAt path: String) throws(UpdateError) -> Result {
    try apply(changeset: try read(path))
  }

  /// Removes what an interrupted update left: files of a generation no record names yet, and
  /// generations older than the previous one. Every update calls it first.
  /// - Complexity: O(1): a bounded number of `unlink`s.
  public func recover() {
    guard let installed = container.installed() else { return }
    let next = installed.current.number + 1
    container.remove(container.listPath(next))
    container.remove(container.changesPath(next))
    if !installed.hasChanges { container.remove(container.changesPath(installed.current.number)) }
    let kept = installed.previous?.number ?? installed.current.number
    if let previous = installed.previous { container.remove(container.changesPath(previous.number)) }
    // A generation is removed right after the record naming its second successor; a crash in
    // between leaves it to a later update. Eight back covers any run of such crashes short of
    // eight in a row, and an unlink of a missing file is cheap.
    for number in stride(from: kept, to: kept > 9 ? kept - 9 : 0, by: -1) where number < kept {
      container.remove(container.listPath(number))
      container.remove(container.changesPath(number))
    }
  }

  /// The policy a download must satisfy: the keys, and no version older than the installed one.
  private func policy(_ installed: InstalledLists?) -> TrustPolicy {
    TrustPolicy(trustedKeys: trustedKeys, installedVersion: installed?.listVersion)
  }

  /// Checks a directory's bytes: well formed, trusted, no rollback, every byte verified.
  /// - Returns: its fingerprint and list version.
  private func check(directory bytes: [UInt8], installed: InstalledLists?) throws(UpdateError) -> (UInt64, UInt64) {
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(bytes: bytes) } catch { throw .damaged("\(error)") }
    do { try reader.check(policy(installed)) } catch { throw .notAuthentic(error) }
    let report = Verifier.verify(reader)
    guard report.isValid else { throw .damaged(report.problems.first.map { "\($0)" } ?? "not valid") }
    return (DirectoryFeed(reader).fingerprint, reader.listVersion)
  }

  /// Publishes the record, then removes what it no longer names.
  private func publish(_ installed: InstalledLists) throws(UpdateError) -> Result {
    do { try container.record(installed) } catch { throw .system(error) }
    try step(.recorded)
    recover()
    try step(.cleaned)
    return result(installed, changed: true)
  }

  private func result(_ installed: InstalledLists?, changed: Bool) -> Result {
    Result(
      listVersion: installed?.listVersion ?? 0, fingerprint: installed?.current.fingerprint ?? 0, changed: changed,
      reloadNeeded: reloadNeeded)
  }

  private func step(_ step: UpdateStep) throws(UpdateError) {
    if interruption?(step) == true { throw .interrupted(step) }
  }

  private func write(_ path: String, _ bytes: [UInt8]) throws(UpdateError) {
    do { try container.write(path, bytes) } catch { throw .system(error) }
  }

  private func read(_ path: String) throws(UpdateError) -> [UInt8] {
    do {
      let file = try FileDescriptor.openForReading(path)
      return try file.closeAfter { () throws(SystemError) in try file.readAll() }
    } catch { throw .system(error) }
  }
}
