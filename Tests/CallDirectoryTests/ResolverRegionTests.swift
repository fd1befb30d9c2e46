import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// A resolver reads callers written without `+` by its region's own rules, not by those of the
/// main region of the region's calling code (`Spec/RESOLUTION.md` section 6).
@Suite struct ResolverRegionTests {
  static func number(_ caller: String, region: String) throws -> Int64? {
    try Resolver(sources: [], defaultRegion: region).resolve(caller: caller).number
  }

  @Test func regionsSharingACallingCodeReadTheirOwnLocalNumbers() throws {
    // Barbados's and Jersey's local numbers need their own rules; their main regions read the
    // same digits as other numbers.
    #expect(try Self.number("430-1234", region: "BB") == 12_464_301_234)
    // Under the United States (or its calling code), seven digits lack their area code.
    let local = ResolveError.invalidNumber(PhoneNumberError(kind: .localNumber(digits: 7, region: "US"), input: "430-1234"))
    #expect(throws: local) { try Self.number("430-1234", region: "US") }
    #expect(throws: local) { try Resolver(sources: [], defaultCountryCode: 1).resolve(caller: "430-1234").number }
    #expect(try Self.number("123456", region: "JE") == 441_534_123_456)
    #expect(try Self.number("01534 123456", region: "JE") == 441_534_123_456)
    // Canada and Kazakhstan read like the United States and Russia.
    #expect(try Self.number("(416) 555-0100", region: "CA") == 14_165_550_100)
    #expect(try Self.number("8 (701) 123-45-67", region: "kz") == 77_011_234_567)
    // International callers are the same whatever the region.
    #expect(try Self.number("+1 202 555 0100", region: "JE") == 12_025_550_100)
  }

  @Test func theRegionIsKept() throws {
    #expect(try Resolver(sources: [], defaultRegion: "bb").defaultRegion == "BB")
    #expect(try Resolver(sources: [], defaultCountryCode: 44).defaultRegion == "GB")
    #expect(try Resolver(sources: []).defaultRegion == nil)
  }

  @Test func anUnknownRegionIsAConfigurationError() {
    #expect(throws: ConfigurationError(parameter: "defaultRegion", value: "XX", allowed: "the regions of NumberingPlan")) {
      try Resolver(sources: [], defaultRegion: "XX")
    }
  }

  @Test func resolveAndItsCountryOption() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.write("b.txt", "+12464301234\n+441534123456\n")
    let directory = scratch.path("b.calldir")
    #expect(calldir("pack", "--block", list, "-o", directory).status == 0)
    let barbados = calldir("resolve", "--country", "BB", directory, "430-1234")
    #expect(barbados.output == "+12464301234\tblock\t\t\(directory)\n", "\(barbados.error)")
    let code = calldir("resolve", "--country", "1", directory, "430-1234")
    #expect(code.output.hasPrefix("430-1234\terror\tnumber \"430-1234\" is a local number"), "\(code.output)")
    let jersey = calldir("resolve", "--country", "JE", directory, "123456")
    #expect(jersey.output == "+441534123456\tblock\t\t\(directory)\n", "\(jersey.error)")
  }
}
