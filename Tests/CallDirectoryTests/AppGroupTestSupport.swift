import CallDirectory
import CallDirectoryCallKitModel
import Foundation

/// A fresh directory standing for an App Group container, removed at the end of the test.
final class TemporaryContainer: Sendable {
  let path: String
  var container: AppGroupContainer { AppGroupContainer(path: path) }

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-group-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The names in the container, sorted, without temporary files.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).filter { !$0.hasPrefix(".") }.sorted()
  }

  /// Overwrites `name` with `bytes`, as damage on disk would (not through the updater).
  func damage(_ name: String, at offset: Int? = nil) throws {
    let url = URL(fileURLWithPath: path).appendingPathComponent(name)
    var bytes = [UInt8](try Data(contentsOf: url))
    let place = offset ?? bytes.count / 2
    bytes[place] ^= 0x40
    try Data(bytes).write(to: url)
  }
}

/// The provider's key and a stranger's, for signed lists.
enum GroupKeys {
  static let provider = SigningKey(seed: Array(repeating: 0x3C, count: 32))!
  static let stranger = SigningKey(seed: Array(repeating: 0xC3, count: 32))!
}

/// A list as plain runs, and its bytes.
struct GroupList: Equatable {
  var blocking: [ClosedRange<Int64>] = []
  var identification: [(ClosedRange<Int64>, String)] = []
  var version: UInt64 = 1

  static func == (a: GroupList, b: GroupList) -> Bool {
    a.blocking == b.blocking && a.version == b.version
      && a.identification.elementsEqual(b.identification) { $0.0 == $1.0 && $0.1 == $1.1 }
  }

  /// The directory, signed by `key` (the provider's by default; `nil`: unsigned).
  func bytes(signedBy key: SigningKey? = GroupKeys.provider) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.listVersion = version
    for run in blocking { try builder.block(run) }
    for (run, label) in identification { try builder.identify(run, label: label) }
    let bytes = try builder.encoded()
    return try key.map { (key) throws(FormatError) in try DirectorySigner.sign(bytes, key: key) } ?? bytes
  }

  /// The signed changeset from `old` to this list.
  func changeset(from old: GroupList, signedBy key: SigningKey = GroupKeys.provider) throws -> [UInt8] {
    let diff = try Changeset.diff(
      old: try CallDirectoryReader(bytes: try old.bytes()), new: try CallDirectoryReader(bytes: try bytes()))
    return try ChangesetSigner.sign(diff, key: key)
  }

  /// The entries CallKit should hold for this list, ranges expanded.
  var expanded: (blocking: Set<Int64>, identification: [Int64: String]) {
    var numbers = Set<Int64>()
    for run in blocking { numbers.formUnion(run) }
    var labels: [Int64: String] = [:]
    for (run, label) in identification { for number in run { labels[number] = label } }
    return (numbers, labels)
  }

  /// Numbers of both kinds.
  var count: Int { expanded.blocking.count + expanded.identification.count }

  /// The entries CallKit should hold for this list merged with the user's own (`Spec/APPGROUP.md`
  /// section 6): the user's allows unblock, their blocks add, their labels replace.
  func merged(with personal: PersonalList) -> (blocking: Set<Int64>, identification: [Int64: String]) {
    var (blocking, identification) = expanded
    blocking.subtract(personal.allowed)
    blocking.formUnion(personal.blocked)
    identification.merge(personal.labels) { _, mine in mine }
    return (blocking, identification)
  }
}

/// One phone: the container, the app's updater, the extension's loader and the model of CallKit.
struct Phone {
  let folder: TemporaryContainer
  var updater: ListUpdater
  let loader: CallDirectoryLoader
  var store: CallKitModel
  /// Every load's outcome, in order.
  var outcomes: [LoadOutcome] = []

  init(cap: Int = 1_000) throws {
    folder = try TemporaryContainer()
    updater = ListUpdater(container: folder.container, trustedKeys: [GroupKeys.provider.publicKey])
    loader = try CallDirectoryLoader(
      container: folder.container, trust: TrustPolicy(trustedKeys: [GroupKeys.provider.publicKey]), limit: cap)
    store = CallKitModel(cap: cap)
  }

  /// One CallKit request served by the loader, the extension killed after `killAfter` calls when
  /// given; the request is completed or cancelled as the outcome says.
  /// - Returns: the outcome, or `nil` when the extension is disabled.
  @discardableResult
  mutating func reload(killAfter: Int? = nil) -> LoadOutcome? {
    guard var load = try? store.beginLoad() else { return nil }
    load.callsBeforeKill = killAfter
    let outcome = loader.load(into: &load)
    switch outcome {
    case .complete: _ = try? store.complete(load)
    case .fail(let failure): _ = try? store.cancel(load, reason: failure.reason)
    }
    outcomes.append(outcome)
    return outcome
  }

  /// Reloads as the app does: once, then again while the last one succeeded and the updater says
  /// another is needed (`reloadNeeded(since:)`), at most `limit` times. Returns the loads made.
  @discardableResult
  mutating func converge(limit: Int = 1_000) -> Int {
    var loads = 0
    var again = false
    repeat {
      let before = folder.container.holding()
      guard reload() != nil else { return loads }
      loads += 1
      again = store.history.last?.succeeded == true && updater.reloadNeeded(since: before)
    } while again && loads < limit
    return loads
  }

  /// Whether the model holds exactly `list`, merged with the user's list `personal`.
  func holds(_ list: GroupList, personal: PersonalList = PersonalList()) -> Bool {
    let expected = list.merged(with: personal)
    return store.blocking == expected.blocking && store.identification == expected.identification
  }

  /// The action of every load, `nil` for one that failed.
  var actions: [LoadAction?] {
    outcomes.map { (outcome) -> LoadAction? in
      if case .complete(let report) = outcome { return report.action }
      return nil
    }
  }

  /// The report of the last load, if it completed.
  var lastReport: LoadReport? {
    if case .complete(let report) = outcomes.last { return report }
    return nil
  }
}
