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

/// The `calldir` executable built beside the test bundle (`swift build --build-tests` and `swift
/// test` build every product into one folder), or `$CALLDIR_EXECUTABLE`.
enum CalldirExecutable {
  static var path: String {
    if let explicit = ProcessInfo.processInfo.environment["CALLDIR_EXECUTABLE"] { return explicit }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    // On Apple platforms the test binary sits inside NAME.xctest/Contents/MacOS.
    while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
    return folder.appendingPathComponent("calldir").path
  }

  /// Starts `calldir` with `arguments`, its output discarded.
  static func start(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs `calldir` to the end and returns its exit status and how long it took, in seconds.
  static func run(_ arguments: [String]) throws -> (status: Int32, seconds: Double) {
    let start = Date()
    let process = try self.start(arguments)
    process.waitUntilExit()
    return (process.terminationStatus, Date().timeIntervalSince(start))
  }

  /// Starts `calldir`, sends it SIGKILL after `delay` seconds, and waits for it to end.
  static func interrupt(_ arguments: [String], after delay: Double) throws {
    let process = try self.start(arguments)
    usleep(useconds_t(delay * 1_000_000))
    _ = kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

/// Killing `calldir pack` or `calldir patch` at any moment leaves the target either as it was or
/// complete, never partial; what it leaves behind is a recognisable temporary file, and the next
/// write to the same target removes it.
@Suite(.serialized) struct ReliabilityCrashSafetyTests {
  /// A block list big enough that packing it takes a moment in a debug build (a few tenths of a second).
  static func bigBlockList(count: Int, seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    var lines = ""
    lines.reserveCapacity(count * 14)
    for _ in 0..<count { lines += "+\(12_000_000_000 + Int64.random(in: 0..<1_000_000_000, using: &random))\n" }
    return lines
  }

  /// The kill points: fractions of one undisturbed run, from before `main` to just past the end.
  static let killFractions: [Double] = [0, 0.05, 0.3, 0.6, 0.85, 0.95, 1.05]

  /// Checks what a killed writer left: the target is `before` (or absent when `before` is nil) or
  /// exactly `complete`; every other new name is a temporary file of the target.
  static func checkAfterKill(
    _ scratch: ScratchDirectory, target: String, before: Data?, complete: Data, inputs: Set<String>, _ comment: String
  ) throws -> (completed: Bool, leftovers: [String]) {
    let now = FileManager.default.contents(atPath: scratch.path(target))
    if let now {
      #expect(now == before || now == complete, "\(comment): the target is \(now.count) bytes, neither old nor new")
      if now != before || before == complete {
        #expect(Verifier.verify([UInt8](now)).isValid, "\(comment): the new target does not verify")
      }
    } else {
      #expect(before == nil, "\(comment): the existing target was removed")
    }
    let leftovers = try scratch.names().filter { !inputs.contains($0) && $0 != target }
    for name in leftovers {
      #expect(
        AtomicFile.isTemporaryName(name) && name.hasPrefix(".\(target)\(AtomicFile.temporaryMarker)")
          || name.hasPrefix(".calldir-spool."),
        "\(comment): left \(name), which is not a temporary file of \(target)")
    }
    return (now == complete, leftovers)
  }

  @Test func killedPackLeavesTheTargetOldOrComplete() throws {
    let scratch = try ScratchDirectory()
    try scratch.write("big.txt", Self.bigBlockList(count: 20_000, seed: 0xC0FF_EE01))
    try scratch.write("small.txt", "+12025550100\n")
    let small = ["pack", "--quiet", "--block", scratch.path("small.txt"), "-o", scratch.path("out.calldir")]
    let big = ["pack", "--quiet", "--block", scratch.path("big.txt"), "-o", scratch.path("out.calldir")]
    // The expected results, from runs that are not interrupted.
    #expect(try CalldirExecutable.run(small).status == 0)
    let old = try #require(FileManager.default.contents(atPath: scratch.path("out.calldir")))
    let full = try CalldirExecutable.run(big)
    #expect(full.status == 0)
    let complete = try #require(FileManager.default.contents(atPath: scratch.path("out.calldir")))
    #expect(complete != old)

    var leftovers = 0
    for (replacing, fraction) in [true, false].flatMap({ replacing in Self.killFractions.map { (replacing, $0) } }) {
      let comment = "\(replacing ? "replacing" : "creating") the target, killed at \(fraction) of \(full.seconds) s"
      try? FileManager.default.removeItem(atPath: scratch.path("out.calldir"))
      if replacing { #expect(try CalldirExecutable.run(small).status == 0) }
      try CalldirExecutable.interrupt(big, after: full.seconds * fraction)
      let after = try Self.checkAfterKill(
        scratch, target: "out.calldir", before: replacing ? old : nil, complete: complete,
        inputs: ["big.txt", "small.txt"], comment)
      leftovers += after.leftovers.count
      // The next write to the target clears what the killed one left.
      #expect(try CalldirExecutable.run(small).status == 0, "\(comment)")
      let names = try scratch.names()
      #expect(names == ["big.txt", "out.calldir", "small.txt"], "\(comment): \(names)")
      #expect(FileManager.default.contents(atPath: scratch.path("out.calldir")) == old, "\(comment)")
    }
    // Whether a kill point lands between creating the temporary file and the rename depends on
    // timing, so the cleanup itself is checked deterministically in staleTemporariesOfDeadProcessesAreRemoved.
    print("killed pack \(2 * Self.killFractions.count) times; \(leftovers) temporary files left and cleared")
  }

  @Test func killedPatchLeavesTheTargetOldOrComplete() throws {
    let scratch = try ScratchDirectory()
    let list = Self.bigBlockList(count: 20_000, seed: 0xC0FF_EE02)
    try scratch.write("old.txt", list)
    try scratch.write("new.txt", "+12025550100\n" + list.split(separator: "\n").dropFirst(500).joined(separator: "\n") + "\n")
    for name in ["old", "new"] {
      let packed = calldir("pack", "--quiet", "--block", scratch.path("\(name).txt"), "-o", scratch.path("\(name).calldir"))
      #expect(packed.status == 0, "\(packed.error)")
    }
    #expect(calldir("diff", scratch.path("old.calldir"), scratch.path("new.calldir"), "-o", scratch.path("changes")).status == 0)
    let complete = try #require(FileManager.default.contents(atPath: scratch.path("new.calldir")))
    let old = try #require(FileManager.default.contents(atPath: scratch.path("old.calldir")))
    let inputs: Set<String> = ["old.txt", "new.txt", "old.calldir", "new.calldir", "changes"]
    let patch = ["patch", scratch.path("old.calldir"), scratch.path("changes"), "-o", scratch.path("out.calldir")]
    let full = try CalldirExecutable.run(patch)
    #expect(full.status == 0)
    #expect(FileManager.default.contents(atPath: scratch.path("out.calldir")) == complete)

    for (replacing, fraction) in [true, false].flatMap({ replacing in Self.killFractions.map { (replacing, $0) } }) {
      let comment = "\(replacing ? "replacing" : "creating") the target, killed at \(fraction) of \(full.seconds) s"
      try? FileManager.default.removeItem(atPath: scratch.path("out.calldir"))
      if replacing { try old.write(to: URL(fileURLWithPath: scratch.path("out.calldir"))) }
      try CalldirExecutable.interrupt(patch, after: full.seconds * fraction)
      _ = try Self.checkAfterKill(
        scratch, target: "out.calldir", before: replacing ? old : nil, complete: complete, inputs: inputs, comment)
      // A patch killed in place of an existing target never touched OLD.
      #expect(FileManager.default.contents(atPath: scratch.path("old.calldir")) == old, "\(comment)")
      #expect(try CalldirExecutable.run(patch).status == 0, "\(comment)")
      #expect(Set(try scratch.names()) == inputs.union(["out.calldir"]), "\(comment)")
    }
  }

  @Test func staleTemporariesOfDeadProcessesAreRemoved() throws {
    let scratch = try ScratchDirectory()
    // A PID that is not running: a child that has been reaped.
    let child = try CalldirExecutable.start(["--version"])
    child.waitUntilExit()
    let dead = child.processIdentifier
    let alive = getppid()
    let names = [
      ".out.calldir.calldir-tmp.\(dead).0",  // dead writer of this target: removed
      ".out.calldir.calldir-tmp.\(dead).7",  // removed
      ".calldir-spool.\(dead).0",  // a spool a dead writer had not yet unlinked: removed
      ".out.calldir.calldir-tmp.\(alive).0",  // a live process's: kept
      ".out.calldir.calldir-tmp.\(getpid()).3",  // this process's own: kept
      ".other.calldir.calldir-tmp.\(dead).0",  // another target's: kept
      ".out.calldir.calldir-tmp.x.0",  // not of the form: kept
      "out.calldir.calldir-tmp.\(dead).0",  // not hidden: kept
    ]
    for name in names { try scratch.write(name, "partial") }
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try builder.write(to: scratch.path("out.calldir"))
    let left = try scratch.names()
    #expect(left == (["out.calldir"] + names.dropFirst(3)).sorted(), "\(left)")
    #expect(try CallDirectoryReader(path: scratch.path("out.calldir")).isBlocked(12_025_550_100))
    // Asking directly removes nothing more: what is left belongs to the living or to other targets.
    #expect(AtomicFile.removeStaleTemporaries(for: scratch.path("out.calldir")).isEmpty)
  }
}
