import CallDirectorySystem
import CallDirectoryWriter
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `FileDescriptor.readAll` reads a regular file into an array of its size, then on to the end in
/// chunks: every byte once, in order, whatever the size says.
@Suite struct FileReadTests {
  static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) } }

  static func readAll(_ path: String, limit: Int = .max) throws(SystemError) -> [UInt8] {
    let file = try FileDescriptor.openForReading(path)
    return try file.closeAfter { () throws(SystemError) in try file.readAll(limit: limit) }
  }

  @Test("Regular files of any size read back whole", arguments: [0, 1, 4_095, 65_536, 65_537, 300_001])
  func regularFiles(count: Int) throws {
    let scratch = try ScratchDirectory()
    let bytes = Self.pattern(count)
    try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("f")))
    #expect(try Self.readAll(scratch.path("f")) == bytes)
  }

  @Test("A limit below the file's size is refused with EFBIG; one at its size is not")
  func limits() throws {
    let scratch = try ScratchDirectory()
    try Data(Self.pattern(100_000)).write(to: URL(fileURLWithPath: scratch.path("f")))
    #expect(try Self.readAll(scratch.path("f"), limit: 100_000).count == 100_000)
    for limit in [99_999, 1] {
      do {
        _ = try Self.readAll(scratch.path("f"), limit: limit)
        Issue.record("a file over the limit \(limit) was read")
      } catch {
        #expect(error.errno == EFBIG, "limit \(limit)")
      }
    }
  }

  @Test("A pipe, whose size says 0, reads to its end in chunks")
  func pipes() throws {
    var ends: [Int32] = [0, 0]
    #expect(unsafe pipe(&ends) == 0)
    let bytes = Self.pattern(200_000)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let writer = Thread {
      unsafe bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let written = unsafe write(writeEnd, raw.baseAddress! + done, raw.count - done)
          if written <= 0 { break }
          done += written
        }
      }
      close(writeEnd)
    }
    writer.start()
    let reader = FileDescriptor(rawValue: readEnd, path: "<pipe>")
    #expect(try reader.closeAfter { () throws(SystemError) in try reader.readAll() } == bytes)
  }

  #if os(Linux)
    @Test("A file whose size says 0 but holds bytes (a /proc file) is read to its end")
    func sizeSaysZero() throws {
      let file = try FileDescriptor.openForReading("/proc/self/maps")
      #expect(try file.size() == 0)
      let bytes = try file.closeAfter { () throws(SystemError) in try file.readAll() }
      #expect(bytes.count > 100 && bytes.last == 0x0A)
    }
  #endif
}

/// The writers' `write(to:)` stream the file to a temporary beside the path and rename it: the
/// file on disk is the encoded bytes, and a failure leaves the path as it was.
@Suite struct WriterAtomicOutputTests {
  @Test func builderWritesItsEncodedBytesAndFailsWithoutATrace() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("list.calldir")
    var builder = DirectoryBuilder()
    for index in 0..<2_000 { try builder.identify(12_025_550_000 + Int64(index), label: "Caller \(index % 300)") }
    try builder.block(12_025_560_000...12_025_569_999)
    try builder.write(to: path)
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(written == Data(try builder.encoded()))
    // A number given two labels: the writer's error, the old file untouched, no temporary left.
    try builder.identify(12_025_550_000, label: "Someone else")
    do {
      try builder.write(to: path)
      Issue.record("a number with two labels was written")
    } catch {
      guard case .conflictingLabels = error else {
        Issue.record("unexpected error \(error)")
        return
      }
    }
    #expect(try scratch.names() == ["list.calldir"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
  }
}
