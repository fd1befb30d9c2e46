import CallDirectory
import Foundation
import Testing

@testable import CallDirectoryCLI

/// `info`'s label and country figures, `stats`' histogram, and the manual page made from the help.
@Suite struct CLIInfoTests {
  /// A small directory with numbers from several countries, singles and ranges of both kinds.
  ///
  /// Per calling code: +44 102 (one single of each kind and a 100-number identify range), +33 100
  /// (a blocking range), +1 4, and one each for +7, +81, +86, +212 and +353: 211 entries.
  static func seeded(_ scratch: ScratchDirectory) throws -> String {
    var builder = DirectoryBuilder()
    try builder.block(12025550100)
    try builder.block(12025550101)
    try builder.block(442079460958)
    try builder.block(33_899_000_000...33_899_000_099)
    try builder.block(8613800138000)
    try builder.block(35312345678)
    try builder.block(79161234567)
    try builder.identify(12025550123, label: "Acme Support")
    try builder.identify(12025550124, label: "Acme Support")
    try builder.identify(447700900001, label: "Spam Risk")
    try builder.identify(447_700_900_100...447_700_900_199, label: "Spam Risk")
    try builder.identify(81355550100, label: "Tokyo Office")
    try builder.identify(212522000000, label: "Casablanca")
    let path = scratch.path("seeded.calldir")
    try builder.write(to: path)
    return path
  }

  @Test(arguments: [
    (Int64(1), 1), (7, 7), (12025550100, 1), (79161234567, 7), (201001234567, 20), (442079460958, 44),
    (33899000000, 33), (35312345678, 353), (212522000000, 212), (8613800138000, 86), (999, 999), (112, 1),
    (Int64.max - 1, 92), (42, 42),
  ])
  func countryCode(number: Int64, code: Int) {
    #expect(CountryCodes.code(of: number) == code)
  }

  @Test func rangesCountByTheirSizeSaturating() {
    let content = ContentSummary(runs: [(1...(Int64.max - 1), "Everything"), (10...19, "Everything"), (44...44, nil)])
    #expect(content.total == Int.max)
    #expect(content.topLabels().first?.entries == Int.max)
    #expect(content.countries.map(\.code) == [1, 10, 44])
  }

