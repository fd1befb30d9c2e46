import CallDirectory
import Foundation
import Synchronization
import Testing

@Suite struct ResolverReloadTests {
  static let number: Int64 = 12_025_550_100

  /// Queries until `done` holds, for at most five seconds: each query may start an automatic
  /// check, which runs on a thread of its own.
  static func query(_ resolver: Resolver, until done: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(5)
    while try !done() && Date() < deadline {
      _ = try resolver.resolve(number)
      usleep(2_000)
    }
  }

  @Test func picksUpAReplacedFileOnRefresh() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    #expect(live.refresh() == .unchanged)
    let old = live.current()
    #expect(try old.isBlocked(Self.number))

    try ResolverFixtures.write(path, identification: [(Self.number, "Acme Support")])
    // No automatic checks: the old version is served until asked.
    #expect(live.current() === old)
    guard case .reloaded(let identity) = live.refresh() else {
      Issue.record("not reloaded")
      return
    }
    #expect(live.servedIdentity == identity && live.reloadCount == 1)
    #expect(try live.current().label(for: Self.number) == "Acme Support")
    #expect(try !live.current().isBlocked(Self.number))
    // A reader taken before the swap still answers from its version (its mapping keeps it).
    #expect(try old.isBlocked(Self.number) && old.label(for: Self.number) == nil)
    #expect(live.refresh() == .unchanged)
  }

  /// What a reload records a failure under: the identity of the file a reader opened, even
  /// when the path names another file by the time anyone asks.
  @Test func aReaderKnowsTheFileItOpenedAfterThePathIsReplaced() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let first = try FileIdentity(path: path)
    let reader = try CallDirectoryReader(path: path)
    try ResolverFixtures.write(path, identification: [(Self.number, "Acme Support")])
    let second = try FileIdentity(path: path)
    #expect(first != second, "the fixture replaces the file by a rename")
    #expect(reader.fileIdentity == first)
    #expect(try CallDirectoryReader(path: path).fileIdentity == second)
    // The fields, from `import CallDirectory` alone: an inode number to log.
    #expect(reader.fileIdentity?.inode != second.inode || reader.fileIdentity?.device != second.device)
    #expect(try CallDirectoryReader(bytes: ResolverFixtures.bytes(blocking: [Self.number])).fileIdentity == nil)
  }

  @Test func checksByItselfWhenTheIntervalHasPassed() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let live = try ReloadingDirectory(path: path, checkInterval: .milliseconds(20))
    let resolver = try Resolver(sources: [.init(name: "live", provider: live)])
    #expect(try resolver.resolve(Self.number).action == .block)
    try ResolverFixtures.write(path, identification: [(Self.number, "Acme Support")])
    let deadline = Date().addingTimeInterval(5)
    while try resolver.resolve(Self.number).action != .identify && Date() < deadline { usleep(5_000) }
    #expect(try resolver.resolve(Self.number).label == "Acme Support")
    #expect(live.reloadCount == 1)
  }

  @Test func keepsServingTheOldVersionWhenTheNewOneIsBadAndReportsOnce() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let reports = Mutex<[String]>([])
    let live = try ReloadingDirectory(path: path, checkInterval: .zero) { directory, error in
      reports.withLock { $0.append("\(directory.path): \(error)") }
    }
    let resolver = try Resolver(sources: [.init(name: "live", provider: live)])

    // A damaged file renamed into place: not a call directory at all.
    try Data("not a directory, just text that is long enough to be read as a header".utf8)
      .write(to: URL(fileURLWithPath: scratch.path("bad.tmp")))
    let renamed = unsafe rename(scratch.path("bad.tmp"), path)  // over the served file, as a publisher does
    #expect(renamed == 0)
    for _ in 0..<10 { #expect(try resolver.resolve(Self.number).action == .block) }
    // The automatic check, on a thread of its own, meets it and reports it; later checks say
    // nothing new.
    try Self.query(resolver) { reports.withLock { $0.count } >= 1 }
    #expect(reports.withLock { $0.count } == 1)
    #expect(live.reloadFailure != nil)
    #expect(live.refresh() == .unchanged)
    #expect(reports.withLock { $0.count } == 1)

    // The path removed: reported once too, and still answering.
    try FileManager.default.removeItem(atPath: path)
    #expect(try resolver.resolve(Self.number).action == .block)
    try Self.query(resolver) { reports.withLock { $0.count } >= 2 }
    #expect(live.refresh() == .unchanged)
    #expect(reports.withLock { $0.count } == 2)
    #expect(reports.withLock { $0.last?.contains("No such file") } == true)

    // A good file again: served, and the failure is over.
    try ResolverFixtures.write(path, identification: [(Self.number, "Fixed")])
    try Self.query(resolver) { try resolver.resolve(Self.number).label == "Fixed" }
    #expect(try resolver.resolve(Self.number).label == "Fixed")
    #expect(live.reloadFailure == nil && live.reloadCount == 1)
  }

  /// A bad file removed, then a good one written: the good one may get the bad one's inode
  /// number (ext4 hands a freed number to the next file), yet it is opened and served, because
  /// the bad file stays mapped while its failure is remembered, so its number is not free.
  @Test func aGoodFileAfterARemovedBadOneIsServedWhateverItsInode() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    for round in 0..<5 {
      try Data(String(repeating: "not a directory ", count: 64).utf8).write(to: URL(fileURLWithPath: scratch.path("bad.tmp")))
      #expect(unsafe rename(scratch.path("bad.tmp"), path) == 0)
      guard case .failed = live.refresh() else {
        Issue.record("round \(round): the bad file was not reported")
        return
      }
      try FileManager.default.removeItem(atPath: path)
      try ResolverFixtures.write(path, identification: [(Self.number, "Round \(round)")])
      #expect(live.refresh() != .unchanged, "round \(round)")
      #expect(try live.current().label(for: Self.number) == "Round \(round)")
      #expect(live.reloadFailure == nil)
    }
  }

  /// A FIFO renamed over the path (a FIFO without a writer would block an open for reading):
  /// refused at once, reported once, and the old version served; then a good file again.
  @Test func aFIFOAtThePathIsRefusedWithoutWaiting() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let reports = Mutex<[String]>([])
    let live = try ReloadingDirectory(path: path, checkInterval: .zero) { _, error in
      reports.withLock { $0.append("\(error)") }
    }
    let resolver = try Resolver(sources: [.init(name: "live", provider: live)])
    let fifo = scratch.path("fifo")
    #expect(unsafe mkfifo(fifo, 0o600) == 0)
    #expect(unsafe rename(fifo, path) == 0)
    for _ in 0..<5 { #expect(try resolver.resolve(Self.number).action == .block) }
    try Self.query(resolver) { reports.withLock { $0.count } >= 1 }
    #expect(reports.withLock { $0.count } == 1)
    #expect(reports.withLock { $0.first?.contains("not a regular file") } == true, "\(reports.withLock { $0 })")
    #expect(Self.systemErrno { try CallDirectoryReader(path: path) } == ENODEV)
    try FileManager.default.removeItem(atPath: path)
    try ResolverFixtures.write(path, identification: [(Self.number, "Fixed")])
    try Self.query(resolver) { try resolver.resolve(Self.number).label == "Fixed" }
    #expect(try resolver.resolve(Self.number).label == "Fixed")
  }

  @Test func openingAMissingFileThrows() {
    #expect(Self.systemErrno { try ReloadingDirectory(path: "/nonexistent/dir/x.calldir") } == ENOENT)
  }

  /// The `errno` of the system error `open` throws, or `nil` when it throws another error or
  /// none.
  static func systemErrno(_ open: () throws -> some Any) -> Int32? {
    do { _ = try open() } catch { if case .system(let failure) = error as? OpenError { return failure.errno } }
    return nil
  }

  /// Many threads resolve while another replaces a directory's file, by atomic rename, again and
  /// again, alternating two versions whose answers differ. Every answer must be version A's or
  /// version B's for that number: never a mix of the two, never an error.
  @Test func concurrentQueriesDuringReplacementSeeOneVersionEach() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    let seed: UInt64 = 77_001
    print("seed \(seed)")
    var random = SeededGenerator(seed: seed)
    // Ten numbers the versions disagree about, and filler that moves every block boundary, so
    // that a label id or a block of one version read against the other would give a wrong answer.
    let numbers = (0..<10).map { 12_025_550_100 + Int64($0) }
    let fillerA = (0..<3_000).map { _ in Int64.random(in: 13_000_000_000...13_999_999_999, using: &random) }
    let fillerB = (0..<7_000).map { _ in Int64.random(in: 13_000_000_000...13_999_999_999, using: &random) }
    let versionA = (
      blocking: [numbers[0], numbers[2], numbers[4], numbers[9]] + fillerA,
      identification: [(numbers[0], "Spam A"), (numbers[1], "Alpha"), (numbers[5], "Zeta"), (numbers[6], "Alpha")]
        + fillerA.prefix(500).map { ($0, "Filler A \($0 % 97)") }
    )
    let versionB = (
      blocking: [numbers[1], numbers[3], numbers[5]] + fillerB,
      identification: [(numbers[0], "Beta"), (numbers[3], "Spam B"), (numbers[5], "Alpha"), (numbers[6], "Omega")]
        + fillerB.prefix(900).map { ($0, "Filler B \($0 % 89)") }
    )
    let contacts = try CallDirectoryReader(
      bytes: try ResolverFixtures.bytes(identification: [(numbers[2], "Mum"), (numbers[7], "Dentist")]))
    let business = try CallDirectoryReader(
      bytes: try ResolverFixtures.bytes(identification: [(numbers[8], "Acme Support"), (numbers[9], "Acme Billing")]))
    func stack(_ live: any DirectoryProvider) throws -> Resolver {
      try Resolver(sources: [
        .init(name: "contacts", role: .allowList, provider: contacts), .init(name: "live", provider: live),
        .init(name: "business", provider: business),
      ])
    }
    func answers(_ version: (blocking: [Int64], identification: [(Int64, String)])) throws -> [Resolution] {
      let reader = try CallDirectoryReader(
        bytes: try ResolverFixtures.bytes(blocking: version.blocking, identification: version.identification))
      return try numbers.map { try stack(reader).resolve($0) }
    }
    let expectedA = try answers(versionA)
    let expectedB = try answers(versionB)
    let differing = numbers.indices.filter { expectedA[$0] != expectedB[$0] }
    #expect(differing.count == 7, "the versions disagree about all but the three numbers the other directories decide")

    try ResolverFixtures.write(path, blocking: versionA.blocking, identification: versionA.identification)
    let live = try ReloadingDirectory(path: path, checkInterval: .zero)
    let resolver = try stack(live)

    final class Shared: Sendable {
      let writing = Atomic<Bool>(true)
      // Atomics, not a Mutex: ThreadSanitizer sees atomic operations compiled here but not the
      // prebuilt Mutex's lock, and would report the threads' final sums as a race.
      let a = Atomic<Int>(0), b = Atomic<Int>(0), wrong = Atomic<Int>(0)
      let errors = Atomic<Int>(0), queries = Atomic<Int>(0)
      let firstProblem = Mutex<String?>(nil)
    }
    let shared = Shared()
    let group = DispatchGroup()
    let threads = 6
    for thread in 0..<threads {
      group.enter()
      Thread {
        defer { group.leave() }
        var local = (a: 0, b: 0, wrong: 0, errors: 0, queries: 0)
        var index = thread
        while shared.writing.load(ordering: .relaxed) || local.queries < 1_000 {
          let position = index % numbers.count
          index &+= 7
          local.queries += 1
          do {
            let answer = try resolver.resolve(numbers[position])
            if answer == expectedA[position] && answer == expectedB[position] { continue }
            if answer == expectedA[position] {
              local.a += 1
            } else if answer == expectedB[position] {
              local.b += 1
            } else {
              local.wrong += 1
              shared.firstProblem.withLock { $0 = $0 ?? "\(numbers[position]): \(answer)" }
            }
          } catch {
            local.errors += 1
            shared.firstProblem.withLock { $0 = $0 ?? "\(numbers[position]): \(error)" }
          }
          if thread == 0 && local.queries % 97 == 0 { live.refresh() }
        }
        shared.a.add(local.a, ordering: .relaxed)
        shared.b.add(local.b, ordering: .relaxed)
        shared.wrong.add(local.wrong, ordering: .relaxed)
        shared.errors.add(local.errors, ordering: .relaxed)
        shared.queries.add(local.queries, ordering: .relaxed)
      }.start()
    }
    let swaps = 120
    for swap in 1...swaps {
      let version = swap % 2 == 1 ? versionB : versionA
      try ResolverFixtures.write(path, blocking: version.blocking, identification: version.identification)
      usleep(1_000)
    }
    shared.writing.store(false, ordering: .relaxed)
    group.wait()

    let counts = (
      a: shared.a.load(ordering: .relaxed), b: shared.b.load(ordering: .relaxed),
      wrong: shared.wrong.load(ordering: .relaxed), errors: shared.errors.load(ordering: .relaxed),
      queries: shared.queries.load(ordering: .relaxed)
    )
    print("concurrent resolve: \(counts.queries) queries, \(counts.a) from A, \(counts.b) from B, \(live.reloadCount) reloads")
    #expect(counts.wrong == 0 && counts.errors == 0, "\(shared.firstProblem.withLock { $0 } ?? "")")
    #expect(counts.a > 0 && counts.b > 0, "both versions were served")
    #expect(live.reloadCount > 1)
    // The last version written (A, after an even number of swaps) is what is served once a
    // check has run since (automatic checks run on threads of their own: one may still be due).
    live.refresh()
    #expect(try numbers.map { try resolver.resolve($0) } == expectedA)
  }
}
