import CallDirectory
import Foundation
import Testing

/// Output that must stay what a script expects whatever the data, and inputs that are not what
/// they seem.
@Suite struct CLIOutputEdgeTests {
  /// What a label conflict's error ends with: the ways to settle it.
  static let conflictHint = "; --on-conflict first or last keeps one label, -k leaves such numbers out"

  /// A label with a line feed, a tab or a NUL (quoted CSV takes them) stays on its answer's line.
  @Test func labelsWithControlCharactersStayOnOneLine() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write(
      "ids.csv", "number,label\n+12025550100,\"two\nlines\"\n+12025550101,\"tab\there\"\n+12025550102,\"nul\u{0}byte\"\n")
    #expect(calldir("pack", "--identify", list, "-o", scratch.path("x.calldir")).status == 0)
    let lookup = calldir("lookup", scratch.path("x.calldir"), "+12025550100", "+12025550101", "+12025550102", "+1 202\t555 0199")
    let lines = lookup.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 4, "\(lookup.output)")
    #expect(lines.first == "+12025550100\tidentify\ttwo lines")
    #expect(lines.dropFirst().first == "+12025550101\tidentify\ttab here")
    #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count <= 3 })
    let info = calldir("info", scratch.path("x.calldir"))
    #expect(!info.output.contains("two\nlines") && info.output.contains("two lines"), "\(info.output)")
    // JSON keeps the label exactly.
    #expect(calldir("lookup", "--json", scratch.path("x.calldir"), "+12025550100").output.contains(#""two\nlines""#))
  }

  /// A directory given as a file names what it is.
  @Test func aDirectoryIsNotAFile() throws {
    let scratch = try ScratchDirectory()
    let result = calldir("info", scratch.url.path)
    #expect(result.status != 0)
    #expect(result.error.contains("Is a directory"), "\(result.error)")
    let pack = calldir("pack", "--block", try scratch.write("b.txt", "+12025550100\n"), "-o", scratch.url.path)
    #expect(pack.status != 0)
    #expect(pack.error.contains("Is a directory"), "\(pack.error)")
    let resolve = calldir("resolve", scratch.url.path, "+12025550100")
    #expect(resolve.status != 0)
    #expect(resolve.error.contains("Is a directory"), "\(resolve.error)")
  }

  /// keygen refused because half of the pair exists leaves nothing new, so a retry under a
  /// free name, or after the file is moved away, goes through.
  @Test func aRefusedKeygenLeavesNothing() throws {
    let scratch = try ScratchDirectory()
    let name = scratch.path("provider")
    for existing in ["provider.pub", "provider.key"] {
      try scratch.write(existing, "in use\n")
      #expect(calldir("keygen", "-o", name).status != 0)
      #expect(try scratch.names() == [existing])
      #expect(try String(contentsOfFile: scratch.path(existing), encoding: .utf8) == "in use\n")
      try FileManager.default.removeItem(atPath: scratch.path(existing))
    }
    #expect(calldir("keygen", "-o", name).status == 0)
    #expect(try scratch.names() == ["provider.key", "provider.pub"])
  }
}

/// A label conflict is found only once every entry is in; its message still names the file and
/// line of each side, read again from the inputs.
@Suite struct CLIConflictPlaceTests {
  @Test func conflictsNameBothLines() throws {
    let scratch = try ScratchDirectory()
    let allowed = try scratch.write("allow.txt", "+12025550101\n+12025550100\n")
    let listing = try scratch.write("list.csv", "kind,number,label\nidentify,+12025550100,B\nblock,+12025550100,\n")
    let both = calldir("pack", "--allow", allowed, listing, "-o", scratch.path("x.calldir"))
    #expect(both.status == 1)
    #expect(
      both.error == "calldir: \(allowed):2: +12025550100 has two labels: \"allow\" and \"block\" (and \(listing):3)\n",
      "\(both.error)")

    let two = try scratch.write("two.csv", "number,label\n+12025550100,A\n\n+1 202 555 0100,B\n")
    let conflict = calldir("pack", "--identify", two, "-o", scratch.path("x.calldir"))
    #expect(
      conflict.error
        == "calldir: \(two):2: +12025550100 has two labels: \"A\" and \"B\" (and \(two):4)\(CLIOutputEdgeTests.conflictHint)\n",
      "\(conflict.error)")

    let ranges = try scratch.write(
      "ranges.csv", "kind,number,label\nidentify,+12025550100..+12025550150,A\nidentify,+12025550140..+12025550199,B\n")
    let overlap = calldir("pack", ranges, "-o", scratch.path("x.calldir"))
    #expect(overlap.error.hasPrefix("calldir: \(ranges):2: ranges"), "\(overlap.error)")
    #expect(overlap.error.contains("(and \(ranges):3)"))

    // Standard input cannot be read again: the message is the writer's alone.
    let piped = calldir(
      "pack", "--identify", "-", "-o", scratch.path("x.calldir"), input: "number,label\n+12025550100,A\n+12025550100,B\n")
    #expect(
      piped.error == "calldir: +12025550100 has two labels: \"A\" and \"B\"\(CLIOutputEdgeTests.conflictHint)\n",
      "\(piped.error)")
    #expect(!scratch.exists("x.calldir"))
  }
}
