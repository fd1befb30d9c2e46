import CallDirectory
import CallDirectoryCallKitModel
import Testing

/// Random histories of one phone: provider releases arriving whole or as changesets, some
/// damaged, signed by a stranger, rolled back or over the cap; app crashes between update steps;
/// the extension killed mid-load; the user turning the extension off and on; iOS choosing a full
/// load; the user editing their own list. After each event the invariants of issue 26 hold, for
/// the provider's list merged with the user's.
@Suite struct AppGroupHistoryTests {
  /// A random list of `version`: blocked runs and labelled runs in 1 ... 400, and, when `big`,
  /// a range of `3 * cap + 1` numbers so that it takes four loads.
  static func randomList(version: UInt64, cap: Int, big: Bool, using random: inout SeededGenerator) -> GroupList {
    var list = GroupList(version: version)
    var next = Int64.random(in: 1...20, using: &random)
    while next < 400 {
      let last = next + Int64.random(in: 0...(Int.random(in: 0..<4, using: &random) == 0 ? 6 : 0), using: &random)
      list.blocking.append(next...last)
      next = last + Int64.random(in: 2...40, using: &random)
    }
    next = Int64.random(in: 1...20, using: &random)
    let labels = ["Acme", "Bank", "Clinic"]
    while next < 400 {
      let last = next + Int64.random(in: 0...2, using: &random)
      list.identification.append((next...last, labels[Int.random(in: 0..<labels.count, using: &random)]))
      next = last + Int64.random(in: 2...50, using: &random)
    }
    if big { list.blocking.append(1_000...(1_000 + Int64(3 * cap))) }
    return list
  }

  /// The release after `previous`, as a provider makes them: most runs kept, some dropped or
  /// relabelled, a few new ones (in a band of their own above 400), and the big range when `big`.
  static func nextList(
    after previous: GroupList, cap: Int, big: Bool, using random: inout SeededGenerator
  ) -> GroupList {
    var list = GroupList(version: previous.version + 1)
    list.blocking = previous.blocking.filter { $0.upperBound < 1_000 && Int.random(in: 0..<10, using: &random) != 0 }
    list.identification = previous.identification.filter { _ in Int.random(in: 0..<10, using: &random) != 0 }.map {
      Int.random(in: 0..<10, using: &random) == 0 ? ($0.0, $0.1 + "+") : $0
    }
    let band = 400 + Int64(list.version) * 24
    list.blocking.append(band...(band + Int64.random(in: 0...3, using: &random)))
    list.identification.append(((band + 10)...(band + 10), "New \(list.version)"))
    if big { list.blocking.append(1_000...(1_000 + Int64(3 * cap))) }
    return list
  }

  /// What the app does with a download: a changeset it cannot apply falls back to the whole file.
  enum Download { case whole, changeset, damaged, foreign, rollback }

