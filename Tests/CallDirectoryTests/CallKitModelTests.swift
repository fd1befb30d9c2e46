import CallDirectory
import CallDirectoryCallKitModel
import Testing

/// Each rule of the model of CallKit, with the model refusing what CallKit refuses; every refusal
/// fails the load, empties the store and makes the next load full.
@Suite struct CallKitModelTests {
  /// A store holding blocked 10 and 20 and identified 30 after one successful full load.
  static func holding() throws -> CallKitModel {
    var store = CallKitModel()
    var load = try store.beginLoad()
    try load.addBlockingEntry(10)
    try load.addBlockingEntry(20)
    try load.addIdentificationEntry(30, label: "Acme")
    try store.complete(load)
    return store
  }

  /// Completes `load` expecting `error`, and checks the store was emptied and reset.
  static func expectFailure(_ store: inout CallKitModel, _ load: CallKitModelLoad, _ error: CallKitModelError) {
    #expect(throws: error) { try store.complete(load) }
    #expect(store.blocking.isEmpty && store.identification.isEmpty)
    #expect(!store.nextLoadIsIncremental)
    #expect(store.history.last?.outcome == .failed(error))
  }

  @Test func additionsAscendPerKind() throws {
    var store = try Self.holding()
    var load = try store.beginLoad()
    try load.addBlockingEntry(50)
    // The other kind has its own order: identification may start below the last blocked number.
    try load.addIdentificationEntry(5, label: "Low")
    #expect(throws: CallKitModelError.entriesOutOfOrder(kind: .blocking, previous: 50, number: 40)) {
      try load.addBlockingEntry(40)
    }
    // A load that broke a rule refuses every later call with the same error.
    #expect(throws: CallKitModelError.entriesOutOfOrder(kind: .blocking, previous: 50, number: 40)) {
      try load.addBlockingEntry(60)
    }
    Self.expectFailure(&store, load, .entriesOutOfOrder(kind: .blocking, previous: 50, number: 40))
  }

  @Test func noDuplicateInALoad() throws {
    var store = CallKitModel()
    var load = try store.beginLoad()
    try load.addBlockingEntry(7)
    try load.addIdentificationEntry(7, label: "Same number, other kind")
    #expect(throws: CallKitModelError.duplicateEntries(kind: .identification, number: 7)) {
      try load.addIdentificationEntry(7, label: "Again")
    }
    Self.expectFailure(&store, load, .duplicateEntries(kind: .identification, number: 7))
  }

  /// The model's stricter reading: an incremental load adds only numbers it does not hold.
  @Test func incrementalLoadDoesNotAddAHeldNumber() throws {
    var store = try Self.holding()
    var load = try store.beginLoad()
    #expect(load.isIncremental)
    #expect(throws: CallKitModelError.duplicateEntries(kind: .blocking, number: 20)) { try load.addBlockingEntry(20) }
    Self.expectFailure(&store, load, .duplicateEntries(kind: .blocking, number: 20))

    // Removed first, as for a new label, it may come back in the same load.
    store = try Self.holding()
    load = try store.beginLoad()
    try load.removeIdentificationEntry(30)
    try load.addIdentificationEntry(30, label: "Acme Support")
    try store.complete(load)
    #expect(store.identification == [30: "Acme Support"])
  }

  @Test func atMostTheCapOfAdditionsBothKindsTogether() throws {
    var store = CallKitModel(cap: 3)
    var load = try store.beginLoad()
    try load.addBlockingEntry(1)
    try load.addBlockingEntry(2)
    try load.addIdentificationEntry(1, label: "L")
    #expect(throws: CallKitModelError.maximumEntriesExceeded(cap: 3)) { try load.addIdentificationEntry(2, label: "L") }
    Self.expectFailure(&store, load, .maximumEntriesExceeded(cap: 3))
  }

  /// CallKit's own figure: 2,000,000 additions pass, one more fails the load.
  @Test func defaultCapIsTwoMillion() throws {
    var store = CallKitModel()
    #expect(store.cap == 2_000_000)
    var load = try store.beginLoad()
    for number in 1...Int64(1_000_000) { try load.addBlockingEntry(number) }
    for number in 1...Int64(1_000_000) { try load.addIdentificationEntry(number, label: "L") }
    #expect(throws: CallKitModelError.maximumEntriesExceeded(cap: 2_000_000)) { try load.addBlockingEntry(2_000_000) }
    Self.expectFailure(&store, load, .maximumEntriesExceeded(cap: 2_000_000))
  }

  /// A full load starts from nothing: what it does not send is gone once it completes, and until
  /// then the old entries stay.
  @Test func fullLoadReplacesEverything() throws {
    var store = try Self.holding()
    store.offerFullLoadNext()
    var load = try store.beginLoad()
    #expect(!load.isIncremental)
    try load.addBlockingEntry(20)
    #expect(store.blocking == [10, 20])
    try store.complete(load)
    #expect(store.blocking == [20])
    #expect(store.identification.isEmpty)
  }

  @Test func incrementalOnlyAfterASuccessfulLoad() throws {
    var store = CallKitModel()
    var load = try store.beginLoad()
    #expect(!load.isIncremental)
    try store.complete(load)
    load = try store.beginLoad()
    #expect(load.isIncremental)
    #expect(throws: CallKitModelError.cancelled("damaged")) { try store.cancel(load, reason: "damaged") }
    load = try store.beginLoad()
    #expect(!load.isIncremental)
  }

  @Test(arguments: [EntryKind.blocking, .identification])
  func removalsOnlyInIncrementalLoads(kind: EntryKind) throws {
    for one in [true, false] {
      var store = try Self.holding()
      store.offerFullLoadNext()
      var load = try store.beginLoad()
      #expect(throws: CallKitModelError.unexpectedIncrementalRemoval(kind: kind)) {
        switch (kind, one) {
        case (.blocking, true): try load.removeBlockingEntry(10)
        case (.blocking, false): try load.removeAllBlockingEntries()
        case (.identification, true): try load.removeIdentificationEntry(30)
        case (.identification, false): try load.removeAllIdentificationEntries()
        }
      }
      Self.expectFailure(&store, load, .unexpectedIncrementalRemoval(kind: kind))
    }
  }

  @Test func removingAnAbsentNumberIsHarmless() throws {
    var store = try Self.holding()
    var load = try store.beginLoad()
    try load.removeBlockingEntry(11)
    try load.removeIdentificationEntry(10)
    try load.removeBlockingEntry(10)
    try store.complete(load)
    #expect(store.blocking == [20])
    #expect(store.identification == [30: "Acme"])
  }

  @Test(arguments: [0, Limits.maximumLabelBytes + 1])
  func labelsHaveOneTo65534Bytes(bytes: Int) throws {
    var store = CallKitModel()
    var load = try store.beginLoad()
    try load.addIdentificationEntry(1, label: "é")
    try load.addIdentificationEntry(2, label: String(repeating: "x", count: Limits.maximumLabelBytes))
    #expect(throws: CallKitModelError.invalidLabel(number: 3, bytes: bytes)) {
      try load.addIdentificationEntry(3, label: String(repeating: "x", count: bytes))
    }
    Self.expectFailure(&store, load, .invalidLabel(number: 3, bytes: bytes))
  }

  @Test(arguments: [Int64.min, -1, 0, Int64.max])
  func numbersLieInTheDomain(number: Int64) throws {
    var store = CallKitModel()
    var load = try store.beginLoad()
    try load.addBlockingEntry(Limits.maximumNumber)
    #expect(throws: CallKitModelError.numberOutOfRange(kind: .identification, number: number)) {
      try load.addIdentificationEntry(number, label: "L")
    }
    Self.expectFailure(&store, load, .numberOutOfRange(kind: .identification, number: number))
  }

  /// A kill mid-load: the calls stop, and the load fails whether or not it is completed.
  @Test func killMidLoadDeletesEverything() throws {
    var store = try Self.holding()
    var load = try store.beginLoad()
    load.callsBeforeKill = 2
    try load.removeBlockingEntry(10)
    try load.addBlockingEntry(40)
    #expect(throws: CallKitModelError.loadingInterrupted) { try load.addBlockingEntry(50) }
    Self.expectFailure(&store, load, .loadingInterrupted)

    store = try Self.holding()
    load = try store.beginLoad()
    try load.addBlockingEntry(40)
    #expect(throws: CallKitModelError.loadingInterrupted) { try store.interrupt(load) }
    #expect(store.blocking.isEmpty && !store.nextLoadIsIncremental)
  }

  @Test func disablingDeletesAndEnablingMakesTheNextLoadFull() throws {
    var store = try Self.holding()
    let running = try store.beginLoad()
    store.setEnabled(false)
    #expect(store.blocking.isEmpty && store.identification.isEmpty)
    #expect(throws: CallKitModelError.extensionDisabled) { try store.beginLoad() }
    // The load the user's switch interrupted cannot complete.
    #expect(throws: CallKitModelError.loadingInterrupted) { try store.complete(running) }
    store.setEnabled(true)
    #expect(try !store.beginLoad().isIncremental)
  }

  @Test func oneLoadAtATime() throws {
    var store = CallKitModel()
    let first = try store.beginLoad()
    #expect(throws: CallKitModelError.currentlyLoading) { try store.beginLoad() }
    try store.complete(first)
    // A load already completed cannot complete again.
    #expect(throws: CallKitModelError.loadingInterrupted) { try store.complete(first) }
    #expect(store.history.map(\.outcome) == [.completed])
  }

  /// The package's feeds drive the model: a directory over several loads, then a changeset.
  @Test(arguments: [UInt64(11), 12, 13])
  func feedsFillTheModel(seed: UInt64) throws {
    let before = try FeedCase.random(seed: seed, items: 60, extremes: true)
    let after = try FeedCase.random(seed: seed &+ 100, items: 70, extremes: false)
    print("model fed \(before), then a changeset to \(after)")
    var store = CallKitModel(cap: 500)
    let directory = try DirectoryFeed(try CallDirectoryReader(bytes: before.bytes), limit: 500)
    var cursor: FeedCursor?
    repeat {
      var load = try store.beginLoad()
      cursor = try directory.feed(into: &load, resumingFrom: cursor)
      try store.complete(load)
    } while cursor != nil
    #expect(store.history.count == (try directory.plan()).loadsNeeded)
    #expect(Self.contents(store) == before.expected)

    let changes = try ChangesetReader(
      bytes: try Changeset.diff(
        old: try CallDirectoryReader(bytes: before.bytes), new: try CallDirectoryReader(bytes: after.bytes)))
    let feed = try ChangeFeed(changes, limit: 500, removalLimit: .max)
    repeat {
      var load = try store.beginLoad()
      cursor = try feed.feed(into: &load, resumingFrom: cursor)
      try store.complete(load)
    } while cursor != nil
    #expect(Self.contents(store) == after.expected)
    #expect(store.history.allSatisfy { $0.succeeded })
  }

  /// The store's entries in the order a directory lists them.
  static func contents(_ store: CallKitModel) -> Contents {
    Contents(
      blocking: store.blocking.sorted(),
      identification: store.identification.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
  }
}
