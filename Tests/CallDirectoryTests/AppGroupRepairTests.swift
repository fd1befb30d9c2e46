import CallDirectory
import CallDirectoryAppGroup
import CallDirectoryCallKitModel
import Dispatch
import Foundation
import Synchronization
import Testing

/// What the app's updates repair and clean up (`Spec/APPGROUP.md` sections 1 and 3): a damaged
/// or missing installed file, generations a lost record left, temporaries of killed writes, two
/// updates at once, a generation number at its end.
@Suite struct AppGroupRepairTests {
  static let first = GroupList(blocking: [10...20, 40...40], identification: [(5...6, "Acme")], version: 1)
  static let second = GroupList(blocking: [10...19, 40...45], identification: [(5...6, "Acme Support")], version: 2)
  static let third = GroupList(blocking: [1...3, 50...52], identification: [(7...7, "Dentist")], version: 3)

  /// The installed directory downloaded again rewrites its file when that file is damaged or
  /// gone, so that a full load (a restore, the user toggling the extension) has a good one to
  /// feed. It said "unchanged", and the full load failed until the provider's next version.
  @Test(arguments: [false, true])
  func reinstallingRepairsTheInstalledFile(remove: Bool) throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.converge()
    if remove {
      try FileManager.default.removeItem(atPath: phone.folder.container.listPath(1))
    } else {
      try phone.folder.damage("list-1.calldir")
    }
    let repaired = try phone.updater.install(directory: try Self.first.bytes())
    #expect(repaired.listVersion == 1 && !repaired.reloadNeeded, "CallKit still holds the same entries")
    let installed = try #require(phone.folder.container.installed())
    #expect(installed.current.number == 2 && installed.previous == nil && !installed.hasChanges)
    #expect(try Verifier.verify(path: phone.folder.container.listPath(2)).isValid)
    #expect(try phone.folder.names() == ["callkit.calldirstate", "installed.calldirstate", "list-2.calldir"])
    phone.store.offerFullLoadNext()
    phone.converge()
    #expect(phone.store.history.allSatisfy { $0.succeeded })
    #expect(phone.holds(Self.first))
    // An intact file is left alone: nothing written.
    let again = try phone.updater.install(directory: try Self.first.bytes())
    #expect(!again.changed && phone.folder.container.installed()?.current.number == 2)
  }

  /// A record of the last generation a record may name: the next update numbers from 1 again,
  /// and a record past it is invalid (absent), never a trap of `number + 1`.
  @Test func generationNumbersBeginAgainAfterTheLast() throws {
    let phone = try Phone()
    let container = phone.folder.container
    _ = try phone.updater.install(directory: try Self.first.bytes())
    let last = InstalledLists.mostGeneration
    try FileManager.default.moveItem(atPath: container.listPath(1), toPath: container.listPath(last))
    let fingerprint = try #require(container.installed()).current.fingerprint
    try container.record(
      InstalledLists(current: .init(number: last, fingerprint: fingerprint), listVersion: 1, previous: nil, hasChanges: false))
    #expect(container.installed()?.current.number == last)
    let result = try phone.updater.apply(changeset: try Self.second.changeset(from: Self.first))
    #expect(result.changed && result.listVersion == 2)
    let installed = try #require(container.installed())
    #expect(installed.current.number == 1 && installed.previous == nil && !installed.hasChanges)
    #expect(try phone.folder.names() == ["installed.calldirstate", "list-1.calldir"])
    // One past the last is no record a reader takes.
    try container.record(
      InstalledLists(current: .init(number: last + 1, fingerprint: 1), listVersion: 1, previous: nil, hasChanges: false))
    #expect(container.installed() == nil)
    #expect(try phone.updater.install(directory: try Self.third.bytes()).listVersion == 3)
  }

  /// A record lost (damaged) leaves its generations unnamed: the next update's record names its
  /// own, and every other generation goes. They stayed until numbering climbed back to them.
  @Test func generationsOfALostRecordAreRemoved() throws {
    let phone = try Phone()
    var list = Self.first
    _ = try phone.updater.install(directory: try list.bytes())
    for version in UInt64(2)...6 {
      let next = GroupList(blocking: [Int64(version)...Int64(version) + 3], version: version)
      _ = try phone.updater.apply(changeset: try next.changeset(from: list))
      list = next
    }
    #expect(try phone.folder.names() == ["changes-6.cdchanges", "installed.calldirstate", "list-5.calldir", "list-6.calldir"])
    try phone.folder.damage("installed.calldirstate", at: 20)
    #expect(phone.folder.container.installed() == nil)
    _ = try phone.updater.install(directory: try GroupList(blocking: [100...101], version: 7).bytes())
    #expect(try phone.folder.names() == ["installed.calldirstate", "list-1.calldir"])
  }

  /// A write killed while it wrote a generation leaves a temporary file no later write of that
  /// name removes (the next update may be a whole list): the update's clean-up removes it once
  /// its process is gone, and keeps a live process's and other files'.
  @Test func temporariesOfKilledGenerationWritesAreRemoved() throws {
    let phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    let folder = phone.folder.path
    let dead = try #require(deadProcess())
    let stale = [".changes-2.cdchanges.calldir-tmp.\(dead).0", ".list-7.calldir.calldir-tmp.\(dead).3"]
    // PID 1 lives as long as the machine.
    let kept = [".list-2.calldir.calldir-tmp.1.9", ".notes.calldir-tmp.\(dead).0", "list-07.calldir", "notes.txt"]
    for name in stale + kept { try [UInt8](repeating: 0xAB, count: 64).write(to: folder + "/" + name) }
    _ = try phone.updater.install(directory: try Self.second.bytes())
    for name in stale { #expect(!FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)") }
    for name in kept { #expect(FileManager.default.fileExists(atPath: folder + "/" + name), "\(name)") }
  }

  /// Two updates at once (a background download finishing during a foreground check) run one
  /// after the other: the record names the file it describes, and the later update numbers its
  /// generation from the earlier's record. Interleaved, both wrote generation 2 and the record of
  /// one named the other's file.
  @Test func twoUpdatesAtOnceRunOneAfterTheOther() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.converge()
    let other = phone.updater
    let secondBytes = try Self.third.bytes()
    let finished = DispatchSemaphore(value: 0)
    let result = Outcome()
    var racing = phone.updater
    racing.interruption = { step in
      guard step == .listWritten else { return false }
      // The other update starts while this one has written its file and not yet its record.
      Thread.detachNewThread {
        let outcome = Result { () throws(UpdateError) in try other.install(directory: secondBytes) }
        result.value.withLock { $0 = outcome }
        finished.signal()
      }
      Thread.sleep(forTimeInterval: 0.2)
      return false
    }
    let firstResult = try racing.install(directory: try Self.second.bytes())
    #expect(firstResult.changed && firstResult.listVersion == 2)
    #expect(finished.wait(timeout: .now() + 30) == .success)
    let secondResult = try #require(result.value.withLock { $0 }).get()
    #expect(secondResult.changed && secondResult.listVersion == 3)
    let installed = try #require(phone.folder.container.installed())
    #expect(installed.current.number == 3 && installed.previous?.number == 2)
    let file = try CallDirectoryReader(path: phone.folder.container.listPath(installed.current.number))
    #expect(DirectoryFeed(file).fingerprint == installed.current.fingerprint && file.listVersion == 3)
    phone.converge()
    #expect(phone.holds(Self.third) && !phone.updater.reloadNeeded)
  }

  /// A change of the user's list alone that adds more than a load takes (every allow of a list
  /// the directory blocks taken back) replaces everything in split loads instead: it was sent in
  /// one load over the cap, which CallKit fails, deleting every entry.
  @Test func aPersonalChangeOverTheCapIsSplit() throws {
    var phone = try Phone(cap: 5)
    let list = GroupList(blocking: [1...8], version: 1)
    _ = try phone.updater.install(directory: try list.bytes())
    var personal = PersonalList()
    for number in Int64(1)...8 { try personal.allow(number) }
    try phone.folder.container.save(personal)
    phone.converge()
    #expect(phone.holds(list, personal: personal) && phone.store.blocking.isEmpty)
    try phone.folder.container.save(PersonalList())
    phone.converge()
    #expect(phone.store.history.allSatisfy { $0.succeeded }, "a load failed, and CallKit deleted every entry")
    #expect(phone.holds(list) && !phone.updater.reloadNeeded)
    // A change a load takes still goes alone.
    var one = PersonalList()
    try one.allow(3)
    try phone.folder.container.save(one)
    phone.converge()
    #expect(phone.lastReport?.action == .personal && phone.holds(list, personal: one))
  }

  /// The extension turned on before the app first made its folder: a full load with nothing to
  /// send completes, though it cannot record (no record says otherwise). It failed.
  @Test func aFullLoadOfNothingCompletesWithoutAFolder() throws {
    let folder = try TemporaryContainer()
    let container = AppGroupContainer(path: folder.path + "/not-yet-made")
    let loader = try CallDirectoryLoader(
      container: container, trust: TrustPolicy(trustedKeys: [GroupKeys.provider.publicKey]), limit: 100)
    var store = CallKitModel(cap: 100)
    var load = try store.beginLoad()
    guard case .complete(let report) = loader.load(into: &load) else {
      Issue.record("a full load with nothing to send failed")
      return
    }
    #expect(report.action == .nothing && report.additions == 0)
    #expect(container.holding() == .unknown)
  }

  /// A full load that cannot record the user's list it is about to feed fails, saying why: it
  /// completed having sent nothing ("CallKit's entries are kept"), which left CallKit empty.
  @Test func aFullLoadThatCannotRecordTheUsersListFails() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    var personal = PersonalList()
    try personal.block(1_000)
    try phone.folder.container.save(personal)
    // A directory where the record goes: no write can replace it.
    try FileManager.default.createDirectory(
      atPath: phone.folder.path + "/personal-fed.calldirstate", withIntermediateDirectories: false)
    guard case .fail(let failure) = phone.reload() else {
      Issue.record("a full load that could not record completed")
      return
    }
    #expect(failure.reason.contains("cannot be recorded"))
  }

  /// What the other update of `twoUpdatesAtOnceRunOneAfterTheOther` ended with.
  private final class Outcome: Sendable {
    let value = Mutex<Result<ListUpdater.Result, UpdateError>?>(nil)
  }

  /// A PID no process has on this machine.
  private func deadProcess() -> pid_t? {
    (900_000...999_999).lazy.map { pid_t($0) }.first { kill($0, 0) != 0 && errno == ESRCH }
  }
}
