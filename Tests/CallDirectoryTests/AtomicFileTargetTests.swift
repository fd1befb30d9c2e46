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

/// What an atomic write does with what is already at its target: a regular file keeps its
/// permissions, a symbolic link keeps pointing at the file it names, a FIFO is written in place
/// and stays a FIFO, a directory is refused.
@Suite struct AtomicFileTargetTests {
  static func write(_ text: String, to path: String) throws {
    try AtomicFile.write(to: path) { (sink) throws(SystemError) in try sink(Array(text.utf8)) }
  }

  static func mode(_ path: String, followingLinks: Bool = true) -> mode_t {
    var info = stat()
    _ = followingLinks ? unsafe stat(path, &info) : unsafe lstat(path, &info)
    return info.st_mode
  }

  @Test func aRegularFileKeepsItsPermissions() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("list.calldir")
    try Self.write("old", to: path)
    #expect(Self.mode(path) & 0o777 == 0o644 & ~Self.umaskBits)
    for permissions: mode_t in [0o600, 0o640, 0o755] {
      #expect(unsafe chmod(path, permissions) == 0)
      try Self.write("new \(permissions)", to: path)
      #expect(Self.mode(path) & 0o7777 == permissions)
      #expect(try String(contentsOfFile: path, encoding: .utf8) == "new \(permissions)")
    }
  }

  @Test func aSymbolicLinkIsFollowed() throws {
    let scratch = try ScratchDirectory()
    let target = scratch.path("target.csv")
    let link = scratch.path("link.csv")
    try Self.write("old", to: target)
    #expect(unsafe symlink(target, link) == 0)
    try Self.write("new", to: link)
    #expect(Self.mode(link, followingLinks: false) & 0o170000 == 0o120000)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
  }

  @Test func aFIFOIsWrittenInPlace() throws {
    let scratch = try ScratchDirectory()
    let fifo = scratch.path("pipe")
    #expect(unsafe mkfifo(fifo, 0o600) == 0)
    // A reader first, so that the writer's open does not wait for one.
    let reader = unsafe open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { _ = close(reader) }
    try Self.write("through the pipe", to: fifo)
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = unsafe read(reader, &buffer, buffer.count)
    #expect(count == 16)
    #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "through the pipe")
    #expect(Self.mode(fifo) & 0o170000 == 0o010000)
  }

  @Test func aDirectoryIsRefused() throws {
    let scratch = try ScratchDirectory()
    for target in [scratch.url.path, scratch.url.path + "/", scratch.path("missing") + "/"] {
      // A system error, not the producer's: the refusal comes before any content is asked for.
      #expect {
        try Self.write("x", to: target)
      } throws: { error in
        guard case .system(let failure) = error as? AtomicWriteError<SystemError> else { return false }
        return [EISDIR, ENOENT, ENOTDIR].contains(failure.errno)
      }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
  }

  /// The process's umask, which narrows a new file's permissions.
  static var umaskBits: mode_t {
    let bits = umask(0o022)
    umask(bits)
    return bits
  }
}
