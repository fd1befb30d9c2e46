import CallDirectory
import CallDirectorySystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reader maps its file: what happens to the mapping when the file changes underneath it.
///
/// - Replaced by rename (how every writer here publishes): the old mapping stays valid and keeps
///   answering from the old version.
/// - Modified in place without changing size: the reader sees the new bytes and answers or throws
///   a typed error, as for any damaged file.
/// - Truncated in place: POSIX raises SIGBUS on touching a page past the new end. This is a limit
///   stated in `Spec/FORMAT.md`; writers here never modify a published file in place.
@Suite struct ReliabilityMappedFileTests {
  static let old = Contents(blocking: (0..<2_000).map { 12_025_550_000 + Int64($0) * 3 })
  static let new = Contents(identification: (0..<2_000).map { (12_025_550_000 + Int64($0) * 3 + 1, "New \($0 % 17)") })

  @Test func aReaderKeepsAnsweringFromTheOldFileWhileItIsReplaced() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    try AtomicFile.write(to: path) { (sink) throws(SystemError) in try sink(try! Self.old.encoded()) }
    let reader = try CallDirectoryReader(path: path)
    let newBytes = try Self.new.encoded()
    // Replace it many times while the old reader is in use, then remove it altogether.
    for round in 0..<20 {
      try AtomicFile.write(to: path) { (sink) throws(SystemError) in try sink(newBytes) }
      #expect(try reader.isBlocked(Self.old.blocking[round * 97]), "round \(round)")
      #expect(try reader.label(for: Self.new.identification[round].0) == nil)
    }
    #expect(try Contents.read(reader) == Self.old)
    #expect(try Contents.read(try CallDirectoryReader(path: path)) == Self.new)
    #expect(try Verifier.verify(path: path).isValid)
    try FileManager.default.removeItem(atPath: path)
    #expect(try Contents.read(reader) == Self.old)
    #expect(try reader.isBlocked(Self.old.blocking.last ?? 0))
  }

  @Test func aFileOverwrittenInPlaceGivesAnswersOrTypedErrors() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("live.calldir")
    let original = try Self.old.encoded()
    try Data(original).write(to: URL(fileURLWithPath: path))
    let reader = try CallDirectoryReader(path: path)
    let probes = Array(Self.old.blocking.prefix(50)) + [0, 1, Int64.max, 12_025_550_001]
    var random = SeededGenerator(seed: 0x0B5E_55ED)
    let descriptor = unsafe open(path, O_WRONLY)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var thrown = 0
    // Scribble over the mapped file through another descriptor, in place and at the same size.
    for round in 0..<64 {
      let offset = round == 0 ? 0 : Int.random(in: 0..<original.count, using: &random)
      let length = min(Int.random(in: 1...512, using: &random), original.count - offset)
      let garbage = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let written = unsafe garbage.withUnsafeBytes { unsafe pwrite(descriptor, $0.baseAddress, length, off_t(offset)) }
      #expect(written == length)
      for number in probes {
        do { _ = try reader.lookup(number) } catch { thrown += 1 }
      }
      do { _ = try Contents.read(reader) } catch { thrown += 1 }
    }
    // The file is damaged now: the verifier, reading the same pages, says so.
    #expect(try !Verifier.verify(path: path).isValid)
    #expect(thrown > 0)
  }

  @Test func truncatingAMappedFileRaisesSIGBUS() async throws {
    await #expect(processExitsWith: .signal(SIGBUS)) {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("calldir-sigbus-\(getpid()).calldir").path
      try Data(try ReliabilityMappedFileTests.old.encoded()).write(to: URL(fileURLWithPath: path))
      let reader = try CallDirectoryReader(path: path)
      _ = unsafe truncate(path, 0)
      _ = unsafe unlink(path)
      // Touching a page past the new end: the documented limit of mapping files.
      _ = try? Contents.read(reader)
    }
  }
}
