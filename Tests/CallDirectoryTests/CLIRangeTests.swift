import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

@Suite struct CLIRangeTests {
  @Test func patternsAndSpansPackUnpackAndRepack() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write(
      "block.txt",
      """
      # French premium-rate numbers and one exchange
      +33899######
      +1 202 555 XXXX
      +1 202 556 0000..+1 202 556 0099
      +1 202 556 0100..+1 202 556 0199
      # the three ranges above touch: they are merged into one
      +1 202 557 0000
      """)
    let identify = try scratch.write("id.csv", "number,label\n+44 20 7946 0###,Drama Council\n+44 20 7946 1000,Other\n")
    let out = scratch.path("r.calldir")
    let pack = calldir("pack", "--block", block, "--identify", identify, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    // verify counts ranges besides single entries, which a file of ranges alone would hide.
    let verify = calldir("verify", out)
    #expect(verify.status == 0)
    #expect(verify.output == "\(out): ok (1 blocking and 2 ranges, 1 identification and 1 range, 2 labels)\n")
    let json = calldir("verify", "--json", out).output
    #expect(json.contains(#""blocking":1,"blockingRanges":2,"identification":1,"identificationRanges":1,"#), "\(json)")
    let unpack = calldir("unpack", out)
    #expect(
      unpack.output == """
        kind,number,label
        block,+12025550000..+12025560199,
        block,+12025570000,
        block,+33899000000..+33899999999,
        identify,+442079460000..+442079460999,Drama Council
        identify,+442079461000,Other

        """)
    let listing = try scratch.write("listing.csv", unpack.output)
    let repacked = scratch.path("again.calldir")
    #expect(calldir("pack", listing, "-o", repacked).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: repacked)) == Data(contentsOf: URL(fileURLWithPath: out)))

