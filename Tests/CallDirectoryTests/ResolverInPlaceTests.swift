import CallDirectory
import CallDirectorySystem
import Foundation
import Testing

/// A served file written in place, as `cp`, `curl -o` and a shell's `>` write it: the same inode,
/// new bytes, possibly half written or cut short (`Spec/RESOLUTION.md` section 5).
@Suite struct ResolverInPlaceTests {
  static let number = ResolverFixtures.number

  /// Writes `bytes` over the file at `path` in place: truncated, then written, same inode.
  static func overwrite(_ path: String, with bytes: [UInt8]) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    defer { try? handle.close() }
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
  }

  /// Flips one bit of the byte at `offset` of the file at `path`, in place.
  static func flip(_ path: String, at offset: UInt64) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: offset)
    let byte = try #require(try handle.read(upToCount: 1)).first ?? 0
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: Data([byte ^ 0x04]))
  }

  @Test func aFileRewrittenInPlaceIsServedOnceItVerifies() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    let identity = try FileIdentity(path: path)
    try Self.overwrite(path, with: ResolverFixtures.bytes(identification: [(Self.number, "Acme Support")]))
    #expect(try FileIdentity(path: path) == identity, "written in place, not renamed")
    guard case .reloaded(let reloaded) = live.refresh() else {
      Issue.record("an in-place rewrite was not picked up")
      return
    }
    #expect(reloaded == identity)
    #expect(try live.current().label(for: Self.number) == "Acme Support")
    #expect(try !live.current().isBlocked(Self.number))
    #expect(live.refresh() == .unchanged)
  }

  /// Damage, a cut and a half-written file, each in place: the version served (a copy) answers
  /// as before, every time, and each bad version is reported once; then a good file written in
  /// place over the bad one is served.
  @Test func badBytesWrittenInPlaceNeverReachAnAnswer() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    let good = try ResolverFixtures.bytes(blocking: [Self.number, Self.number + 1], identification: [(Self.number, "Old")])
    try Data(good).write(to: URL(fileURLWithPath: path))
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    let held = live.current()  // a query's reader, taken before the writes
    func answersAsBefore(_ step: String) throws {
      for reader in [held, live.current()] {
        #expect(try reader.isBlocked(Self.number) && reader.label(for: Self.number) == "Old", "\(step)")
        #expect(try reader.isBlocked(Self.number + 1) && !reader.isBlocked(Self.number + 2), "\(step)")
      }
    }
    // Damage in the index a lookup reads.
    try Self.flip(path, at: UInt64(good.count / 2))
    guard case .failed(.format) = live.refresh() else {
      Issue.record("damage in place was served or not reported")
      return
    }
    #expect(live.refresh() == .unchanged)
    try answersAsBefore("damaged")
    // Cut short, then emptied: a mapping would fault past the new end; a copy reads nothing new.
    let file = try #require(FileHandle(forWritingAtPath: path))
    try file.truncate(atOffset: UInt64(good.count / 3))
    try file.close()
    #expect(live.refresh() != .unchanged)
    try answersAsBefore("cut short")
    try Self.overwrite(path, with: [])
    #expect(live.refresh() != .unchanged)
    try answersAsBefore("emptied")
    // Half of a new version, as a slow writer leaves it for a moment, then the whole of it.
    let next = try ResolverFixtures.bytes(identification: [(Self.number, "New")])
    try Self.overwrite(path, with: Array(next.prefix(next.count / 2)))
    #expect(live.refresh() != .unchanged)
    try answersAsBefore("half written")
    try Self.overwrite(path, with: next)
    #expect(live.refresh() != .unchanged)
    #expect(try live.current().label(for: Self.number) == "New")
    #expect(live.reloadFailure == nil && live.reloadCount == 1)
    #expect(try held.label(for: Self.number) == "Old")
  }

  /// A mapped version is replaced at the next check too once its file is written in place
  /// (its own queries may have seen the new bytes, which is why copying is the default).
  @Test func aMappedVersionIsReplacedWhenItsFileIsWrittenInPlace() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try ResolverFixtures.write(path, blocking: [Self.number])
    let live = try ReloadingDirectory(path: path, checkInterval: nil, storage: .mapping)
    #expect(live.storage == .mapping)
    try Self.overwrite(path, with: ResolverFixtures.bytes(identification: [(Self.number, "Acme Support")]))
    guard case .reloaded = live.refresh() else {
      Issue.record("an in-place rewrite of a mapped file was not picked up")
      return
    }
    #expect(try live.current().label(for: Self.number) == "Acme Support")
  }

  /// A version read within a second of its file's last change is read again at each check
  /// (a write in the same tick of the file system's clock, at the same size, keeps the stamp),
  /// and kept, not reloaded, while its bytes are the same; then a same-size rewrite is served.
  @Test func aRecentlyWrittenFileIsComparedAgainNotReloaded() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    let first = try ResolverFixtures.bytes(blocking: [Self.number])
    let second = try ResolverFixtures.bytes(blocking: [Self.number + 2])
    #expect(first.count == second.count && first != second)
    try Data(first).write(to: URL(fileURLWithPath: path))
    let stamp = try FileStamp(path: path)
    #expect(!stamp.isSettled(at: FileStamp.wallClock()))
    #expect(stamp.isSettled(at: stamp.changed + 1_000_000_001))
    let live = try ReloadingDirectory(path: path, checkInterval: nil)
    #expect(live.refresh() == .unchanged && live.refresh() == .unchanged)
    #expect(live.reloadCount == 0)
    try Self.overwrite(path, with: second)
    guard case .reloaded = live.refresh() else {
      Issue.record("a same-size rewrite was not picked up")
      return
    }
    #expect(try live.current().isBlocked(Self.number + 2) && !live.current().isBlocked(Self.number))
  }
}