  @Test(arguments: UInt64(1)...24)
  func randomHistory(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let cap = [5, 40, 1_000][Int.random(in: 0..<3, using: &random)]
    print("history seed \(seed), cap \(cap)")
    var phone = try Phone(cap: cap)
    var releases: [GroupList] = []
    var installed: GroupList?
    var log: [String] = []
    var changesFed = 0
    var personal = PersonalList()

    func check(_ event: String) {
      log.append(event)
      let context = Comment(rawValue: "seed \(seed): \(log.joined(separator: ", "))")
      // After a load that succeeded with nothing left to do, CallKit holds the newest good list.
      if phone.store.history.last?.succeeded == true, !phone.updater.reloadNeeded {
        #expect(phone.holds(installed ?? GroupList(), personal: personal), context)
      }
    }

    /// Reloads until converged; checks the loads were the fewest the cap allows for what was sent.
    func converge(_ event: String, expectFewest: Bool, changes: FeedPlan? = nil) {
      let before = phone.outcomes.count
      let loads = phone.converge()
      let reports = phone.outcomes[before...].compactMap { (outcome) -> LoadReport? in
        if case .complete(let report) = outcome { return report }
        return nil
      }
      if expectFewest, reports.count == loads, let first = reports.first, first.action != .nothing {
        let sent = reports.reduce(0) { $0 + $1.additions }
        #expect(loads == max(1, (sent + cap - 1) / cap), "seed \(seed): \(event): \(loads) loads for \(sent) additions")
        if first.action == .replaced || first.action == .whole {
          #expect(sent == installed?.count ?? 0, "seed \(seed): \(event)")
        }
        // CallKit held the changeset's base, and its removals fit a load: the change alone goes.
        if let changes {
          changesFed += 1
          #expect(first.action == .changes, "seed \(seed): \(event)")
          #expect(sent == changes.additions, "seed \(seed): \(event)")
        }
      }
      check(event)
    }

    for _ in 0..<30 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0...3:
        let big = Int.random(in: 0..<5, using: &random) == 0
        let release =
          releases.last.map { Self.nextList(after: $0, cap: cap, big: big, using: &random) }
          ?? Self.randomList(version: 1, cap: cap, big: big, using: &random)
        releases.append(release)
        var download = [Download.whole, .changeset, .changeset, .damaged, .foreign, .rollback][
          Int.random(in: 0..<6, using: &random)]
        // A rollback needs an installed version above 1 to go below.
        if download == .rollback && (installed?.version ?? 0) < 2 { download = .foreign }
        let crashAt = Int.random(in: 0..<4, using: &random) == 0 ? UpdateStep.allCases.randomElement(using: &random) : nil
        let base = releases.count >= 2 ? releases[releases.count - 2] : GroupList()
        let held = (phone.store.blocking, phone.store.identification)
        let heldBase =
          download == .changeset && installed == base && phone.store.nextLoadIsIncremental && installed != nil
          && !phone.updater.reloadNeeded
        var refused = false
        let whole = try release.bytes()
        let changes = try release.changeset(from: base)
        var damaged = whole
        damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= 0x20
        let foreign = try release.bytes(signedBy: GroupKeys.stranger)
        let older = try GroupList(blocking: [1...1], version: max(1, installed?.version ?? 1) - 1).bytes()
        let attempt = { (updater: ListUpdater) throws(UpdateError) in
          switch download {
          case .whole: _ = try updater.install(directory: whole)
          case .changeset:
            do throws(UpdateError) {
              _ = try updater.apply(changeset: changes)
            } catch .noBase, .baseMismatch {
              _ = try updater.install(directory: whole)
            }
          case .damaged: _ = try updater.install(directory: damaged)
          case .foreign: _ = try updater.install(directory: foreign)
          case .rollback: _ = try updater.install(directory: older)
          }
        }
        var updater = phone.updater
        if let crashAt { updater.interruption = { $0 == crashAt } }
        do throws(UpdateError) {
          do throws(UpdateError) {
            try attempt(updater)
          } catch .interrupted {
            // The app starts again and retries the same download.
            try attempt(phone.updater)
          }
        } catch {
          refused = true
          #expect([.damaged, .foreign, .rollback].contains(download), "seed \(seed): \(download) refused: \(error)")
        }
        if refused {
          // A refused download never removes an entry CallKit holds.
          phone.reload()
          #expect(phone.store.blocking == held.0 && phone.store.identification == held.1, "seed \(seed): \(download)")
          check("\(download) refused")
        } else {
          installed = release
          let plan = try ChangeFeed(try ChangesetReader(bytes: changes), limit: cap, removalLimit: cap).plan()
          let event = "v\(release.version) \(download)\(big ? " big" : "")\(crashAt.map { " crash after \($0)" } ?? "")"
          // The user's entries take room in every load, so the fewest loads are counted without them.
          converge(event, expectFewest: personal.isEmpty, changes: heldBase && plan.removals <= cap ? plan : nil)
        }
      case 4:
        let kill = Int.random(in: 0...cap, using: &random)
        phone.reload(killAfter: kill)
        converge("kill after \(kill)", expectFewest: false)
      case 5:
        phone.store.setEnabled(false)
        #expect(phone.reload() == nil)
        phone.store.setEnabled(true)
        converge("off and on", expectFewest: false)
        #expect(phone.actions.last.map { $0 != nil } ?? true)
      case 6:
        phone.store.offerFullLoadNext()
        converge("full load", expectFewest: false)
      case 7:
        // The user edits their own list, kept smaller than a load (the loader's rule).
        let number = Int64.random(in: 1...460, using: &random)
        let room = personal.blocked.count + personal.labels.count < cap - 1
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where room: try personal.block(number)
        case 1: try personal.allow(number)
        case 2 where room: try personal.setLabel("Mine \(number)", for: number)
        case 3: try personal.setLabel(nil, for: personal.labels.keys.min() ?? number)
        default: personal.unlist(personal.blocked.first ?? number)
        }
        try phone.folder.container.save(personal)
        converge("personal edit of \(number)", expectFewest: false)
      default:
        phone.reload()
        check("reload")
      }
    }
    // Every load completed but the ones made to fail, and the store ends on the newest good list.
    #expect(phone.holds(installed ?? GroupList(), personal: personal), "seed \(seed)")
    let additions = phone.store.history.reduce(0) { $0 + $1.additions }
    print("seed \(seed): \(phone.store.history.count) loads, \(additions) additions, \(changesFed) changesets fed alone")
  }
}
