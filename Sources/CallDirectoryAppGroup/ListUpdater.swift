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
/// the next update removes what a crash left over. Updates hold the container's update lock, so
/// two of them (a background download finishing during a foreground check) run one after the
/// other, never interleaved; a damaged or missing installed file is written again by the next
/// install of the same directory. After an update the app asks CallKit to reload
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
  /// A reload that ended with an error is another matter: CallKit then holds none of the
  /// extension's entries, whatever the record says (a failed load deletes them all, and an
  /// extension killed after it recorded its outcome fails its load). Ask again once, later (at
  /// the next launch or update), not in a loop; iOS then offers a full load.
  /// - Complexity: O(1): two small reads.
  public func reloadNeeded(since before: CallKitHolding) -> Bool {
    reloadNeeded && container.holding() != before
  }

  /// Installs the directory in `bytes`.
  ///
  /// The directory installed already changes nothing (`changed` is `false`), unless its file in
  /// the container is missing or no longer holds those bytes: it is then written again, under a
  /// new generation, so that the extension's next full load has a good file to feed.
  /// - Throws: `UpdateError`: `.damaged`, `.notAuthentic` (including a rollback), `.system`.
  /// - Complexity: O(file): one pass to verify, one to write (or, when it is installed already,
  ///   one to compare with the installed file).
  public func install(directory bytes: [UInt8]) throws(UpdateError) -> Result {
    try whileUpdating { () throws(UpdateError) -> Result in
      removeUnnamed()
      let installed = container.installed()
      let (fingerprint, version) = try check(directory: bytes, installed: installed)
      var previous = installed?.current
      if let installed, fingerprint == installed.current.fingerprint {
        if holds(installed.current, bytes) { return result(installed, changed: false) }
        // A damaged or missing file of the directory installed: the same bytes again, kept as the
        // current generation; the generation before stays the last good one.
        previous = installed.previous
      }
      try step(.verified)
      let number = nextGeneration(after: installed)
      try write(container.listPath(number), bytes)
      try step(.listWritten)
      return try publish(
        InstalledLists(
          current: .init(number: number, fingerprint: fingerprint), listVersion: version,
          previous: previous.flatMap { $0.number < number ? $0 : nil }, hasChanges: false))
    }
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
    try whileUpdating { () throws(UpdateError) -> Result in try applyLocked(changeset: bytes) }
  }

  /// `apply(changeset:)` under the update lock.
  private func applyLocked(changeset bytes: [UInt8]) throws(UpdateError) -> Result {
    removeUnnamed()
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
    let number = nextGeneration(after: installed)
    try write(container.changesPath(number), bytes)
    try step(.changesWritten)
    try write(container.listPath(number), patched)
    try step(.listWritten)
    // Numbering begun again (below) keeps no changeset: it turns only `number - 1` into `number`.
    let kept = installed.current.number < number
    return try publish(
      InstalledLists(
        current: .init(number: number, fingerprint: fingerprint), listVersion: version,
        previous: kept ? installed.current : nil, hasChanges: kept))
  }

  /// Applies the changeset in the file at `path` (a download).
  /// - Throws: as `apply(changeset:)`, and `.system` when the file cannot be read.
  public func apply(changesetAt path: String) throws(UpdateError) -> Result {
    try apply(changeset: try read(path))
  }

  /// Removes what interrupted updates left: every generation's list and changeset that the
  /// record does not name (a generation not published yet, generations older than the previous
  /// one, those of a record that was lost), and the temporary files of killed writes of them.
  /// Every update does this first, and again once its record is published; it holds the update
  /// lock, so it waits for an update running in another thread rather than remove the file that
  /// update is about to publish. Without a readable record it removes nothing: the files may be a
  /// record's that cannot be read just now.
  /// - Complexity: O(*n*) in the container's entries.
  public func recover() {
    try? whileUpdating { () throws(UpdateError) in removeUnnamed() }
  }

  /// `recover()`, under the update lock the caller holds.
  private func removeUnnamed() {
    guard let installed = container.installed() else { return }
    var named: Set<String> = [AppGroupContainer.listName(installed.current.number)]
    if installed.hasChanges { named.insert(AppGroupContainer.changesName(installed.current.number)) }
    if let previous = installed.previous { named.insert(AppGroupContainer.listName(previous.number)) }
    for name in AtomicFile.entryNames(of: container.path)
    where AppGroupContainer.generation(of: name) != nil && !named.contains(name) {
      container.remove(container.path + "/" + name)
    }
    // A temporary file of a generation whose writer died: no later write of that name may come.
    AtomicFile.removeStaleTemporaries(in: container.path) { AppGroupContainer.generation(of: $0) != nil }
  }

  /// Runs `body` holding the container's update lock (`Spec/APPGROUP.md` section 1), so that
  /// two updates never interleave: each numbers its generation from the record the other
  /// published.
  private func whileUpdating<R>(_ body: () throws(UpdateError) -> R) throws(UpdateError) -> R {
    let lock: FileLock
    do { lock = try FileLock(exclusive: container.updateLockPath) } catch { throw .system(error) }
    return try lock.holding(body)
  }

  /// Whether the container's file of `generation` holds exactly `bytes`.
  private func holds(_ generation: InstalledLists.Generation, _ bytes: [UInt8]) -> Bool {
    guard let file = try? FileDescriptor.openForReading(container.listPath(generation.number)) else { return false }
    let stored = file.closeAfter { try? file.readAll(limit: bytes.count) }
    return stored == bytes
  }

  /// The number of the next generation: one above the current, or 1 when nothing is installed,
  /// or when the current is the last a record may name (`InstalledLists.mostGeneration`), after
  /// which numbering begins again.
  private func nextGeneration(after installed: InstalledLists?) -> UInt64 {
    guard let current = installed?.current.number, current < InstalledLists.mostGeneration else { return 1 }
    return current + 1
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
    removeUnnamed()
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
