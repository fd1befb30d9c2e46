import CallDirectory
import CallDirectorySystem
import Foundation
import Testing

@testable import CallDirectoryCLI

/// Lines longer than any caller string in `calldir resolve`'s standard-input form: one error
/// answer each, and their tails never answered as numbers.
@Suite struct CLILongLineTests {
  static let limit = LineReader.maximumCallerLineLength

  /// The lines a `LineReader` hands out when its input comes `chunkSize` bytes at a time.
  static func lines(_ input: [UInt8], chunkSize: Int) throws -> [[UInt8]] {
    var offset = 0
    var reader = LineReader(
      name: "<stdin>",
      chunks: { () throws(SystemError) -> [UInt8] in
        let chunk = Array(input[offset..<min(input.count, offset + chunkSize)])
        offset += chunk.count
        return chunk
      }, maximumLineLength: limit)
    var lines: [[UInt8]] = []
    while let line = try reader.nextLine({ (span) in (0..<span.count).map { span[$0] } }) { lines.append(line) }
    return lines
  }

  @Test(arguments: [3, 4096, 4097, 4098, 65536, 1 << 20])
  func overLongLinesAreCutOnceAndTheirTailsDropped(chunkSize: Int) throws {
    let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 70_000)
    let limitLine = [UInt8](repeating: UInt8(ascii: "y"), count: Self.limit)
    let input =
      junk + Array("\n+12025550100\r\n".utf8) + limitLine + Array("\r\n".utf8) + limitLine + Array("z\n".utf8)
      + Array("\n".utf8) + junk
    let lines = try Self.lines(input, chunkSize: chunkSize)
    #expect(lines.map(\.count) == [Self.limit + 1, 12, Self.limit, Self.limit + 1, 0, Self.limit + 1])
    #expect(lines[1] == Array("+12025550100".utf8))
    // Compared as a truth value: a failure prints no kilobytes of x.
    let cutFromTheStart = lines.first == Array(junk.prefix(Self.limit + 1))
    #expect(cutFromTheStart)
  }

  @Test func aLastLineWithoutItsEndIsHandedOut() throws {
    #expect(try Self.lines(Array("a\r\nb\r".utf8), chunkSize: 1) == [Array("a".utf8), Array("b".utf8)])
    #expect(try Self.lines([], chunkSize: 1).isEmpty)
    #expect(try Self.lines(Array("\n".utf8), chunkSize: 1) == [[]])
  }

  /// The case: 64 KiB of junk, then a number on the next line, gives two answers: one
  /// error for the junk, then the number's.
  @Test(arguments: [false, true]) func resolveAnswersALongLineWithOneError(json: Bool) throws {
    let scratch = try ScratchDirectory()
    let spam = scratch.path("spam.calldir")
    try ResolverFixtures.write(spam, blocking: [12_025_550_100])
    let junk = String(repeating: "1", count: 1 << 16)
    let result = calldirArguments(
      ["resolve"] + (json ? ["--json"] : []) + [spam], input: junk + "\n+12025550100\n" + junk + "2")
    #expect(result.status == 1)
    let answers = result.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(answers.count == 4, "\(answers.map { $0.prefix(80) })")
    let message = "line longer than \(Self.limit) bytes"
    let shown = String(repeating: "1", count: 64) + "..."
    let refusal =
      json ? "{\"input\":\"\(shown)\",\"error\":\"\(message)\"}" : "\(shown)\terror\t\(message)\t"
    #expect(answers.first.map(String.init) == refusal)
    #expect(answers.count > 2 && answers[2] == answers[0])
    #expect(answers.count > 1 && answers[1].contains("block"))
    #expect(result.error.components(separatedBy: message).count == 3)
  }
}
