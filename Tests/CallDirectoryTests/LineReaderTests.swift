import CallDirectory
import CallDirectorySystem
import Foundation
import Testing

/// The one reader every text input goes through: pieces of whole lines that join back to the
/// input, line lengths refused at their line, gzip inflated, and the file closed however the
/// reader ends.
@Suite struct LineReaderTests {
  /// Every piece `reader` hands out, and the line count of each.
  static func pieces(_ reader: inout LineReader, size: Int) throws -> [(bytes: [UInt8], lines: Int)] {
    var pieces: [(bytes: [UInt8], lines: Int)] = []
    while let piece = try reader.nextPiece(size: size) { pieces.append(piece) }
    return pieces
  }

  /// A text of `count` lines of varied lengths, CRLF on every fifth, with or without a final LF.
  static func text(lines count: Int, finalLineEnd: Bool, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var text: [UInt8] = []
    for index in 0..<count {
      text += (0..<Int.random(in: 0...40, using: &rng)).map { _ in UInt8.random(in: 0x30...0x39, using: &rng) }
      if index % 5 == 0 { text.append(0x0D) }
      if index < count - 1 || finalLineEnd { text.append(0x0A) }
    }
    return text
  }

  /// A piece is at least `size` bytes and ends at the last LF read by then, so pieces are whole
  /// lines whatever the size.
  @Test(arguments: [1, 7, 100, 1 << 20], [false, true])
  func piecesOfAFileJoinBackWithTheirLineCounts(size: Int, finalLineEnd: Bool) throws {
    let scratch = try ScratchDirectory()
    let text = Self.text(lines: 700, finalLineEnd: finalLineEnd, seed: UInt64(size))
    let path = scratch.path("list.txt")
    try Data(text).write(to: URL(fileURLWithPath: path))
    var reader = try LineReader(path: path)
    let pieces = try Self.pieces(&reader, size: size)
    #expect(pieces.flatMap(\.bytes) == text)
    #expect(pieces.map(\.lines).reduce(0, +) == text.count { $0 == 0x0A })
    // Every piece but the last ends just after an LF, and holds as many LFs as it says.
    #expect(pieces.dropLast().allSatisfy { $0.bytes.last == 0x0A })
    #expect(pieces.allSatisfy { piece in piece.lines == piece.bytes.count { $0 == 0x0A } })
  }

  /// A reader of `bytes` handed out `chunkSize` bytes a read, as a pipe hands them out.
  static func reader(
    of bytes: [UInt8], chunkSize: Int, quotedFields: Bool = false, maximumLineLength: Int = LineReader.maximumLineLength
  ) -> LineReader {
    var offset = 0
    return LineReader(
      name: "in.txt",
      chunks: { () throws(SystemError) in
        defer { offset = min(bytes.count, offset + chunkSize) }
        return Array(bytes[offset..<min(bytes.count, offset + chunkSize)])
      }, maximumLineLength: maximumLineLength, quotedFields: quotedFields)
  }

