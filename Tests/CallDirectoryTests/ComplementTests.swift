import CallDirectory
import Foundation
import Testing

/// `calldir complement`: with the directories it is given, its blocking list tiles the span
/// without overlap.
@Suite struct ComplementTests {
  /// Random directories of entries and ranges of both kinds, in and around a span: every number
  /// of the span is listed by a directory or blocked by the complement, never both, and nothing
  /// outside the span is blocked.
  @Test("The complement and the directories tile the span", arguments: 0..<6)
  func tiles(seed: UInt64) throws {
    var rng = SeededGenerator(seed: 0xC0DE &+ seed)
    let scratch = try ScratchDirectory()
    let span: ClosedRange<Int64> = 5_000...5_999
    var listed = Set<Int64>()
    var files: [String] = []
    for index in 0..<Int.random(in: 1...3, using: &rng) {
      var builder = DirectoryBuilder()
      for _ in 0..<Int.random(in: 0...40, using: &rng) {
        let first = Int64.random(in: 4_900...6_100, using: &rng)
        let last = first + (Bool.random(using: &rng) ? 0 : Int64.random(in: 1...60, using: &rng))
        if Bool.random(using: &rng) {
          try builder.block(first...last)
        } else {
          try builder.identify(first...last, label: "L\(index)")
        }
        listed.formUnion(first...last)
      }
      let path = scratch.path("d\(index).calldir")
      try builder.write(to: path)
      files.append(path)
    }
    let out = scratch.path("dno.calldir")
    let result = calldirArguments(["complement"] + files + ["--span", "+5000..+5999", "-o", out, "--json"])
    #expect(result.status == 0, "\(result.error)")
    let reader = try CallDirectoryReader(path: out)
    for number in (span.lowerBound - 5)...(span.upperBound + 5) {
      let blocked = try reader.isBlocked(number)
      #expect(blocked == (span.contains(number) && !listed.contains(number)), "seed \(seed): +\(number)")
    }
    let gaps = span.filter { !listed.contains($0) }.count
    #expect(result.output.contains("\"numbers\":\(gaps),\"listed\":\(span.count - gaps)}"), "\(result.output)")
  }

  @Test func edges() throws {
    let scratch = try ScratchDirectory()
    var builder = DirectoryBuilder()
    try builder.identify(1...10, label: "All")
    let all = scratch.path("all.calldir")
    try builder.write(to: all)
    // Listed whole: an empty complement. A span past the list: all of it. A one-number gap.
    #expect(calldir("complement", all, "--span", "+2..+9", "-o", scratch.path("a.calldir")).status == 0)
    #expect(try CallDirectoryReader(path: scratch.path("a.calldir")).blockingRangeCount == 0)
    #expect(calldir("complement", all, "--span", "+1..+12", "-o", scratch.path("b.calldir")).status == 0)
    let past = try CallDirectoryReader(path: scratch.path("b.calldir"))
    #expect(try RangeTests.ranges(past).blocking == [11...12] && past.blockingCount == 0)
    #expect(calldir("complement", all, "--span", "+11", "-o", scratch.path("c.calldir")).status == 0)
    #expect(try CallDirectoryReader(path: scratch.path("c.calldir")).isBlocked(11))
  }

  @Test(arguments: [
    (["--span", "+1..+9", "-o", "x.calldir"], "complement needs at least one directory"),
    (["d.calldir", "-o", "x.calldir"], "complement needs the span to cover: --span +FIRST..+LAST"),
    (["d.calldir", "--span", "+1..+9"], "complement needs an output file: -o OUT.calldir"),
    (["d.calldir", "--span", "+9..+1", "-o", "x.calldir"], "--span +9..+1:"),
    // complement has no --country: the message must not advise one.
    (["d.calldir", "--span", "2000000000..2999999999", "-o", "x.calldir"], "write each end with + and its calling code"),
    (["d.calldir", "--span", "+1..+9", "-o", "-", "--json"], "--json writes to standard output"),
  ])
  func badArguments(arguments: [String], message: String) {
    let result = calldirArguments(["complement"] + arguments)
    #expect(result.status == 2)
    #expect(result.error.contains(message), "\(result.error)")
    #expect(!result.error.contains("--country"), "an option complement does not take: \(result.error)")
  }
}
