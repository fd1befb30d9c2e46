import CallDirectory
import Foundation
import Testing

/// Format versions at the command line: `calldir pack` prefix-codes a label table of several
/// blocks (format 2.3) unless told `--no-prefix-labels`, which keeps the labels readable by
/// readers before 2.3; a file of a later version than this reader's says what it needs.
@Suite struct CLIFormatVersionTests {
  /// A listing whose 600 labels share long prefixes, several label blocks' worth.
  static func listing() -> String {
    "kind,number,label\n"
      + (0..<600).map { "identify,+3319910\($0 + 1000),Boulangerie du Marché \($0 / 10) — Lyon \($0 % 10)" }.joined(
        separator: "\n") + "\n"
  }

  /// The label section's type, the format version and the file size `info --json` reports.
  static func info(_ path: String) throws -> (labels: [String], version: String, size: Int) {
    let result = calldir("info", "--json", path)
    #expect(result.status == 0, "\(result.error)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let sections = try #require(object["sections"] as? [[String: Any]]).compactMap { $0["type"] as? String }
    return (
      sections.filter { $0 == "LDAT" || $0 == "LPFX" }, try #require(object["version"] as? String),
      try #require(object["size"] as? Int)
    )
  }

  @Test func packPrefixCodesLabelsUnlessTold() throws {
    let scratch = try ScratchDirectory()
    let input = try scratch.write("list.csv", Self.listing())
    let prefixed = scratch.path("prefixed.calldir")
    let offsets = scratch.path("offsets.calldir")
    #expect(calldir("pack", input, "-o", prefixed, "-q").status == 0)
    let packed = calldir("pack", input, "--no-prefix-labels", "-o", offsets, "-q")
    #expect(packed.status == 0, "\(packed.error)")
    let (prefixedInfo, offsetsInfo) = (try Self.info(prefixed), try Self.info(offsets))
    #expect(prefixedInfo.labels == ["LPFX"] && prefixedInfo.version == "2.3")
    #expect(offsetsInfo.labels == ["LDAT"] && offsetsInfo.version == "2.0")
    #expect(prefixedInfo.size < offsetsInfo.size)
    for path in [prefixed, offsets] { #expect(calldir("verify", path).status == 0, "\(path)") }
    #expect(calldir("info", prefixed).output.contains("labels:          600 distinct, in 6 prefix-coded blocks"))
    #expect(calldir("info", offsets).output.contains("labels:          600 distinct, in 6 blocks"))
    let unpacked = calldir("unpack", prefixed)
    #expect(unpacked.status == 0)
    #expect(unpacked.output == calldir("unpack", offsets).output)
    #expect(unpacked.output == Self.listing())
  }

  @Test func theFlagTakesNoValue() {
    let result = calldir("pack", "--no-prefix-labels=yes", "x.csv", "-o", "y.calldir")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("calldir: "), "\(result.error)")
  }

  /// A required section this reader does not know: refused, naming it and what reads it.
  @Test func aFileOfALaterVersionSaysWhatReadsIt() throws {
    let scratch = try ScratchDirectory()
    var file = try CraftedFile(try Contents(blocking: [12_025_550_100]).encoded())
    file.sections.append(.init(type: 0x5A5A_5A5A, flags: 1, bytes: [1, 2, 3]))  // "ZZZZ", required
    let path = scratch.path("later.calldir")
    try Data(file.bytes).write(to: URL(fileURLWithPath: path))
    for arguments in [["verify", path], ["lookup", path, "+12025550100"], ["unpack", path]] {
      let result = calldir(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(
        result.error.contains("unknown required section ZZZZ (a later format version's: a newer calldir reads the file)"),
        "\(arguments): \(result.error)")
    }
  }
}
