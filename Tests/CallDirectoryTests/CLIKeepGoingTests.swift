import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `pack --keep-going` and `--rejects FILE`: every bad line reported and skipped, the rest packed,
/// the bad lines written as they were so that they can be fixed and fed again.
@Suite struct CLIKeepGoingTests {
  @Test func everyBadLineOfEveryFormIsReportedAndTheRestPacked() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("bad.txt", "+12025550100\nabc\n+12025550101\n+1 202 555 01x2\n")
    let ids = try scratch.write(
      "ids.csv",
      "number,label\n+12025550200,Acme\n+1202,Short\n+12025550201,\"Quoted,\nover two lines\"\nxyz,\"Bad,\nalso two\"\n")
    let listing = try scratch.write(
      "l.jsonl", "{\"kind\":\"block\",\"number\":\"+12025550300\"}\n{\"kind\":\"blok\",\"number\":\"+1\"}\n")
    let out = scratch.path("k.calldir")
    let rejects = scratch.path("rejects.txt")
    let result = calldir("pack", "--block", block, "--identify", ids, listing, "--rejects", rejects, "--json", "-o", out)
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.error == """
        calldir: \(listing):2: unknown kind "blok" (expected "block", "identify" or "allow")
        calldir: \(block):2: invalid character 'a' in number "abc"
        calldir: \(block):4: invalid character 'x' in number "+1 202 555 01x2"
        calldir: \(ids):3: too few digits in number "+1202": 4, at least 7 needed
        calldir: \(ids):6: invalid character 'x' in number "xyz"
        calldir: 5 bad lines skipped (--keep-going); written to \(rejects)

        """)
    #expect(
      result.output.contains(
        #""rejected":5,"rejectedPlaces":["#
          + [listing + ":2", block + ":2", block + ":4", ids + ":3", ids + ":6"].map {
            "\"\($0)\""
          }.joined(separator: ",") + "]}"))
    #expect(
      try String(contentsOfFile: rejects, encoding: .utf8) == """
        {"kind":"blok","number":"+1"}
        abc
        +1 202 555 01x2
        number,label
        +1202,Short
        xyz,"Bad,
        also two"

        """)
    #expect(
      calldir("unpack", out).output == """
        kind,number,label
        block,+12025550100,
        block,+12025550101,
        block,+12025550300,
        identify,+12025550200,Acme
        identify,+12025550201,"Quoted,
        over two lines"

        """)
    // Without --keep-going the first bad line ends the pack, and nothing is written.
    let stopped = calldir("pack", "--block", block, "-o", scratch.path("none.calldir"))
    #expect(stopped.status == 1 && stopped.error == "calldir: \(block):2: invalid character 'a' in number \"abc\"\n")
    #expect(!scratch.exists("none.calldir"))
  }

  @Test func theRejectsFeedAgainUnderTheirHeader() throws {
    let scratch = try ScratchDirectory()
    let ids = try scratch.write("ids.csv", "label,number\nAcme,+12025550200\nShort,+1202\nLong,+12025550201\n")
    let rejects = scratch.path("rejects.csv")
    #expect(calldir("pack", "--identify", ids, "--rejects", rejects, "-o", scratch.path("a.calldir")).status == 0)
    #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "label,number\nShort,+1202\n")
    // Fixed, the rejects pack on their own: the header maps the columns as it did.
    try "label,number\nShort,+12025550202\n".write(toFile: rejects, atomically: true, encoding: .utf8)
    #expect(calldir("pack", "--identify", rejects, "-o", scratch.path("b.calldir")).status == 0)
    #expect(calldir("lookup", scratch.path("b.calldir"), "+12025550202").output == "+12025550202\tidentify\tShort\n")
  }

  /// A list of more than one piece (pieces are at least 1 MiB) with bad lines scattered through
  /// it: exactly the bad lines are reported, at their lines in the file, and every good number
  /// is stored. 150,000 lines rather than the million of a real list: two pieces exercise every
  /// path a million does (line numbers carried across pieces), at a seventh of the suite's time,
  /// which the sanitizer runs multiply.
  @Test func aLongMessyListReportsExactlyItsBadLines() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SeededGenerator(seed: seed)
    var lines: [String] = []
    var bad: [Int] = []
    var good: Set<Int64> = []
    for index in 1...150_000 {
      if Int.random(in: 0..<100, using: &random) == 0 {
        lines.append("+1 202 55\(Int.random(in: 0..<10, using: &random))x \(index)")
        bad.append(index)
      } else {
        let number = 12_020_000_000 + Int64.random(in: 0..<10_000_000, using: &random)
        lines.append("+\(number)")
        good.insert(number)
      }
    }
    let scratch = try ScratchDirectory()
    let list = try scratch.write("messy.txt", lines.joined(separator: "\n") + "\n")
    let out = scratch.path("messy.calldir")
    let result = calldir("pack", "--keep-going", "--block", list, "-o", out)
    #expect(result.status == 0, "seed \(seed)")
    let reported = result.error.split(separator: "\n").dropLast().compactMap { line -> Int? in
      let parts = line.split(separator: ":")
      return parts.count >= 3 ? Int(parts[2]) : nil
    }
    #expect(reported == bad, "seed \(seed)")
    let reader = try CallDirectoryReader(path: out)
    #expect(reader.blockingCount == good.count, "seed \(seed)")
  }

  /// Every line bad: no empty directory takes the list's place, and the rejects are written.
  @Test func everyLineBadWritesNothingAndFails() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("bad.txt", "# all wrong\nabc\n+1 202 555 01x2\n\n")
    let out = try scratch.write("k.calldir", "the list in service")
    let rejects = scratch.path("rejects.txt")
    let result = calldir("pack", "-k", "--block", block, "--rejects", rejects, "-o", out)
    #expect(result.status == 1)
    #expect(result.error.hasSuffix("calldir: every entry was on a bad line (2 bad lines skipped): \(out) not written\n"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "the list in service")
    #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "abc\n+1 202 555 01x2\n")
    // Every number left out for its conflicting labels is the same: the list is not replaced.
    let conflicts = try scratch.write("conflicts.csv", "+12025550100,A\n+12025550100,B\n")
    let conflicted = calldir("pack", "-k", "--identify", conflicts, "-o", out)
    #expect(conflicted.status == 1)
    #expect(conflicted.error.contains("every entry was left out, 1 number given conflicting labels (--keep-going)"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == "the list in service")
    // An input with no entries and no bad lines replaces nothing either, unless an empty
    // directory is asked for: a download cut to nothing, or only its comment lines, is not a list.
    for text in ["", "# nothing yet\n", "\n\n"] {
      let empty = try scratch.write("empty.txt", text)
      let refused = calldir("pack", "-k", "--block", empty, "-o", out)
      #expect(refused.status == 1, "\(text.debugDescription)")
      #expect(refused.error.contains("no entries in the input") && refused.error.contains("--allow-empty"), "\(refused.error)")
      #expect(try String(contentsOfFile: out, encoding: .utf8) == "the list in service")
    }
    let asked = calldir("pack", "--allow-empty", "--block", try scratch.write("e.txt", "# nothing yet\n"), "-o", out)
    #expect(asked.status == 0, "\(asked.error)")
    let reader = try CallDirectoryReader(path: out)
    #expect(reader.blockingCount == 0 && reader.identificationCount == 0)
  }

  /// The rejects file may be neither the output (by another name, and before either exists)
  /// nor an input, and the message names `--rejects`, not `-o`.
  @Test func rejectsMayReplaceNeitherTheOutputNorAnInput() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", "+12025550100\nbad\n+12025550101\n")
    let listed = scratch.path("list.calldir")
    #expect(calldir("pack", "-k", "--block", block, "-o", listed).status == 0)
    let cases: [(rejects: String, output: String, inputs: [String], expected: String)] = [
      (scratch.path("new.calldir"), scratch.path("new.calldir"), ["--block", block], "is the output"),
      (scratch.url.path + "/./new.calldir", scratch.path("new.calldir"), ["--block", block], "is the output"),
      (listed, listed, [listed, "--block", block], "is the output"),
      (listed, scratch.path("other.calldir"), [listed, "--block", block], "is the input"),
      (block, scratch.path("other.calldir"), ["--block", block], "is the input"),
    ]
    for (rejects, output, inputs, expected) in cases {
      let before = try scratch.names()
      let result = calldir(["pack", "-k"] + inputs + ["--rejects", rejects, "-o", output])
      #expect(result.status == 2, "\(rejects)")
      #expect(result.error.contains("--rejects \(rejects) \(expected)"), "\(result.error)")
      #expect(result.error.contains("give --rejects another file"))
      #expect(try scratch.names() == before)
    }
  }

  @Test func rejectsOnStandardOutputMayNotShareIt() {
    let result = calldir("pack", "--block", "x.txt", "--rejects", "-", "-o", "-")
    #expect(result.status == 2)
    #expect(result.error.contains("--rejects - and the directory or --json would share standard output"))
  }
}
