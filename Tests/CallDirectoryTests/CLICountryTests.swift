import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `--country` by region or calling code, and numbers written nationally without it.
@Suite struct CLICountryTests {
  @Test func regionOrCodeSelectTheTrunkRules() throws {
    let scratch = try ScratchDirectory()
    let identify = try scratch.write("gb.csv", "020 7946 0958,Office\n+44 (0) 20 7946 0959,Desk\n")
    for country in ["GB", "gb", "44", "+44"] {
      let out = scratch.path("gb-\(country).calldir")
      let pack = calldir("pack", "--identify", identify, "--country", country, "-o", out)
      #expect(pack.status == 0, "\(pack.error)")
      let listing = calldir("unpack", out)
      #expect(listing.output == "kind,number,label\nidentify,+442079460958,Office\nidentify,+442079460959,Desk\n")
    }
    let russian = try scratch.write("ru.txt", "8 (912) 345-67-89\n")
    let out = scratch.path("ru.calldir")
    #expect(calldir("pack", "--block", russian, "--country", "RU", "-o", out).status == 0)
    #expect(calldir("unpack", out).output == "kind,number,label\nblock,+79123456789,\n")
    #expect(calldir("lookup", out, "--country", "7", "8 912 345 67 89").output == "+79123456789\tblock\n")
  }

  @Test(arguments: [
    (
      "UK",
      "--country UK is no region; give an ISO 3166 code such as US or GB, or a calling code such as 1 or 44; did you mean GB?\n"
    ),
    ("999", "--country 999 is no calling code of a region; give one such as 1 or 44, or a region such as US or GB\n"),
    ("800", "--country 800 is no calling code of a region; give one such as 1 or 44, or a region such as US or GB\n"),
    ("Britain", "--country Britain is no region; give an ISO 3166 code such as US or GB, or a calling code such as 1 or 44\n"),
  ])
  func unknownCountryIsAUsageError(country: String, message: String) {
    let result = calldir("pack", "--block", "x.txt", "--country", country, "-o", "x.calldir")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("calldir: " + message), "\(result.error)")
  }

  @Test func nationalStyleWithoutCountryNamesFileAndLine() throws {
    let scratch = try ScratchDirectory()
    let identify = try scratch.write("us.csv", "+1 202 555 0100,Desk\n(818) 470-0711,Spam\n")
    let result = calldir("pack", "--identify", identify, "-o", scratch.path("o.calldir"))
    #expect(result.status == 1)
    #expect(
      result.error.hasSuffix(
        "us.csv:2: number \"(818) 470-0711\" is written nationally but no country is given: name its country "
          + "(calldir's --country, such as --country US or --country 44) or write it with + and its calling code\n"),
      "\(result.error)")
    // Bare digits keep CallKit's meaning: a full international number.
    let bare = try scratch.write("bare.txt", "12025550100\n")
    let out = scratch.path("bare.calldir")
    #expect(calldir("pack", "--block", bare, "-o", out).status == 0)
    #expect(calldir("unpack", out).output == "kind,number,label\nblock,+12025550100,\n")
    // Ten bare digits of a North American shape are a national number, which needs its country.
    let national = try scratch.write("national.txt", "12025550100\n2025550101\n")
    let refused = calldir("pack", "--block", national, "-o", out)
    #expect(refused.status == 1)
    #expect(refused.error.contains("national.txt:2: number \"2025550101\" is written nationally"), "\(refused.error)")
    #expect(calldir("pack", "--country", "US", "--block", national, "-o", out).status == 0)
    #expect(calldir("unpack", out).output == "kind,number,label\nblock,+12025550100,\nblock,+12025550101,\n")
  }
}

/// Numbers outside their country's numbering plan: packed and reported, or refused on request.
@Suite struct CLIPlanValidityTests {
  @Test func invalidNumbersAreCountedAndPacked() throws {
    let scratch = try ScratchDirectory()
    // +1 202 555 is too short for North America; +999... has no calling code.
    let block = try scratch.write("b.txt", "+12025550100\n+1202555\n+99912345678\n+1 202 555 01##\n")
    let out = scratch.path("o.calldir")
    let pack = calldir("pack", "--json", "--block", block, "-o", out)
    #expect(pack.status == 0)
    #expect(
      pack.output.hasSuffix(#""invalid":2,"invalidPlaces":["\#(block):2 (+1202555)","\#(block):3 (+99912345678)"]}"# + "\n"),
      "\(pack.output)")
    #expect(
      pack.error
        == "calldir: warning: 2 numbers not valid in their country's numbering plan, packed all the same "
        + "(--reject-invalid refuses them): \(block):2 (+1202555), \(block):3 (+99912345678)\n")
    #expect(calldir("unpack", out).output.contains("block,+1202555,\n"))
    #expect(calldir("pack", "--quiet", "--block", block, "-o", out).error.isEmpty)
  }

  /// A range of one calling code and one length is checked as its numbers would be: a pattern
  /// with a wildcard too many (twelve digits under +1) is invalid; a valid pattern, and a range
  /// over several lengths, are not reported.
  @Test func aRangeWithNoNumberOfAValidLengthIsReported() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write(
      "b.txt", "+1 202 555 0105 #\n+1 202 555 01##\n+33612345678..+336123456789\n+1 202 555 0106 ##\n")
    let out = scratch.path("o.calldir")
    let pack = calldir("pack", "--block", block, "-o", out)
    #expect(pack.status == 0, "\(pack.error)")
    #expect(
      pack.error
        == "calldir: warning: 2 ranges not valid in their country's numbering plan, packed all the same "
        + "(--reject-invalid refuses them): \(block):1 (+120255501050..+120255501059), "
        + "\(block):4 (+1202555010600..+1202555010699)\n")
    let refused = calldir("pack", "--reject-invalid", "--block", block, "-o", out)
    #expect(refused.status == 1)
    #expect(
      refused.error.hasSuffix(
        "\(block):1: range +120255501050..+120255501059 has no number of a valid length in its country's "
          + "numbering plan (--reject-invalid)\n"),
      "\(refused.error)")
  }

  @Test func rejectInvalidMakesTheFirstAnError() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("b.txt", "+12025550100\n+1202555\n+99912345678\n")
    let out = scratch.path("o.calldir")
    let pack = calldir("pack", "--reject-invalid", "--block", block, "-o", out)
    #expect(pack.status == 1)
    #expect(
      pack.error.hasSuffix(
        "\(block):2: number +1202555 has no valid length in its country's numbering plan (--reject-invalid)\n"),
      "\(pack.error)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
