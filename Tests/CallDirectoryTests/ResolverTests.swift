import CallDirectory
import Foundation
import Testing

@Suite struct ResolverEmergencyTests {
  /// Every directory blocks the number, an allow list even lists it: the emergency rule still wins.
  @Test(arguments: EmergencyNumbers.defaultCodes)
  func neverBlockedEvenWhenEveryDirectoryBlocks(_ code: String) throws {
    let number = Int64(code)  // nil only for 000, which no directory can hold
    let stack = [
      StackEntry(.standard, blocks: true, label: "Spam Risk"), StackEntry(.standard, blocks: true),
      StackEntry(.allowList, blocks: true),
    ]
    for country in [nil, 1, 44, 61] {
      let resolver = try ResolverFixtures.resolver(stack, number: number.flatMap { $0 > 0 ? $0 : nil }, country: country)
      for written in [
        code, " \(code) ", "tel:\(code)", "TEL:\(code);phone-context=+44", code.map(String.init).joined(separator: "-"),
      ] {
        let answer = try resolver.resolve(caller: written)
        #expect(answer.reason == .emergency, "\(written) under \(country.map(String.init) ?? "-")")
        #expect(answer.action == .allow && answer.label == nil && answer.directory == nil)
        #expect(answer.emergencyCode == code)
      }
      if let number, number > 0 {
        #expect(try resolver.resolve(number).reason == .emergency)
      }
    }
  }

  @Test func matchesTheNormalisedNumberToo() throws {
    let emergency = try EmergencyNumbers(["112", "18002738255"])
    let stack = [StackEntry(.standard, blocks: true)]
    let resolver = try ResolverFixtures.resolver(stack, number: 18_002_738_255, emergency: emergency, country: 1)
    for caller in ["+1 (800) 273-8255", "(800) 273-8255", "tel:+1-800-273-8255", "18002738255"] {
      let answer = try resolver.resolve(caller: caller)
      #expect(answer.reason == .emergency, "\(caller)")
      // Written as the code itself, it matches as written (and is not parsed).
      #expect(answer.number == (caller == "18002738255" ? nil : 18_002_738_255))
      #expect(answer.emergencyCode == "18002738255")
    }
    // `+911` is the number 911 once normalised; without +, 911 is matched as written.
    #expect(try ResolverFixtures.resolver(stack, number: 911).resolve(caller: "+911").reason == .emergency)
  }

  @Test func nearMissesAreNotEmergencies() throws {
    let resolver = try ResolverFixtures.resolver([StackEntry(.standard, blocks: true)], number: 19_115_550_100)
    #expect(try resolver.resolve(caller: "+1 911 555 0100").action == .block)
    // A tab between digits or a letter is not a separator: no match, and the parser refuses it.
    for caller in ["9\t11", "91l", "9111", "+1 911", "*911", "#112"] {
      #expect(EmergencyNumbers.standard.match(caller: caller) == nil, "\(caller)")
    }
    #expect(EmergencyNumbers.standard.match(caller: "0000") == nil)
    #expect(EmergencyNumbers.standard.match(caller: "00") == nil)
    #expect(EmergencyNumbers.standard.match(caller: "000") == "000")
    #expect(EmergencyNumbers.standard.match(0) == nil, "000 never matches as a number")
  }

  @Test func configurableSet() throws {
    #expect(EmergencyNumbers.standard.codes == ["000", "110", "112", "119", "911", "999"])
    let custom = try EmergencyNumbers(["116117", "112", "112"])
    #expect(custom.codes == ["112", "116117"])
    #expect(custom.match(caller: "116 117") == "116117")
    #expect(custom.match(caller: "911") == nil)
    #expect(EmergencyNumbers.none.isEmpty && EmergencyNumbers.none.match(caller: "911") == nil)
    for bad in ["", "9x1", "+911", "1234567890123456", " 911"] {
      #expect(throws: EmergencyNumbers.InvalidCode.self, "\(bad)") { try EmergencyNumbers([bad]) }
    }
    // With no emergency numbers, 911 goes through the stack like any number.
    let resolver = try ResolverFixtures.resolver([StackEntry(.standard, blocks: true)], number: 911, emergency: .none)
    #expect(try resolver.resolve(caller: "911").action == .block)
  }
}

