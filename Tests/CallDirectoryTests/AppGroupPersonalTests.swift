import CallDirectory
import CallDirectoryCallKitModel
import Foundation
import Testing

/// The user's own list (`Spec/APPGROUP.md` section 6): kept in the container, merged into what
/// CallKit is fed with its precedence, and its changes fed as small incremental loads.
@Suite struct AppGroupPersonalTests {
  static let provider = GroupList(
    blocking: [100...100, 200...205, 300...300], identification: [(400...400, "Acme"), (500...501, "Bank")], version: 1)

  static func sample() throws -> PersonalList {
    var personal = PersonalList()
    try personal.block(150)  // the provider does not block it
    try personal.allow(202)  // inside the provider's blocking range
    try personal.allow(300)  // the provider's single block
    try personal.setLabel("Dentist", for: 400)  // the provider's label
    try personal.setLabel("Mum", for: 450)
    return personal
  }

  @Test func editsKeepOneAnswerANumber() throws {
    var personal = PersonalList()
    try personal.block(5)
    try personal.allow(5)
    #expect(personal.blocks(5) == false && personal.blocked.isEmpty)
    try personal.block(5)
    #expect(personal.blocks(5) == true && personal.allowed.isEmpty)
    personal.unlist(5)
    #expect(personal.blocks(5) == nil && personal.isEmpty)
    #expect(throws: PersonalListError.invalidNumber(0)) { try personal.block(0) }
    #expect(throws: PersonalListError.invalidLabel(number: 7)) { try personal.setLabel("", for: 7) }
    #expect(personal.isEmpty)
  }

  @Test func theRecordRoundTripsAndRefusesDamage() throws {
    let folder = try TemporaryContainer()
    let personal = try Self.sample()
    #expect(folder.container.personalList().isEmpty)
    try folder.container.save(personal)
    #expect(folder.container.personalList() == personal)
    // Every byte of the record changed: refused (an empty list), never a different list.
    let path = folder.container.path + "/personal.calldirstate"
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x10
      try Data(damaged).write(to: URL(fileURLWithPath: path))
      #expect(folder.container.personalList().isEmpty, "byte \(index)")
    }
  }

  @Test func aGrowingListStopsAtItsRecordsSize() throws {
    var personal = PersonalList()
    let label = String(repeating: "x", count: 60_000)
    try personal.setLabel(label, for: 1)
    #expect(throws: PersonalListError.tooLarge(bytes: 120_032)) { try personal.setLabel(label, for: 2) }
    #expect(personal.labels.count == 1)
  }

  @Test func aFullLoadFeedsTheMergeAndEditsGoIncrementally() throws {
    var phone = try Phone()
    _ = try phone.updater.install(directory: try Self.provider.bytes())
    var personal = try Self.sample()
    try phone.folder.container.save(personal)
    phone.converge()
    #expect(phone.holds(Self.provider, personal: personal))
    #expect(!phone.updater.reloadNeeded)
    // An edit: only the numbers it names are sent, in one incremental load.
    personal.unlist(202)
    try personal.block(600)
    try personal.setLabel(nil, for: 400)
    try phone.folder.container.save(personal)
    #expect(phone.updater.reloadNeeded)
    #expect(phone.converge() == 1)
    #expect(phone.lastReport?.action == .personal)
    // +…202 blocked again, +…600 blocked, +…400 back to Acme (a removal and an addition).
    #expect(phone.lastReport?.additions == 3 && phone.lastReport?.removals == 1)
    #expect(phone.holds(Self.provider, personal: personal))
    // A provider's changeset while the user's list stands: the change alone, filtered by it.
    var next = Self.provider
    next.version = 2
    next.blocking = [100...100, 150...152, 200...205]
    next.identification = [(400...400, "Acme Inc"), (500...501, "Bank")]
    _ = try phone.updater.apply(changeset: try next.changeset(from: Self.provider))
    phone.converge()
    #expect(phone.lastReport?.action == .changes)
    #expect(phone.holds(next, personal: personal))
    // Emptied, the list leaves the provider's answers.
    try phone.folder.container.save(PersonalList())
    phone.converge()
    #expect(phone.lastReport?.action == .personal)
    #expect(phone.holds(next))
  }

  @Test func withoutAProvidersListTheUsersAloneIsFed() throws {
    var phone = try Phone()
    var personal = PersonalList()
    try personal.block(150)
    try personal.setLabel("Mum", for: 450)
    try phone.folder.container.save(personal)
    #expect(phone.updater.reloadNeeded)
    phone.converge()
    #expect(phone.holds(GroupList(), personal: personal))
    #expect(!phone.updater.reloadNeeded)
    // Emptied, its entries are removed.
    try phone.folder.container.save(PersonalList())
    #expect(phone.updater.reloadNeeded)
    phone.converge()
    #expect(phone.store.blocking.isEmpty && phone.store.identification.isEmpty)
    #expect(!phone.updater.reloadNeeded)
    // Then the provider's list arrives and is merged with the list saved again.
    try phone.folder.container.save(personal)
    phone.converge()
    _ = try phone.updater.install(directory: try Self.provider.bytes())
    phone.converge()
    #expect(phone.holds(Self.provider, personal: personal))
  }

  @Test func splitLoadsLeaveRoomForTheUsersEntries() throws {
    var phone = try Phone(cap: 5)
    var big = Self.provider
    big.blocking.append(1_000...1_020)
    _ = try phone.updater.install(directory: try big.bytes())
    let personal = try Self.sample()
    try phone.folder.container.save(personal)
    let loads = phone.converge()
    #expect(loads > 1)
    #expect(phone.holds(big, personal: personal))
    #expect(phone.store.history.allSatisfy { $0.succeeded })
  }
}