  @Test func infoTopLabelsAndCountries() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.seeded(scratch)
    let result = calldir("info", path)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    let labels = try #require(lines.firstIndex(of: "top labels:"))
    #expect(
      Array(lines[(labels + 1)...(labels + 4)]) == [
        "  101  Spam Risk", "    2  Acme Support", "    1  Casablanca", "    1  Tokyo Office",
      ])
    let countries = try #require(lines.firstIndex(of: "countries (by calling code):"))
    #expect(
      Array(lines[(countries + 1)...]) == [
        "  +44  102   48.3%", "  +33  100   47.4%", "  +1     4    1.9%", "  +7     1    0.5%", "  +81    1    0.5%",
        "  +86    1    0.5%", "  +212   1    0.5%", "  +353   1    0.5%",
      ])
    #expect(result.output.contains("labels:          4 distinct"))
  }

  @Test func infoJSONKeepsItsKeysAndAddsFigures() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.seeded(scratch)
    let result = calldir("info", "--json", path)
    #expect(result.status == 0)
    for key in [
      "\"version\":\"2.", "\"blocking\":{\"entries\":", "\"labels\":{\"count\":4", "\"bytesPerEntry\":", "\"sections\":[",
    ] {
      #expect(result.output.contains(key), "\(key)")
    }
    #expect(
      result.output.contains(
        "\"topLabels\":[{\"label\":\"Spam Risk\",\"entries\":101},{\"label\":\"Acme Support\",\"entries\":2}"))
    #expect(result.output.contains("\"countries\":[{\"code\":44,\"entries\":102,\"percent\":48.3},{\"code\":33,\"entries\":100"))
  }

  /// A damaged label block, met only while info streams: the message names the damage and its
  /// place, as unpack's does, not Swift's spelling of the error value. stats reads no label.
  @Test func infoOfADamagedLabelBlockSaysWhatIsWrongAndStatsNeedsNoLabel() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.seeded(scratch)
    let info = calldir("info", "--json", path)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any])
    let sections = try #require(object["sections"] as? [[String: Any]])
    let labels = try #require(sections.first { $0["type"] as? String == "LDAT" })
    let offset = try #require(labels["offset"] as? Int)
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    bytes[offset + 2] ^= 0x40
    let damaged = scratch.path("damaged.calldir")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let unpack = calldir("unpack", damaged)
    #expect(unpack.status == 1)
    let result = calldir("info", damaged)
    #expect(result.status == 1)
    #expect(result.error == unpack.error, "info: \(result.error)")
    #expect(result.error.contains("LDAT") && !result.error.contains("format("), "info: \(result.error)")
    // stats shows no label, so it reads none: the damaged block changes nothing it says.
    let stats = calldir("stats", damaged)
    #expect(stats.status == 0, "stats: \(stats.error)")
    #expect(stats.output == calldir("stats", path).output)
    #expect(stats.error.isEmpty)
  }

  @Test func statsHistogram() throws {
    let scratch = try ScratchDirectory()
    let path = try Self.seeded(scratch)
    let result = calldir("stats", path)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    func line(_ code: String, _ bar: Int, _ count: String, _ percent: String) -> String {
      code + "  " + String(repeating: "#", count: bar) + String(repeating: " ", count: 50 - bar) + "  " + count + "  " + percent
    }
    #expect(lines.count == 8)
    #expect(lines.first == line("+44 ", 50, "102", " 48.3%"))
    #expect(lines.dropFirst().first == line("+33 ", 49, "100", " 47.4%"))
    #expect(lines.dropFirst(2).first == line("+1  ", 2, "  4", "  1.9%"))
    #expect(lines.last == line("+353", 1, "  1", "  0.5%"))
    let narrow = calldir("stats", "--width", "10", path).output.split(separator: "\n").first.map(String.init)
    #expect(narrow == "+44   ##########  102   48.3%")
    let json = calldir("stats", "--json", path)
    #expect(json.output.contains("\"entries\":211,\"countries\":[{\"code\":44,\"entries\":102,\"percent\":48.3}"))
    #expect(calldir("stats", "--width", "5", path).status == 2)
    #expect(calldir("stats").status == 2)
  }

  @Test func parsing() throws {
    #expect(try Command.parse(["stats", "a.calldir"]) == .stats(file: "a.calldir", json: false, width: 50))
    #expect(
      try Command.parse(["stats", "--width=80", "--json", "a.calldir"]) == .stats(file: "a.calldir", json: true, width: 80))
    #expect(try Command.parse(["help", "--man"]) == .manual)
    #expect(try Command.parse(["stats", "--help"]) == .help(topic: "stats"))
  }

  @Test func statsOfAnEmptyDirectory() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("empty.calldir")
    try DirectoryBuilder().write(to: path)
    #expect(calldir("stats", path).output == "no entries\n")
    #expect(calldir("info", "--json", path).output.contains("\"topLabels\":[],\"countries\":[]"))
  }

  /// Help is read in a terminal of 100 columns (the width the README and the spec keep too).
  @Test(arguments: [
    "pack", "unpack", "complement", "verify", "lookup", "info", "stats", "resolve", "export", "serve", "diff", "patch",
    "keygen", "sign", "completions", "help",
  ])
  func helpFitsInAHundredColumns(_ topic: String) {
    let text = HelpText.text(for: topic)
    #expect(text.count > 100)
    for line in text.split(separator: "\n") { #expect(line.count <= 100, "calldir help \(topic): \(line)") }
  }

  @Test func helpListsStatsAndTheManPageMatches() throws {
    #expect(calldir("help").output.contains("  stats     "))
    #expect(calldir("help", "stats").output.hasPrefix("Usage: calldir stats FILE"))
    let manual = calldir("help", "--man")
    #expect(manual.status == 0)
    #expect(manual.output.hasPrefix(".TH CALLDIR 1"))
    #expect(manual.output.contains(".SS stats"))
    let committed = try String(contentsOf: SpecVectorTests.root.appendingPathComponent("Samples/calldir.1"), encoding: .utf8)
    #expect(committed == manual.output, "regenerate with: calldir help --man > Samples/calldir.1")
    #expect(calldir("help", "--man", "pack").status == 2)
  }
}
