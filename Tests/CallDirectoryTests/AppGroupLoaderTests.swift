import CallDirectory
import CallDirectoryCallKitModel
import Foundation
import Testing

/// The extension's half against the model of CallKit: what each request decides, and that a load
/// that could keep CallKit's entries never fails.
@Suite struct AppGroupLoaderTests {
  static let first = GroupList(
    blocking: [10...20, 40...40], identification: [(5...6, "Acme"), (100...100, "Bank")], version: 1)
  static let second = GroupList(
    blocking: [10...19, 40...45], identification: [(5...6, "Acme Support"), (200...200, "Clinic")], version: 2)

  @Test func fullThenNothingThenChanges() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    #expect(phone.updater.reloadNeeded)
    phone.reload()
    #expect(phone.lastReport?.action == .whole)
    #expect(phone.holds(Self.first))
    #expect(!phone.updater.reloadNeeded)

    phone.reload()
    #expect(phone.lastReport == LoadReport(action: .nothing))
    #expect(phone.holds(Self.first))

    let result = try phone.updater.apply(changeset: try Self.second.changeset(from: Self.first))
    #expect(result.changed && result.reloadNeeded && result.listVersion == 2)
    phone.reload()
    // Only the change, which a changeset holds run by run: 10...20 becomes 10...19 (11 removed,
    // 10 added), 40 becomes 40...45 (1 and 6), 5...6 is relabelled (2 and 2), 100 goes, 200 comes.
    #expect(phone.lastReport == LoadReport(action: .changes, additions: 19, removals: 15))
    #expect(phone.holds(Self.second))
    #expect(!phone.updater.reloadNeeded)
  }

  /// A list over the cap takes the fewest loads the cap allows, whole or as a changeset.
  @Test func overTheCapSplitsIntoTheFewestLoads() throws {
    var phone = try Phone(cap: 10)
    let big = GroupList(blocking: [1...17], identification: [(1...8, "L")], version: 1)
    _ = try phone.updater.install(directory: try big.bytes())
    #expect(phone.converge() == 3)
    #expect(phone.actions == [.whole, .resumed(fromChanges: false), .resumed(fromChanges: false)])
    #expect(phone.holds(big))

    let bigger = GroupList(blocking: [1...17, 30...44], identification: [(1...8, "L"), (50...56, "M")], version: 2)
    _ = try phone.updater.apply(changeset: try bigger.changeset(from: big))
    #expect(phone.converge() == 3)  // 22 additions in loads of 10
    #expect(phone.lastReport?.action == .resumed(fromChanges: true))
    #expect(phone.holds(bigger))
  }

  /// Damage on disk after installation: an incremental load keeps CallKit's entries and says why.
  @Test func damagedFileInAnIncrementalLoadKeepsTheEntries() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.reload()
    _ = try phone.updater.install(directory: try Self.second.bytes())
    try phone.folder.damage("list-2.calldir")
    let outcome = phone.reload()
    guard case .complete(let report) = outcome else {
      Issue.record("an incremental load failed: \(String(describing: outcome))")
      return
    }
    #expect(report.action == .nothing)
    #expect(report.note?.contains("list-2.calldir") == true)
    #expect(phone.holds(Self.first))
    // The app, following reloadNeeded(since:), does not reload in a loop.
    #expect(phone.converge() == 1)
    #expect(phone.updater.reloadNeeded)
  }

  /// In a full load a damaged current generation gives way to the last good one.
  @Test func fullLoadFallsBackToThePreviousGeneration() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    _ = try phone.updater.install(directory: try Self.second.bytes())
    try phone.folder.damage("list-2.calldir")
    phone.reload()
    #expect(phone.lastReport?.action == .whole)
    #expect(phone.lastReport?.note?.contains("list-2.calldir") == true)
    #expect(phone.holds(Self.first))
  }

  /// With no generation usable a full load must fail, and says which files and why.
  @Test func fullLoadWithNoUsableListFailsSayingWhy() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    _ = try phone.updater.install(directory: try Self.second.bytes())
    try phone.folder.damage("list-2.calldir")
    // A foreign file in place of the first generation: well formed, but not the provider's.
    try Self.first.bytes(signedBy: GroupKeys.stranger).write(to: phone.folder.container.listPath(1))
    guard case .fail(let failure) = phone.reload() else {
      Issue.record("a full load with no usable list completed")
      return
    }
    #expect(failure.reason.contains("list-2.calldir") && failure.reason.contains("list-1.calldir"))
    #expect(failure.reason.contains("not a trusted key"))
    #expect(phone.store.history.last?.outcome == .failed(.cancelled(failure.reason)))
  }

  /// Without a record of what CallKit holds, an incremental load replaces everything.
  @Test func unknownHoldingReplacesEverything() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.reload()
    try phone.folder.damage("callkit.calldirstate", at: 9)
    #expect(phone.folder.container.holding() == .unknown)
    phone.reload()
    #expect(phone.lastReport?.action == .replaced)
    #expect(phone.holds(Self.first))
  }

  /// A kill mid-load empties CallKit; the next load is full and converges.
  @Test func killMidLoadThenConverge() throws {
    var phone = try Phone(cap: 10)
    let list = GroupList(blocking: [1...25], version: 1)
    _ = try phone.updater.install(directory: try list.bytes())
    phone.reload()
    phone.reload(killAfter: 3)
    #expect(phone.store.blocking.isEmpty && !phone.store.nextLoadIsIncremental)
    #expect(phone.updater.reloadNeeded)
    #expect(phone.converge() == 3)
    #expect(phone.holds(list))
  }

  /// When the state cannot be recorded (here a directory stands where the record goes), an
  /// incremental load changes nothing, and a full load, which keeps nothing either way, fails.
  @Test func unrecordableStateKeepsTheEntriesOrFailsAFullLoad() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.reload()
    _ = try phone.updater.install(directory: try Self.second.bytes())
    let record = phone.folder.path + "/callkit.calldirstate"
    try FileManager.default.removeItem(atPath: record)
    try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: false)
    phone.reload()
    #expect(phone.lastReport?.action == .nothing)
    #expect(phone.lastReport?.note?.contains("the state cannot be recorded") == true)
    #expect(phone.holds(Self.first))

    phone.store.offerFullLoadNext()
    guard case .fail(let failure) = phone.reload() else {
      Issue.record("a full load completed without recording its state")
      return
    }
    #expect(failure.reason.hasPrefix("the state cannot be recorded"))
  }

  @Test func nothingInstalled() throws {
    var phone = try Phone()
    phone.reload()
    #expect(phone.lastReport == LoadReport(action: .nothing, note: "no list is installed"))
    #expect(phone.folder.container.holding() == .nothing)
    phone.reload()
    #expect(phone.lastReport?.action == .nothing)
    #expect(phone.store.history.allSatisfy { $0.succeeded })
  }
}

extension [UInt8] {
  /// Writes the bytes to `path`, replacing what is there.
  func write(to path: String) throws {
    try Data(self).write(to: URL(fileURLWithPath: path))
  }
}
