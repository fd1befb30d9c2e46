import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// The input forms beyond the positional CSV: headers in any order, TSV, JSON Lines, gzip, and
/// pack's report of what it skipped and merged.
@Suite struct CLIInputTests {
  private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  private func writeBytes(_ scratch: ScratchDirectory, _ name: String, _ bytes: [UInt8]) throws -> String {
    let path = scratch.path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func headerColumnsInAnyOrderAndCase() throws {
    let scratch = try ScratchDirectory()
    let reference = scratch.path("ref.calldir")
    let positional = try scratch.write("id.csv", "+12025550100,Acme\n+12025550101,Bolt\n")
    #expect(calldir("pack", "--identify", positional, "-o", reference).status == 0)
    let reordered = try scratch.write("re.csv", "Label,NUMBER\nAcme,+12025550100\nBolt,+12025550101\n")
    let out = scratch.path("re.calldir")
    let pack = calldir("pack", "--identify", reordered, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    #expect(try bytes(out) == bytes(reference))

    let listing = try scratch.write("l.csv", "number,label,kind\n+12025550100,Acme,identify\n+12025550101,Bolt,identify\n")
    let fromListing = scratch.path("l.calldir")
    #expect(calldir("pack", listing, "-o", fromListing).status == 0)
    #expect(try bytes(fromListing) == bytes(reference))

    // A label that happens to be a column name is data: the record holds a number.
    let records = try IdentifyCSVParser.parse(
      bytes: Array("+12025550100,Label\n".utf8), file: "x.csv", parser: PhoneNumberParser())
    #expect(records == [.identify(12025550100, label: "Label", line: 1)])
  }

  @Test func listingHeaderAllowsBlockRowsWithoutTheLabel() throws {
    let records = try ListingParser.parse(
      bytes: Array("number,kind,label\n+12025550100,block\n+12025550101,identify,Acme\n".utf8), file: "l.csv",
      parser: .formatDomain)
    #expect(records == [.block(12025550100, line: 2), .identify(12025550101, label: "Acme", line: 3)])
  }

  @Test(arguments: [
    ("number,label,extra\n+12025550100,Acme,x\n", #"x.csv:1: unknown column "extra" in the header (known: number, label)"#),
    ("kind,number,label\nidentify,+12025550100,Acme\n", #"x.csv:1: unknown column "kind" in the header (known: number, label)"#),
    ("number,number\n+1,+2\n", #"x.csv:1: column "number" named twice in the header"#),
    ("Label\nAcme\n", #"x.csv:1: the header has no "number" column"#),
    ("label,number\nAcme,+12025550100,more\n", "x.csv:2: expected 2 fields, as the header names, found 3"),
  ])
  func badHeadersNameTheProblem(text: String, message: String) {
    #expect {
      try IdentifyCSVParser.parse(bytes: Array(text.utf8), file: "x.csv", parser: PhoneNumberParser())
    } throws: { error in
      (error as? ListingError)?.description == message
    }
  }

  @Test func tabSeparatedInputs() throws {
    let scratch = try ScratchDirectory()
    let csv = try scratch.write("id.csv", "number,label\n+12025550100,\"Acme, \"\"Inc\"\"\"\n")
    let tsv = try scratch.write("id.tsv", "number\tlabel\n+12025550100\tAcme, \"Inc\"\r\n")
    let a = scratch.path("a.calldir")
    let b = scratch.path("b.calldir")
    #expect(calldir("pack", "--identify", csv, "-o", a).status == 0)
    let pack = calldir("pack", "--identify", tsv, "-o", b)
    #expect(pack.status == 0, "\(pack.error)")
    #expect(try bytes(a) == bytes(b))
    // Standard input has no name: --format says what it is.
    let c = scratch.path("c.calldir")
    let listing = "kind\tnumber\tlabel\nidentify\t+12025550100\tAcme, \"Inc\"\n"
    #expect(calldir("pack", "--format", "tsv", "-", "-o", c, input: listing).status == 0)
    #expect(try bytes(a) == bytes(c))
    let bad = calldir("pack", "--format", "tsv", "--identify", "-", "-o", c, input: "+12025550100\tAcme\tmore\n")
    #expect(bad.status == 1)
    #expect(bad.error.contains("<stdin>:1: expected 2 fields"))
  }

  @Test func jsonLinesRoundTripGivesIdenticalBytes() throws {
    let scratch = try ScratchDirectory()
    let labels = [
      #"Quote " and backslash \ "#, "tab\tnew line\ncarriage\rbell\u{07}", "Emoji 📞 and 𝄞 music", "Zürich, Ångström",
      "\u{7F}del and \u{1F} unit separator",
    ]
    var csv = "kind,number,label\nblock,+12025550000..+12025550099,\nblock,+33899000000,\n"
    var index = 0
    for label in labels {
      var field = label.replacingOccurrences(of: "\"", with: "\"\"")
      field = "\"\(field)\""
      csv += "identify,+4420794600\(index)0,\(field)\n"
      index += 1
    }
    let listing = try scratch.write("l.csv", csv)
    let original = scratch.path("o.calldir")
    let pack = calldir("pack", listing, "-o", original)
    #expect(pack.status == 0, "\(pack.error)")
    let unpack = calldir("unpack", "--format", "jsonl", original)
    #expect(unpack.status == 0)
    let lines = unpack.output.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == #"{"kind":"block","number":"+12025550000..+12025550099"}"#)
    #expect(lines[1] == #"{"kind":"block","number":"+33899000000"}"#)
    #expect(lines[2] == #"{"kind":"identify","number":"+442079460000","label":"Quote \" and backslash \\ "}"#)
    #expect(lines[3] == #"{"kind":"identify","number":"+442079460010","label":"tab\tnew line\ncarriage\rbell\u0007"}"#)
    #expect(lines.count == labels.count + 3)

    // Back through a file named .jsonl, and through standard input with --format.
    let jsonl = try scratch.write("l.jsonl", unpack.output)
    let again = scratch.path("a.calldir")
    #expect(calldir("pack", jsonl, "-o", again).status == 0)
    #expect(try bytes(again) == bytes(original))
    let piped = scratch.path("p.calldir")
    #expect(calldir("pack", "--format", "jsonl", "-", "-o", piped, input: unpack.output).status == 0)
    #expect(try bytes(piped) == bytes(original))
    // -o NAME.jsonl implies the format.
    let named = scratch.path("n.jsonl")
    #expect(calldir("unpack", original, "-o", named).status == 0)
    #expect(try String(contentsOfFile: named, encoding: .utf8) == unpack.output)
  }

  @Test func tabSeparatedRoundTripGivesIdenticalBytes() throws {
    let scratch = try ScratchDirectory()
    let listing = try scratch.write(
      "l.csv",
      "kind,number,label\nblock,+12025550000..+12025550099,\nidentify,+12025550100,\"Acme, \"\"Inc\"\"\"\n"
        + "identify,+442079460000,Zürich 📞\n")
    let original = scratch.path("o.calldir")
    #expect(calldir("pack", listing, "-o", original).status == 0)
    let unpack = calldir("unpack", "--format", "tsv", original)
    #expect(unpack.status == 0, "\(unpack.error)")
    #expect(
      unpack.output
        == "kind\tnumber\tlabel\nblock\t+12025550000..+12025550099\t\nidentify\t+12025550100\tAcme, \"Inc\"\n"
        + "identify\t+442079460000\tZürich 📞\n")
    // -o NAME.tsv and NAME.tsv.gz imply the format, and pack reads either back to the same bytes.
    for name in ["l.tsv", "l.tsv.gz"] {
      let tsv = scratch.path(name)
      #expect(calldir("unpack", original, "-o", tsv).status == 0)
      let again = scratch.path("again.calldir")
      #expect(calldir("pack", tsv, "-o", again).status == 0)
      #expect(try bytes(again) == bytes(original), "\(name)")
    }
    // A label TSV cannot carry is an error naming its entry, and the file is not written.
    let tabbed = try scratch.write("t.csv", "identify,+12025550100,\"a\tb\"\n")
    let withTab = scratch.path("t.calldir")
    #expect(calldir("pack", tabbed, "-o", withTab).status == 0)
    let refused = calldir("unpack", withTab, "-o", scratch.path("t.tsv"))
    #expect(refused.status == 1)
    #expect(refused.error.contains("label for +12025550100 holds a tab or a line break"), "\(refused.error)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("t.tsv")))
    // To standard output too, nothing is written: not the rows before the entry, nor the header.
    let earlier = try scratch.write(
      "e.csv", "block,+12025550000,\nidentify,+12025550099,Fine\nidentify,+12025550100,\" a\"\n")
    let withBlank = scratch.path("e.calldir")
    #expect(calldir("pack", earlier, "-o", withBlank).status == 0)
    let piped = calldir("unpack", "--format", "tsv", withBlank)
    #expect(piped.status == 1)
    #expect(piped.output == "")
    #expect(piped.error.contains("label for +12025550100 holds a tab"), "\(piped.error)")
    #expect(calldir("unpack", "--format", "tsv", original).output.hasPrefix("kind\tnumber\tlabel\n"))
  }

  /// A spreadsheet's "Unicode text" is UTF-16: named as such, in either byte order, for every
  /// kind of input, rather than a line's invalid bytes.
  @Test(arguments: [[0xFF, 0xFE] as [UInt8], [0xFE, 0xFF]])
  func utf16InputsAreNamed(mark: [UInt8]) throws {
    let scratch = try ScratchDirectory()
    let text = Array("+12025550100\tAcme\n".utf16)
    let units = text.flatMap { mark[0] == 0xFF ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    let path = scratch.path("u.tsv")
    #expect(FileManager.default.createFile(atPath: path, contents: Data(mark + units)))
    for role in [["--identify"], ["--block"], []] {
      let result = calldir(["pack"] + role + [path, "-o", scratch.path("u.calldir")])
      #expect(result.status == 1)
      #expect(result.error.hasPrefix("calldir: \(path): the file is UTF-16"), "\(role): \(result.error)")
    }
  }

  @Test func jsonLinesReaderDecodesEscapesAndSurrogatePairs() throws {
    let text = #"""
      { "label" : "\u0041\u00e9\u20ac\ud83d\udcde\/\b\f" , "number":"+12025550100", "kind":"identify" }

      {"kind":"block","number":"+1 202 555 01##"}
      """#
    let records = try ListingJSONLines.parse(bytes: Array(text.utf8), file: "x.jsonl", parser: .formatDomain)
    #expect(
      records == [
        .identify(12025550100, label: "Aé€📞/\u{08}\u{0C}", line: 1),
        ListingRecord(kind: .blocking, numbers: 12025550100...12025550199, line: 3),
      ])
  }

  @Test(arguments: [
    (#"{"kind":"block"}"#, #"x.jsonl:2: missing "number""#),
    (#"{"kind":"block","number":"+12025550100","label":"x"}"#, #"x.jsonl:2: block entry has a "label" (leave it out)"#),
    (#"{"kind":"identify","number":"+12025550100"}"#, #"x.jsonl:2: identify entry has no "label""#),
    (#"{"kind":"deny","number":"+12025550100"}"#, #"x.jsonl:2: unknown kind "deny" (expected "block", "identify" or "allow")"#),
    (#"{"kind":"allow","number":"+12025550100","label":"A"}"#, #"x.jsonl:2: allow entry has a "label" (leave it out)"#),
    (#"{"kind":"block","kind":"block","number":"+1"}"#, #"x.jsonl:2: duplicate member "kind""#),
    (#"{"kind":"block","number":12025550100}"#, "x.jsonl:2: expected a string value in double quotes"),
    (#"{"kind":"block","number":"+12025550100","x":"y"}"#, #"x.jsonl:2: unknown member "x" (expected kind, number, label)"#),
    (#"{"kind":"block","number":"+12025550100"} x"#, "x.jsonl:2: text after the object"),
    (#"{"kind":"block","number":"+12025550100""#, "x.jsonl:2: expected ',' or '}'"),
    (#"["block"]"#, "x.jsonl:2: expected '{' (one JSON object a line)"),
    (#"{"kind":"identify","number":"+12025550100","label":"\ud83d"}"#, #"x.jsonl:2: high surrogate \uD83D without a low one"#),
    (#"{"kind":"identify","number":"+12025550100","label":"\udcde"}"#, #"x.jsonl:2: lone low surrogate \uDCDE"#),
    (#"{"kind":"identify","number":"+12025550100","label":"\u12"}"#, #"x.jsonl:2: \u needs four hex digits"#),
    (#"{"kind":"identify","number":"+12025550100","label":"\x"}"#, #"x.jsonl:2: unknown escape \x"#),
    (
      "{\"kind\":\"identify\",\"number\":\"+12025550100\",\"label\":\"a\tb\"}",
      "x.jsonl:2: control character 0x9 in a string (escape it)"
    ),
    (#"{"kind":"identify","number":"+12025550100","label":""}"#, "x.jsonl:2: empty label (labels need 1 to 65534 UTF-8 bytes)"),
    (#"{"kind":"identify","number":"+12025550100","label":"open"#, "x.jsonl:2: string is not closed"),
    (#"{"kind":"block","number":"+1202555010x"}"#, "x.jsonl:2: invalid character 'x'"),
  ])
  func malformedJSONLinesNameFileAndLine(line: String, message: String) {
    let text = "{\"kind\":\"block\",\"number\":\"+12025550100\"}\n" + line + "\n"
    do {
      _ = try ListingJSONLines.parse(bytes: Array(text.utf8), file: "x.jsonl", parser: .formatDomain)
      Issue.record("no error for \(line)")
    } catch {
      #expect(error.description.hasPrefix(message), "\(error.description)")
    }
  }

  @Test func jsonLinesRejectsInvalidUTF8() {
    var bytes = Array(#"{"kind":"identify","number":"+12025550100","label":""#.utf8)
    bytes += [0xC3, 0x28]
    bytes += Array("\"}\n".utf8)
    #expect(throws: ListingError(file: "x.jsonl", line: 1, message: "invalid UTF-8")) {
      try ListingJSONLines.parse(bytes: bytes, file: "x.jsonl", parser: .formatDomain)
    }
  }

  @Test func gzipInputsAreInflated() throws {
    let scratch = try ScratchDirectory()
    let text = "# spam\n+12025550100\n+12025550101\n"
    let plain = try scratch.write("b.txt", text)
    let reference = scratch.path("ref.calldir")
    #expect(calldir("pack", "--block", plain, "-o", reference).status == 0)
    let compressed = try #require(Gzip.compress(Array(text.utf8)))
    #expect(try Gzip.inflate(compressed) == Array(text.utf8))
    let gz = try writeBytes(scratch, "b.txt.gz", compressed)
    let out = scratch.path("gz.calldir")
    let pack = calldir("pack", "--block", gz, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    #expect(try bytes(out) == bytes(reference))
    // By the magic alone, and two members one after another.
    let half = try #require(Gzip.compress(Array("+12025550100\n".utf8)))
    let other = try #require(Gzip.compress(Array("+12025550101\n".utf8)))
    let unnamed = try writeBytes(scratch, "b.data", half + other)
    let joined = scratch.path("j.calldir")
    #expect(calldir("pack", "--block", unnamed, "-o", joined).status == 0)
    #expect(try bytes(joined) == bytes(reference))
    // A JSON Lines listing, compressed, keeps its format from the name under .gz.
    let jsonl = calldir("unpack", "--format", "jsonl", reference).output
    let jsonlGz = try writeBytes(scratch, "l.jsonl.gz", try #require(Gzip.compress(Array(jsonl.utf8))))
    let fromJSONL = scratch.path("jl.calldir")
    #expect(calldir("pack", jsonlGz, "-o", fromJSONL).status == 0)
    #expect(try bytes(fromJSONL) == bytes(reference))
  }

  @Test func corruptOrOversizedGzipIsAClearError() throws {
    let scratch = try ScratchDirectory()
    let compressed = try #require(Gzip.compress(Array(String(repeating: "+12025550100\n", count: 100).utf8)))
    var damaged = compressed
    damaged[damaged.count - 6] ^= 0xFF  // inside the CRC-32 trailer
    let bad = try writeBytes(scratch, "bad.txt.gz", damaged)
    let out = scratch.path("o.calldir")
    let result = calldir("pack", "--block", bad, "-o", out)
    #expect(result.status == 1)
    #expect(result.error.contains("bad.txt.gz: corrupt gzip stream (incorrect data check)"), "\(result.error)")
    #expect(!scratch.exists("o.calldir"))

    let cut = try writeBytes(scratch, "cut.txt.gz", Array(compressed.prefix(compressed.count / 2)))
    #expect(calldir("pack", "--block", cut, "-o", out).error.contains("cut.txt.gz: the gzip stream is cut short"))
    let notGzip = try scratch.write("plain.txt.gz", "+12025550100\n")
    #expect(calldir("pack", "--block", notGzip, "-o", out).status == 1)
    let trailing = try writeBytes(scratch, "t.txt.gz", compressed + [0x00, 0x01])
    #expect(calldir("pack", "--block", trailing, "-o", out).error.contains("2 bytes after the end of the gzip stream"))

    #expect(throws: Gzip.Failure("inflates to more than 100 bytes (the cap on inflated input)")) {
      try Gzip.inflate(compressed, limit: 100)
    }
    #expect(Gzip.maximumInflatedBytes == 4 << 30)
  }

  @Test func packReportsWhatItSkippedAndMerged() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write(
      "b.txt",
      """
      # comment

      +12025550100
      +12025550100
      +1 202 555 01##
      +12025550150
      +12025550200..+12025550299
      +12025550250..+12025550399
      +12025559999

      """)
    let identify = try scratch.write("i.csv", "number,label\n\n+12025550100,Acme\n+12025550100,Acme\n+12025550101,Acme\n")
    let out = scratch.path("o.calldir")
    let pack = calldir("pack", "--json", "--block", block, "--identify", identify, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    let size = try bytes(out).count
    #expect(
      pack.output
        == #"{"output":"\#(out)","bytes":\#(size),"read":10,"entriesStored":3,"rangesStored":1,"skipped":3,"duplicates":2,"covered":2,"rangesMerged":2,"onConflict":"error","labelConflicts":0,"invalid":0,"invalidPlaces":[]}"#
        + "\n")

    // At a terminal the same counts are in the summary line; piped, nothing is said.
    let errors = TextBox()
    let console = Console(
      readInput: { [] }, writeOutput: { _ in }, writeError: { errors.text += $0 }, errorIsTerminal: true)
    #expect(CLI.main(["pack", "--block", block, "--identify", identify, "-o", out], console: console) == 0)
    #expect(errors.text.contains("bytes per entry read) in "), "\(errors.text)")
    #expect(
      errors.text.hasSuffix(
        " s; stored 3 single numbers and 1 range; 3 blank or comment lines skipped, 2 duplicates merged, 2 entries inside ranges dropped, "
          + "2 ranges merged into another of the same label\n"), "\(errors.text)")
    #expect(calldir("pack", "--block", block, "-o", out).error.isEmpty)
  }

  @Test func packJSONNeedsAnOutputFile() {
    let result = calldir("pack", "--json", "--block", "x.txt", "-o", "-")
    #expect(result.status == 2)
    #expect(result.error.contains("--json writes to standard output"))
    #expect(calldir("pack", "--format", "xml", "--block", "x.txt", "-o", "y").status == 2)
  }
}

/// Collects what a console writes to standard error.
final class TextBox: @unchecked Sendable {
  var text = ""
}

/// The examples of `Spec/INPUT.md` sections 3.1 to 3.3, read from the spec and checked.
@Suite struct CLIInputSpecExampleTests {
  /// The fenced blocks of the spec between `from` and the next `## ` or `### ` heading.
  private func blocks(under heading: String) throws -> [String] {
    let url = SpecVectorTests.root.appendingPathComponent("Spec/INPUT.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(text.range(of: heading))
    let rest = text[start.upperBound...]
    let section = rest.range(of: "\n### ").map { rest[..<$0.lowerBound] } ?? rest
    return section.components(separatedBy: "```\n").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
  }

  @Test func headerExamplesAreTheSameFile() throws {
    let examples = try blocks(under: "### 3.1 Headers")
    #expect(examples.count == 2)
    let parsed = try examples.map {
      try IdentifyCSVParser.parse(bytes: Array($0.utf8), file: "x.csv", parser: PhoneNumberParser())
    }
    #expect(parsed[0] == [.identify(12025550100, label: "Acme Support", line: 2)])
    #expect(parsed[0] == parsed[1])
  }

  @Test func jsonLinesExampleReadsAndWritesBack() throws {
    let examples = try blocks(under: "### 3.3 JSON Lines")
    let example = try #require(examples.first)
    let records = try ListingJSONLines.parse(bytes: Array(example.utf8), file: "x.jsonl", parser: .formatDomain)
    #expect(
      records == [
        .block(12025550100, line: 1),
        ListingRecord(kind: .blocking, numbers: 33899000000...33899999999, line: 2),
        .identify(12025550123, label: "Acme \"Support\" 📞", line: 3),
      ])
    // The writer escapes only what it must, so the non-BMP character comes back as UTF-8.
    var writer = ListingJSONLines.Writer()
    for record in records { try writer.append(record) }
    let lines = example.split(separator: "\n")
    #expect(
      String(decoding: writer.bytes, as: UTF8.self) == lines[0] + "\n" + lines[1] + "\n"
        + #"{"kind":"identify","number":"+12025550123","label":"Acme \"Support\" 📞"}"# + "\n")
  }

  @Test func tsvExampleMatchesItsCSV() throws {
    let tsv = try ListingParser.parse(
      bytes: Array("identify\t+12025550100\tAcme, \"Inc\"\n".utf8), file: "x.tsv", parser: .formatDomain, format: .tsv)
    let csv = try ListingParser.parse(
      bytes: Array("identify,+12025550100,\"Acme, \"\"Inc\"\"\"\n".utf8), file: "x.csv", parser: .formatDomain)
    #expect(tsv == csv)
    #expect(tsv == [.identify(12025550100, label: "Acme, \"Inc\"", line: 1)])
  }
}

extension CLIInputSpecExampleTests {
  @Test func packReportExampleOfSection3_5() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("b.txt", "+12025550100\n+12025550100\n+1 202 555 01##\n# done\n")
    let out = scratch.path("list.calldir")
    let result = calldir("pack", "--json", "--block", block, "-o", out)
    let size = try Data(contentsOf: URL(fileURLWithPath: out)).count
    #expect(
      result.output
        == #"{"output":"\#(out)","bytes":\#(size),"read":3,"entriesStored":0,"rangesStored":1,"skipped":1,"duplicates":1,"covered":1,"rangesMerged":0,"onConflict":"error","labelConflicts":0,"invalid":0,"invalidPlaces":[]}"#
        + "\n")
  }
}