  /// Bytes of every value, LFs among them, in chunks of every alignment: each LF is counted
  /// once, and no byte near 0x0A is taken for one.
  @Test(arguments: [1, 7, 8, 9, 4_099])
  func lineCountsHoldForBytesOfEveryValue(chunkSize: Int) throws {
    var rng = SeededGenerator(seed: 0x0A0A + UInt64(chunkSize))
    let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &rng) } + [0x0A, 0x0B, 0x8A, 0x0A, 0x09]
    var reader = Self.reader(of: bytes, chunkSize: chunkSize, quotedFields: false)
    let pieces = try Self.pieces(&reader, size: 3)
    #expect(pieces.flatMap(\.bytes) == bytes)
    #expect(pieces.map(\.lines).reduce(0, +) == bytes.count { $0 == 0x0A })
    #expect(pieces.allSatisfy { piece in piece.lines == piece.bytes.count { $0 == 0x0A } })
  }

  /// A quote in a comment line is no field's: pieces still end at every line outside quoted
  /// fields, rather than the rest of the input becoming one piece. A `#` inside a quoted field,
  /// at the start of one of its lines, is no comment: its quotes still count.
  @Test(arguments: [1, 3, 4_099])
  func commentQuotesDoNotHoldPiecesOpen(chunkSize: Int) throws {
    let text = Array(
      ("# Bob's \"list\n  # another \" stray\nnumber,label\n+12025550100,\"two\n# not a comment \"\" \nlines\"\n"
        + "+12025550101,Acme\n+12025550102,Beta\n").utf8)
    var reader = Self.reader(of: text, chunkSize: chunkSize, quotedFields: true)
    let pieces = try Self.pieces(&reader, size: 1)
    #expect(pieces.flatMap(\.bytes) == text)
    // Read a few bytes at a time, a piece ends at every line that ends outside a quoted field;
    // read at once, all of it is one piece.
    let shown = pieces.map { String(decoding: $0.bytes, as: UTF8.self) }
    let lines = [
      "# Bob's \"list\n", "  # another \" stray\n", "number,label\n", "+12025550100,\"two\n# not a comment \"\" \nlines\"\n",
      "+12025550101,Acme\n", "+12025550102,Beta\n",
    ]
    #expect(shown == (chunkSize < text.count ? lines : [lines.joined()]))
    // After a byte order mark, the first line is a comment all the same.
    var marked = Self.reader(of: [0xEF, 0xBB, 0xBF] + text, chunkSize: max(chunkSize, 3), quotedFields: true)
    let markedPieces = try Self.pieces(&marked, size: 1)
    #expect(markedPieces.count == (chunkSize < text.count ? lines.count : 1))
  }

  @Test(arguments: [1, 5, 64])
  func gzipIsInflatedAsItIsRead(size: Int) throws {
    let scratch = try ScratchDirectory()
    let text = Self.text(lines: 300, finalLineEnd: true, seed: 0x62_71)
    let compressed = try #require(Gzip.compress(text))
    // Told apart by its magic, and by its name when the magic is not there to see.
    let path = scratch.path("list.bin")
    try Data(compressed).write(to: URL(fileURLWithPath: path))
    var reader = try LineReader(path: path)
    #expect(try Self.pieces(&reader, size: size).flatMap(\.bytes) == text)
    var chunks = [compressed.prefix(1), compressed.dropFirst()].map(Array.init)
    var stream = LineReader(
      name: "<stdin>", chunks: { () throws(SystemError) in chunks.isEmpty ? [] : chunks.removeFirst() }, gzipLimit: 1 << 20)
    #expect(try Self.pieces(&stream, size: size).flatMap(\.bytes) == text)
  }

  @Test func aGzipStreamOverItsCapIsRefused() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("big.gz")
    try Data(try #require(Gzip.compress([UInt8](repeating: 0x41, count: 10_000)))).write(to: URL(fileURLWithPath: path))
    var reader = try LineReader(path: path, gzipLimit: 1_000)
    #expect {
      _ = try Self.pieces(&reader, size: 100)
    } throws: { error in
      guard let error = error as? LineReaderError, case .badGzip = error.kind else { return false }
      return error.file == path
    }
  }

  @Test func quotedFieldsKeepACSVRecordInOnePiece() throws {
    // A chunk a line: the reader ends a piece at the last LF it has read outside quotes.
    var chunks = ["a,\"one\n", "two\nthree\"\n", "b,plain\n", "c,\"x\"\"\n", "y\"\n"].map { Array($0.utf8) }
    var reader = LineReader(
      name: "list.csv", chunks: { () throws(SystemError) in chunks.isEmpty ? [] : chunks.removeFirst() }, quotedFields: true)
    let pieces = try Self.pieces(&reader, size: 1)
    #expect(
      pieces.map { String(decoding: $0.bytes, as: UTF8.self) } == ["a,\"one\ntwo\nthree\"\n", "b,plain\n", "c,\"x\"\"\ny\"\n"])
    #expect(pieces.map(\.lines) == [3, 1, 2])
  }

  /// A line of exactly the limit passes, its CR counted; one byte more is refused with its line
  /// number, whether its LF has been read or not.
  @Test(arguments: [1, 3, 1 << 20])
  func aLineOverTheLimitIsRefusedAtItsLine(chunkSize: Int) throws {
    func reader(_ text: String) -> LineReader {
      Self.reader(of: Array(text.utf8), chunkSize: chunkSize, maximumLineLength: 10)
    }
    var fits = reader("0123456789\n012345678\r\n0123456789")
    let pieces = try Self.pieces(&fits, size: 4)
    #expect(pieces.flatMap(\.bytes) == Array("0123456789\n012345678\r\n0123456789".utf8))
    #expect(pieces.map(\.lines).reduce(0, +) == 2)
    for (text, line) in [("a\n0123456789\r\nb\n", 2), ("a\nb\nc\n01234567890", 4), ("01234567890123456789", 1)] {
      var refused = reader(text)
      #expect(throws: LineReaderError(file: "in.txt", kind: .lineTooLong(line: line, limit: 10))) {
        _ = try Self.pieces(&refused, size: 1 << 20)
      }
    }
    #expect(
      LineReaderError(file: "in.txt", kind: .lineTooLong(line: 4, limit: 10)).description == "in.txt:4: line longer than 10 bytes"
    )
  }

  @Test func aMissingFileIsNamed() {
    let path = "/nonexistent/list.txt"
    #expect(throws: LineReaderError(file: path, kind: .unreadable("No such file or directory"))) {
      _ = try LineReader(path: path)
    }
  }

  /// The descriptors this process holds open on `path`.
  static func descriptors(on path: String) throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count { name in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name)) == path
    }
  }

  @Test func theFileIsClosedAtItsEndAndWhenTheReaderIsDroppedEarly() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("three-mib.txt")
    try Data(Self.text(lines: 200_000, finalLineEnd: true, seed: 3)).write(to: URL(fileURLWithPath: path))
    do {
      var reader = try LineReader(path: path)
      #expect(try reader.nextPiece(size: 1 << 16) != nil)
      #expect(try Self.descriptors(on: path) == 1)
    }
    #expect(try Self.descriptors(on: path) == 0)
    var reader = try LineReader(path: path)
    _ = try Self.pieces(&reader, size: 1 << 20)
    #expect(try Self.descriptors(on: path) == 0)
  }
}