@Suite struct ResolverPrecedenceTests {
  static let spam = StackEntry(.standard, blocks: true, label: "Spam Risk")
  static let allow = StackEntry(.allowList, blocks: true)

  /// An allow list anywhere in a stack of blocking directories decides.
  @Test(arguments: 0...3)
  func allowListBeatsBlocksInAnyPosition(_ position: Int) throws {
    var stack = [Self.spam, StackEntry(.standard, blocks: true), Self.spam]
    stack.insert(Self.allow, at: position)
    let answer = try ResolverFixtures.resolver(stack).resolve(ResolverFixtures.number)
    #expect(answer.action == .allow && answer.reason == .allowListed)
    #expect(answer.directory?.index == position)
    #expect(answer.label == "Spam Risk", "no label of its own: the first label in stack order")
    #expect(answer.labelDirectory?.index == (position == 0 ? 1 : 0))
  }

  @Test(arguments: [false, true])
  func allowListOfEitherKind(_ identifies: Bool) throws {
    let allowList = StackEntry(.allowList, blocks: !identifies, label: identifies ? "Mum" : nil)
    let answer = try ResolverFixtures.resolver([Self.spam, allowList]).resolve(ResolverFixtures.number)
    #expect(answer.reason == .allowListed && answer.directory?.index == 1)
    #expect(answer.label == (identifies ? "Mum" : "Spam Risk"))
  }

  @Test func stackOrderDecides() throws {
    let business = StackEntry(.standard, label: "Acme Support")
    let blocker = StackEntry(.standard, blocks: true)
    let top = try ResolverFixtures.resolver([business, blocker]).resolve(ResolverFixtures.number)
    #expect(top.action == .identify && top.label == "Acme Support" && top.directory == .init(index: 0, name: "d0"))
    let bottom = try ResolverFixtures.resolver([blocker, business]).resolve(ResolverFixtures.number)
    #expect(bottom.action == .block && bottom.label == nil && bottom.directory?.index == 0)
    let skipped = try ResolverFixtures.resolver([StackEntry(.standard), StackEntry(.allowList), business, blocker])
      .resolve(ResolverFixtures.number)
    #expect(skipped.reason == .identified && skipped.directory?.index == 2)
  }

  @Test func blockingWinsWithinADirectoryAndTheLabelIsReported() throws {
    let answer = try ResolverFixtures.resolver([Self.spam]).resolve(ResolverFixtures.number)
    #expect(answer.action == .block && answer.reason == .blocked)
    #expect(answer.label == "Spam Risk" && answer.labelDirectory == answer.directory)
    #expect(answer.description == "block \"Spam Risk\" (blocked by #0 d0)")
  }

  @Test func notListedAndEmptyStack() throws {
    let answer = try ResolverFixtures.resolver([StackEntry(.standard), StackEntry(.allowList)]).resolve(42)
    #expect(answer == Resolution(reason: .notListed, number: 42))
    let empty = try Resolver(sources: [])
    #expect(try empty.resolve(ResolverFixtures.number).reason == .notListed)
    #expect(try empty.resolve(caller: "911").reason == .emergency)
  }

  /// Seeded random stacks against a straightforward reading of the rules.
  @Test func randomStacksFollowTheRules() throws {
    let seed: UInt64 = 20_250_607
    print("seed \(seed)")
    var random = SeededGenerator(seed: seed)
    let labels = ["Spam Risk", "Acme Support", "Mum", nil]
    for _ in 0..<300 {
      let stack = (0..<Int.random(in: 1...5, using: &random)).map { _ in
        StackEntry(
          Bool.random(using: &random) && Bool.random(using: &random) ? .allowList : .standard,
          blocks: Bool.random(using: &random), label: labels.randomElement(using: &random) ?? nil)
      }
      let answer = try ResolverFixtures.resolver(stack).resolve(ResolverFixtures.number)
      #expect(answer == Self.expected(stack), "\(stack)")
    }
  }

