import CallDirectory
import Foundation
import Testing

/// A reloading directory serves only versions that verify whole, and an unauthenticated list
/// version never makes a later file a rollback (`Spec/RESOLUTION.md` section 5).
@Suite struct ResolverDamageTests {
  static let number: Int64 = 12_025_550_100

  /// Version `version` of a list: it identifies `number` as `v<version>` and blocks one number
  /// of its own, so that every answer tells which version gave it.
  static func list(_ version: UInt64, signedBy key: SigningKey? = nil) throws -> [UInt8] {
    var builder = DirectoryBuilder()
    builder.options.listVersion = version
    try builder.identify(number, label: "v\(version)")
    try builder.block(13_000_000_000 + Int64(version % 1_000_000))
    let bytes = try builder.encoded()
    return try key.map { try DirectorySigner.sign(bytes, key: $0) } ?? bytes
  }

  /// Renames `bytes` over `path`, as a publisher does.
  static func publish(_ bytes: [UInt8], at path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path + ".new"))
    #expect(unsafe rename(path + ".new", path) == 0)
  }

  /// The version `directory` serves now, read from its answer for `number`.
  static func servedVersion(_ directory: ReloadingDirectory) throws -> String? {
    try directory.current().label(for: number)
  }

  @Test func servesOnlyGoodVersionsUnderAStreamOfBadReplacements() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try Self.publish(try Self.list(1), at: path)
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    var generator = SeededGenerator(seed: 22)
    var served: UInt64 = 1
    var refused = 0
    for round in 0..<72 {
      let next = served + 1
      let good = try Self.list(next)
      var expectServed = served
      switch round % 6 {
      case 0:  // one bit changed anywhere
        var damaged = good
        let bit = Int(generator.next() % UInt64(damaged.count * 8))
        damaged[bit / 8] ^= 1 << UInt8(bit % 8)
        try Self.publish(damaged, at: path)
      case 1:  // truncated
        try Self.publish(Array(good[..<Int(generator.next() % UInt64(good.count))]), at: path)
      case 2:  // empty
        try Self.publish([], at: path)
      case 3:  // a FIFO: refused without blocking
        let fifo = scratch.path("fifo")
        #expect(unsafe mkfifo(fifo, 0o600) == 0)
        #expect(unsafe rename(fifo, path) == 0)
      case 4:  // the list version's bytes changed: refused, and the floor not raised
        var damaged = good
        let file = try CraftedFile(good)
        damaged[file.offset(of: .listVersion) + 7] ^= 0x40
        try Self.publish(damaged, at: path)
      default:
        try Self.publish(good, at: path)
        expectServed = next
      }
      let outcome = live.refresh()
      if expectServed == served {
        if case .reloaded = outcome { Issue.record("round \(round): a bad replacement was served") }
        refused += 1
      }
      served = expectServed
      #expect(try Self.servedVersion(live) == "v\(served)", "round \(round)")
      #expect(live.current().listVersion == served, "round \(round)")
    }
    #expect(served == 13 && refused == 60)
  }

  /// Without trusted keys, a valid file claiming a huge list version is served (nothing proves
  /// it false), but it does not make the true next version a rollback.
  @Test func anUnauthenticatedVersionNeverRaisesTheFloor() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try Self.publish(try Self.list(3), at: path)
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    try Self.publish(try Self.list(4_611_686_018_427_387_907), at: path)
    #expect(live.refresh() != .unchanged)
    try Self.publish(try Self.list(4), at: path)
    guard case .reloaded = live.refresh() else {
      Issue.record("version 4 was refused: \(String(describing: live.reloadFailure))")
      return
    }
    #expect(try Self.servedVersion(live) == "v4")
  }

  /// With trusted keys, the floor rises with each version served; an operator's floor holds
  /// from the start.
  @Test func aTrustedVersionRaisesTheFloor() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    let key = DamageFixtures.key
    let policy = TrustPolicy(trustedKeys: [key.publicKey], installedVersion: 2)
    try Self.publish(try Self.list(1, signedBy: key), at: path)
    #expect(throws: OpenError.notAuthentic(.rolledBack(installed: 2, offered: 1))) {
      try ReloadingDirectory(path: path, checkInterval: nil, trust: policy)
    }
    try Self.publish(try Self.list(5, signedBy: key), at: path)
    let live = try ReloadingDirectory(path: path, checkInterval: nil, trust: policy)
    for (version, signed, served) in [(9, false, 5), (4, true, 5), (6, true, 6), (5, true, 6), (8, true, 8)]
      as [(UInt64, Bool, Int)]
    {
      try Self.publish(try Self.list(version, signedBy: signed ? key : nil), at: path)
      live.refresh()
      #expect(try Self.servedVersion(live) == "v\(served)", "after version \(version)")
    }
  }

  /// A damaged first version is refused at start with the problem verification found, although
  /// the header opens.
  @Test func aDamagedFirstVersionIsRefused() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    var bytes = try Self.list(1)
    let file = try CraftedFile(bytes)
    bytes[file.offset(of: .labelData) + 6] ^= 0x01
    try Self.publish(bytes, at: path)
    _ = try CallDirectoryReader(path: path)  // opens: only its label block is damaged
    #expect {
      try ReloadingDirectory(path: path, checkInterval: nil)
    } throws: { error in
      guard case .format(let fault) = error as? OpenError, case .blockChecksumMismatch = fault.kind else { return false }
      return fault.section == "LDAT"
    }
  }
}
