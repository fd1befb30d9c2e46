import CallDirectory
import CallDirectoryCallKitModel
import Foundation
import Testing

/// The app's half: what an update refuses, and recovery after a crash between any two steps.
@Suite struct AppGroupUpdaterTests {
  static let first = AppGroupLoaderTests.first
  static let second = AppGroupLoaderTests.second

  @Test func refusesAForeignAnUnsignedAndARolledBackList() throws {
    let phone = try Phone()
    let installed = GroupList(blocking: [1...3], version: 5)
    _ = try phone.updater.install(directory: try installed.bytes())
    #expect(throws: UpdateError.notAuthentic(.unknownKey(GroupKeys.stranger.publicKey))) {
      try phone.updater.install(directory: try Self.second.bytes(signedBy: GroupKeys.stranger))
    }
    #expect(throws: UpdateError.notAuthentic(.unsigned)) {
      try phone.updater.install(directory: try GroupList(blocking: [9...9], version: 6).bytes(signedBy: nil))
    }
    #expect(throws: UpdateError.notAuthentic(.rolledBack(installed: 5, offered: 4))) {
      try phone.updater.install(directory: try GroupList(blocking: [9...9], version: 4).bytes())
    }
    // The same version again is no rollback; the same directory again changes nothing.
    #expect(try phone.updater.install(directory: try installed.bytes()).changed == false)
    #expect(phone.folder.container.installed()?.current.number == 1)
  }

  @Test func refusesDamagedBytes() throws {
    let phone = try Phone()
    var bytes = try Self.first.bytes()
    bytes[bytes.count / 2] ^= 1
    #expect {
      try phone.updater.install(directory: bytes)
    } throws: { error in
      guard case .damaged = error as? UpdateError else { return false }
      return true
    }
    #expect(phone.folder.container.installed() == nil)
    #expect(try phone.folder.names() == [])
  }

  @Test func refusesAChangesetWithoutItsBase() throws {
    let phone = try Phone()
    let changes = try Self.second.changeset(from: Self.first)
    #expect(throws: UpdateError.noBase) { try phone.updater.apply(changeset: changes) }
    _ = try phone.updater.install(directory: try GroupList(blocking: [7...7], version: 1).bytes())
    #expect(throws: UpdateError.baseMismatch) { try phone.updater.apply(changeset: changes) }
    // A changeset signed by a stranger is refused before it is applied.
    _ = try phone.updater.install(directory: try Self.first.bytes())
    #expect(throws: UpdateError.notAuthentic(.unknownKey(GroupKeys.stranger.publicKey))) {
      try phone.updater.apply(changeset: try Self.second.changeset(from: Self.first, signedBy: GroupKeys.stranger))
    }
    #expect(phone.folder.container.installed()?.listVersion == 1)
  }

  /// The files an installed state keeps: both records, the current and previous generations,
  /// and the changeset between them when there is one.
  static func expectedNames(_ container: AppGroupContainer) -> [String] {
    guard let installed = container.installed() else { return [] }
    var names = ["callkit.calldirstate", "installed.calldirstate", "list-\(installed.current.number).calldir"]
    if let previous = installed.previous { names.append("list-\(previous.number).calldir") }
    if installed.hasChanges { names.append("changes-\(installed.current.number).cdchanges") }
    return names.sorted()
  }

  /// A crash after each step of an update: the lists installed are the old ones or the new ones,
  /// whole; the extension feeds them meanwhile; the next update repairs the container and
  /// installs the new lists; CallKit converges to them.
  @Test(arguments: UpdateStep.allCases, [false, true])
  func crashAfterEveryStep(step: UpdateStep, changeset: Bool) throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    phone.converge()
    var crashing = phone.updater
    crashing.interruption = { $0 == step }
    let update = { (updater: ListUpdater) throws(UpdateError) -> ListUpdater.Result in
      changeset
        ? try updater.apply(changeset: try! Self.second.changeset(from: Self.first))
        : try updater.install(directory: try! Self.second.bytes())
    }
    let reached = !(step == .changesWritten && !changeset)
    if reached {
      #expect(throws: UpdateError.interrupted(step)) { try update(crashing) }
    } else {
      _ = try update(crashing)
    }
    let installedNew = !reached || step == .recorded || step == .cleaned
    let installed = try #require(phone.folder.container.installed())
    #expect(installed.listVersion == (installedNew ? 2 : 1), "after \(step)")
    // The extension runs before the app does again: it feeds what is installed.
    phone.converge()
    #expect(phone.holds(installedNew ? Self.second : Self.first), "after \(step)")

    let result = try update(phone.updater)
    #expect(result.changed == !installedNew)
    #expect(try phone.folder.names() == Self.expectedNames(phone.folder.container), "after \(step)")
    phone.converge()
    #expect(phone.holds(Self.second))
    #expect(!phone.updater.reloadNeeded)
    // When CallKit held the base, the change alone went, at the least cost.
    if changeset && !installedNew { #expect(phone.lastReport?.action == .changes) }
  }

  /// Three updates in a row keep two generations and drop the rest.
  @Test func keepsTheLastGoodVersionOnly() throws {
    let phone = try Phone()
    _ = try phone.updater.install(directory: try Self.first.bytes())
    _ = try phone.updater.apply(changeset: try Self.second.changeset(from: Self.first))
    let third = GroupList(blocking: [1...2], version: 3)
    _ = try phone.updater.install(directory: try third.bytes())
    #expect(try phone.folder.names() == ["installed.calldirstate", "list-2.calldir", "list-3.calldir"])
    let installed = try #require(phone.folder.container.installed())
    #expect(installed.previous?.number == 2 && !installed.hasChanges && installed.listVersion == 3)
  }
}

extension UpdateError: Equatable {
  /// Equal cases with equal values; changeset errors compare by their text (tests only).
  public static func == (a: UpdateError, b: UpdateError) -> Bool {
    switch (a, b) {
    case (.notAuthentic(let x), .notAuthentic(let y)): x == y
    case (.damaged(let x), .damaged(let y)): x == y
    case (.noBase, .noBase), (.baseMismatch, .baseMismatch): true
    case (.changeset(let x), .changeset(let y)): x.description == y.description
    case (.system(let x), .system(let y)): x == y
    case (.interrupted(let x), .interrupted(let y)): x == y
    default: false
    }
  }
}