  /// The rules of `Spec/RESOLUTION.md` section 4, written as plainly as possible.
  static func expected(_ stack: [StackEntry]) -> Resolution {
    let number = ResolverFixtures.number
    func reference(_ index: Int) -> Resolution.Directory { .init(index: index, name: "d\(index)") }
    let lists = { (entry: StackEntry) in entry.blocks || entry.label != nil }
    if let allow = stack.firstIndex(where: { $0.role == .allowList && lists($0) }) {
      let source = stack[allow].label != nil ? allow : stack.firstIndex { $0.label != nil }
      return Resolution(
        reason: .allowListed, number: number, label: source.flatMap { stack[$0].label }, directory: reference(allow),
        labelDirectory: source.map(reference))
    }
    guard let first = stack.firstIndex(where: { $0.role == .standard && lists($0) }) else {
      return Resolution(reason: .notListed, number: number)
    }
    let entry = stack[first]
    return Resolution(
      reason: entry.blocks ? .blocked : .identified, number: number, label: entry.label, directory: reference(first),
      labelDirectory: entry.label == nil ? nil : reference(first))
  }
}

@Suite struct ResolverCallerTests {
  static func resolver(country: Int? = nil) throws -> Resolver {
    let spam = try CallDirectoryReader(
      bytes: try ResolverFixtures.bytes(
        blocking: [12_025_550_100, 442_079_460_958], identification: [(12_025_550_100, "Spam Risk")]))
    return try Resolver(sources: [.init(name: "spam", provider: spam)], defaultCountryCode: country)
  }

  @Test(arguments: ["+1 (202) 555-0100", "tel:+1-202-555-0100", "tel:+1-202-555-0100;ext=7", "12025550100", "+1.202.555.0100"])
  func rawCallerStrings(_ caller: String) throws {
    let answer = try Self.resolver().resolve(caller: caller)
    #expect(answer.number == 12_025_550_100)
    #expect(answer.action == .block && answer.label == "Spam Risk" && answer.directory?.name == "spam")
  }

  @Test func nationalFormsWithACountry() throws {
    #expect(try Self.resolver(country: 1).resolve(caller: "(202) 555-0100").action == .block)
    #expect(try Self.resolver(country: 44).resolve(caller: "020 7946 0958").number == 442_079_460_958)
    #expect(try Self.resolver(country: 44).resolve(caller: "020 7946 0958").action == .block)
    #expect(try Self.resolver(country: 1).resolve(caller: "011 44 20 7946 0958").action == .block)
  }

  // An empty caller is a withheld one, not an error (ResolverCallerStringTests).
  @Test(arguments: ["+1 202 55x 0100", "tel:555-0100", "+0 202 555 0100", "12345678901234567890", "++1202"])
  func invalidInputIsATypedErrorNeverAGuess(_ caller: String) throws {
    #expect {
      try Self.resolver(country: 1).resolve(caller: caller)
    } throws: { error in
      guard let error = error as? ResolveError, case .invalidNumber(let parse) = error else { return false }
      return parse.input == caller && error.description == parse.description
    }
  }

  @Test func damagedDirectoryIsNamed() throws {
    let good = try ResolverFixtures.bytes(identification: [(12_025_550_100, "Spam Risk")])
    // Find a byte whose change leaves the file openable but breaks this number's answer.
    var damaged: [UInt8]?
    for offset in good.indices.reversed() {
      var bytes = good
      bytes[offset] ^= 0x40
      guard let reader = try? CallDirectoryReader(bytes: bytes) else { continue }
      if (try? Resolver(sources: [.init(name: "x", provider: reader)]).resolve(12_025_550_100)) == nil {
        damaged = bytes
        break
      }
    }
    let bytes = try #require(damaged)
    let resolver = try Resolver(sources: [
      .init(name: "fine", provider: try CallDirectoryReader(bytes: try ResolverFixtures.bytes(blocking: [1_234_567]))),
      .init(name: "broken", provider: try CallDirectoryReader(bytes: bytes)),
    ])
    let expected = try #require(formatError { try CallDirectoryReader(bytes: bytes).lookup(12_025_550_100) })
    #expect(throws: expected) { try resolver.resolve(12_025_550_100) }
    #expect {
      try resolver.resolve(caller: "+12025550100")
    } throws: { error in
      guard case .damagedDirectory(let directory, _) = error as? ResolveError else { return false }
      return directory == .init(index: 1, name: "broken") && "\(error)".hasPrefix("broken: ")
    }
    // The emergency rule reads no directory, so damage cannot touch it.
    #expect(try resolver.resolve(caller: "112").reason == .emergency)
  }
}
