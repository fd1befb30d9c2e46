import CallDirectory
import Testing

/// Callers as PBXs pass them (`Spec/RESOLUTION.md` section 6): SIP and `tel:` URIs, display
/// names, withheld callers.
@Suite struct ResolverCallerStringTests {
  static func resolver(blocksWithheld: Bool = false, country: String? = nil) throws -> Resolver {
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try builder.identify(12_025_550_123, label: "Acme")
    let sources: [Resolver.Source] = [.init(name: "spam", provider: try CallDirectoryReader(bytes: try builder.encoded()))]
    var resolver = try country.map { try Resolver(sources: sources, defaultRegion: $0) } ?? Resolver(sources: sources)
    resolver.blocksWithheld = blocksWithheld
    return resolver
  }

  @Test(arguments: [
    "", "  ", "anonymous", "Anonymous", "RESTRICTED", "unavailable", "private", "unknown", "withheld",
    "sip:anonymous@anonymous.invalid", "<sip:Anonymous@pbx.example.com>", "\"Unknown\" <sip:x@anonymous.invalid>",
  ])
  func withheldCallers(caller: String) throws {
    let allowing = try Self.resolver().resolve(caller: caller)
    #expect(allowing.reason == .withheld && allowing.action == .allow && allowing.number == nil, "\(caller)")
    #expect(allowing.directory == nil && allowing.label == nil)
    let blocking = try Self.resolver(blocksWithheld: true).resolve(caller: caller)
    #expect(blocking.reason == .withheld && blocking.action == .block, "\(caller)")
  }

  @Test(arguments: [
    ("sip:+12025550100@example.com;user=phone", Resolution.Action.block),
    ("SIPS:+12025550100@example.com", .block),
    ("\"Acme Support\" <sip:+12025550123@example.com>", .identify),
    ("<sip:+1-202-555-0123@example.com:5060;transport=tcp>", .identify),
    ("sip:+12025550100;npdi@example.com", .block),
    ("<tel:+1-202-555-0100;ext=7>", .block),
    ("sip:+12025550199@example.com", .allow),
  ])
  func sipCallers(caller: String, action: Resolution.Action) throws {
    #expect(try Self.resolver().resolve(caller: caller).action == action, "\(caller)")
  }

  /// A name-addr's header parameters after the `>` are not the address; a display name may
  /// hold a comma or, quoted, brackets.
  @Test(arguments: [
    ("<sip:+12025550100@example.com>;tag=8a7b", Resolution.Action.block),
    ("\"Doe, <John>\" <sip:+12025550123@example.com>", .identify),
    ("Doe, John <sip:+12025550100@example.com> ;tag=1", .block),
    ("\"A \\\" quote\" <tel:+12025550100>", .block),
  ])
  func nameAddrForms(caller: String, action: Resolution.Action) throws {
    #expect(try Self.resolver().resolve(caller: caller).action == action, "\(caller)")
  }

  /// Two addresses (a P-Asserted-Identity header's SIP and tel: identities), or text around the
  /// brackets: which is the caller cannot be known, so none is answered for.
  @Test(arguments: [
    "<tel:+12025550100>, <sip:+12025550199@x>", "<tel:+12025550199>, <sip:anonymous@anonymous.invalid>",
    "<sip:+12025550100@x> <sip:+12025550199@x>", "<<sip:+12025550199@x>>", "sip:+12025550100@x, <sip:+12025550199@x>",
    "<tel:+12025550199>junk", "\"unterminated <sip:+12025550199@x>", "sip:+12025550199@x>",
  ])
  func severalAddressesAreAnError(caller: String) throws {
    #expect {
      try Self.resolver().resolve(caller: caller)
    } throws: { error in
      guard case .invalidCaller(let message) = error as? ResolveError else { return false }
      return message.hasPrefix("caller \"\(caller)\" ")
    }
  }

  @Test func sipEmergencyCodes() throws {
    let answer = try Self.resolver(blocksWithheld: true).resolve(caller: "sip:911@pbx.example.com")
    #expect(answer.reason == .emergency && answer.emergencyCode == "911")
  }

  @Test(arguments: [
    ("sip:alice@example.com", ResolveError.invalidCaller("SIP user part \"alice\" is not a number")),
    ("sip:pbx.example.com", .invalidCaller("SIP URI \"sip:pbx.example.com\" has no user part (the number before @)")),
    ("<sip:@example.com>", .invalidCaller("SIP URI \"<sip:@example.com>\" has no user part (the number before @)")),
  ])
  func sipCallersWithoutANumber(caller: String, error: ResolveError) throws {
    #expect(throws: error) { try Self.resolver().resolve(caller: caller) }
  }

  /// A SIP user part in a phone-context is a local number, refused as a tel: URI's is: read
  /// under the default country, `sip:2025550100;phone-context=+1@...` was +49 2025550100 under DE.
  /// A global number with a phone-context is read as written.
  @Test func aLocalSIPUserPartIsRefused() throws {
    let resolver = try Self.resolver(country: "DE")
    #expect(
      throws: ResolveError.invalidCaller(
        "SIP user part \"2025550100;phone-context=+1\" is a local number in a phone-context, which is not read: "
          + "write it as a global number (+)")
    ) { try resolver.resolve(caller: "sip:2025550100;phone-context=+1@example.com;user=phone") }
    #expect(try resolver.resolve(caller: "sip:+12025550100;Phone-Context=+1@x").number == 12_025_550_100)
    // A tel: URI in brackets is said to be one, not a SIP user part.
    #expect {
      try resolver.resolve(caller: "<tel:2025550100>")
    } throws: { error in
      guard case .invalidNumber(let number) = error as? ResolveError else { return false }
      return number.kind == .localTelURI
    }
  }

  /// Through `calldir resolve`: a blank line and `anonymous` are withheld callers, allowed, or
  /// blocked with `--block-withheld`; the JSON gives them no number.
  @Test func resolveCommand() throws {
    let scratch = try ScratchDirectory()
    let block = try scratch.write("b.txt", "+12025550100\n")
    let list = scratch.path("spam.calldir")
    #expect(calldir("pack", "--block", block, "-o", list).status == 0)
    let allowed = calldirArguments(["resolve", "--json", list], input: "anonymous\n\nsip:+12025550100@pbx\n")
    #expect(allowed.status == 0, "\(allowed.error)")
    #expect(
      allowed.output.split(separator: "\n").map(String.init) == [
        #"{"input":"anonymous","number":null,"action":"allow","label":null,"directory":null,"reason":"withheld"}"#,
        #"{"input":"","number":null,"action":"allow","label":null,"directory":null,"reason":"withheld"}"#,
        #"{"input":"sip:+12025550100@pbx","number":"+12025550100","action":"block","label":null,"directory":"\#(list)","reason":"blocked"}"#,
      ])
    let blocked = calldirArguments(["resolve", "--block-withheld", list], input: "Restricted\n")
    #expect(blocked.output == "\tblock\t\t\n")
  }
}