    let lookup = calldir("lookup", out, "+33 8 99 12 34 56", "+33 8 98 99 99 99", "+44 20 7946 0500", "+12025560150")
    #expect(
      lookup.output == """
        +33899123456\tblock
        +33898999999\tallow
        +442079460500\tidentify\tDrama Council
        +12025560150\tblock

        """)
    #expect(calldir("info", out).output.contains("2 ranges covering"))
  }

  @Test func expandWritesEveryNumber() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", "+1 202 555 010#\n")
    let out = scratch.path("e.calldir")
    #expect(calldir("pack", "--block", block, "-o", out).status == 0)
    let lines = calldir("unpack", "--expand", out).output.split(separator: "\n")
    #expect(lines.count == 11)
    #expect(lines[1] == "block,+12025550100,")
    #expect(lines[10] == "block,+12025550109,")
  }

  @Test(arguments: [
    ("+1 202 5X5 0100\n", "block.txt:1:", "digit after a wildcard"),
    ("+1 202 555 0199..+1 202 555 0100\n", "block.txt:1:", "ends below its start"),
    ("+1 202 555 0100..abc\n", "block.txt:1:", "invalid character"),
    ("\n+###########\n", "block.txt:2:", "pattern \"+###########\" begins with a wildcard"),
    ("+1202555XXXX;junk\n", "block.txt:1:", "\"+1202555XXXX;junk\""),
  ])
  func badRangesAreRefused(contents: String, place: String, reason: String) throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", contents)
    let result = calldir("pack", "--block", block, "-o", scratch.path("x.calldir"))
    #expect(result.status == 1)
    #expect(result.error.contains(place) && result.error.contains(reason), "\(result.error)")
    #expect(!scratch.exists("x.calldir"))
  }

  @Test func overlappingLabelledRangesNameBoth() throws {
    let scratch = try ScratchDirectory()
    let identify = try scratch.write("id.csv", "+1 202 555 0###,Bank\n+12025550900..+12025551099,Scam\n")
    let result = calldir("pack", "--identify", identify, "-o", scratch.path("x.calldir"))
    #expect(result.status == 1)
    #expect(result.error.contains("\"Bank\"") && result.error.contains("\"Scam\""), "\(result.error)")
    #expect(result.error.contains("+12025550000..+12025550999") && result.error.contains("+12025550900..+12025551099"))
    #expect(result.error.contains("id.csv:1:") && result.error.contains("id.csv:2)"), "\(result.error)")
  }

  /// A narrower range with another label inside a wider one is the more specific: packed, and
  /// each number answers to the narrowest range that holds it.
  @Test func nestedLabelledRangesPack() throws {
    let scratch = try ScratchDirectory()
    let identify = try scratch.write("id.csv", "+1 202 555 0###,Bank\n+1 202 555 00##,Scam\n+12025550042,Joe\n")
    let out = scratch.path("x.calldir")
    let result = calldir("pack", "--identify", identify, "-o", out)
    #expect(result.status == 0, "\(result.error)")
    let listing = calldir("unpack", out, "-o", "-")
    #expect(
      listing.output == """
        kind,number,label
        identify,+12025550000..+12025550041,Scam
        identify,+12025550042,Joe
        identify,+12025550043..+12025550099,Scam
        identify,+12025550100..+12025550999,Bank

        """, "\(listing.error)")
  }

  @Test(arguments: [
    ("+33899######", 33_899_000_000...33_899_999_999, nil as Int?),
    ("+1 202 555 XXXX", 12_025_550_000...12_025_559_999, nil),
    ("0899 ### ###", 33_899_000_000...33_899_999_999, 33),
    ("(202) 555-XXXX", 12_025_550_000...12_025_559_999, 1),
    ("+12025550100..+12025550199", 12_025_550_100...12_025_550_199, nil),
    ("tel:+1-202-555-0100;ext=12", 12_025_550_100...12_025_550_100, nil),
    ("+12025550100", 12_025_550_100...12_025_550_100, nil),
  ])
  func parseEntry(text: String, expected: ClosedRange<Int64>, country: Int?) throws {
    #expect(try PhoneNumberParser(defaultCountryCode: country).parseEntry(text) == expected)
  }

  /// A pattern, or a range with an end written without `+`, whose ends a default region's rules
  /// read differently is refused, naming both ends as read: each end was read on its own, so
  /// `33 #########` under FR became +3300000000..+33999999999, which blocks +1 202 555 0100 and
  /// every number between; and where the start came out above the end, pack crashed.
  @Test(arguments: [
    ("FR", "33 #########", 3_300_000_000 as Int64, 33_999_999_999 as Int64),
    ("GB", "44 ##########", 44_000_000_000, 449_999_999_999),
    ("DE", "493#######", 4_930_000_000, 494_939_999_999),
    ("AL", "355 90 ####", 355_900_000, 355_355_909_999),
    ("NL", "31 #######", 31_310_000_000, 319_999_999),
    ("RU", "7 ##########", 770_000_000_000, 79_999_999_999),
    ("DE", "4930000000..4939999999", 4_930_000_000, 494_939_999_999),
    ("DE", "030 1000..030 99999999", 49_301_000, 493_099_999_999),
  ])
  func endsReadDifferentlyAreRefused(region: String, text: String, first: Int64, last: Int64) throws {
    let parser = try PhoneNumberParser(defaultRegion: region)
    #expect {
      try parser.parseEntry(text)
    } throws: { error in
      (error as? PhoneNumberError)?.kind == .endsReadDifferently(first: first, last: last)
    }
    let scratch = try ScratchDirectory()
    let block = try scratch.write("block.txt", text + "\n")
    let result = calldir("pack", "-k", "--country", region, "--block", block, "-o", scratch.path("x.calldir"))
    #expect(result.status == 1 && result.error.contains("block.txt:1: range \"\(text)\" is read as +\(first)"), "\(result.error)")
  }

  @Test(arguments: [
    ("FR", "01 23 45 ####", 33_123_450_000...33_123_459_999 as ClosedRange<Int64>),
    ("GB", "020 7946 0000..020 7946 0999", 442_079_460_000...442_079_460_999),
    ("US", "202 555 XXXX", 12_025_550_000...12_025_559_999),
    ("DE", "+49 30 1000..+49 30 99999999", 49_301_000...493_099_999_999),
  ])
  func endsReadAlikeAreRanges(region: String, text: String, expected: ClosedRange<Int64>) throws {
    #expect(try PhoneNumberParser(defaultRegion: region).parseEntry(text) == expected)
  }
}
