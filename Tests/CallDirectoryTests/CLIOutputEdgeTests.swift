import CallDirectory
import Foundation
import Testing

/// Output that must stay what a script expects whatever the data, and inputs that are not what
/// they seem.
@Suite struct CLIOutputEdgeTests {
  /// A label with a line feed, a tab or a NUL (quoted CSV takes them) stays on its answer's line.
  @Test func labelsWithControlCharactersStayOnOneLine() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write(
      "ids.csv", "number,label\n+12025550100,\"two\nlines\"\n+12025550101,\"tab\there\"\n+12025550102,\"nul\u{0}byte\"\n")
    #expect(calldir("pack", "--identify", list, "-o", scratch.path("x.calldir")).status == 0)
    let lookup = calldir("lookup", scratch.path("x.calldir"), "+12025550100", "+12025550101", "+12025550102", "+1 202\t555 0199")
    let lines = lookup.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 4, "\(lookup.output)")
    #expect(lines.first == "+12025550100\tidentified\ttwo lines")
    #expect(lines.dropFirst().first == "+12025550101\tidentified\ttab here")
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
