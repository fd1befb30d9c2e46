import CallDirectory
import Testing

/// Every region's emergency numbers, from the numbering plan, get through a stack that blocks.
@Suite struct ResolverRegionEmergencyTests {
  @Test func everyRegionsEmergencyNumbersAreNeverBlocked() throws {
    let stack = [StackEntry(.standard, blocks: true)]
    var checked = 0
    for region in NumberingPlan.shared.regions where !region.emergencyNumbers.isEmpty {
      let resolver = try ResolverFixtures.resolver(stack, emergency: EmergencyNumbers.standard.adding(region: region))
      for code in region.emergencyNumbers {
        let answer = try resolver.resolve(caller: code)
        #expect(answer.reason == .emergency, "\(region.name) \(code)")
        #expect(answer.emergencyCode == code)
        checked += 1
      }
    }
    #expect(checked > 400)
    let france = try #require(NumberingPlan.shared.region(named: "FR"))
    #expect(Set(["15", "17", "18", "112"]).isSubset(of: france.emergencyNumbers))
  }

  @Test func resolveWithCountryAllowsTheRegionsNumbers() throws {
    let scratch = try ScratchDirectory()
    let spam = scratch.path("spam.calldir")
    try ResolverFixtures.write(spam, blocking: [15, 17, 18])
    let answer = calldir("resolve", spam, "--country", "FR", "15", "17")
    #expect(answer.status == 0, "\(answer.error)")
    #expect(answer.output.split(separator: "\n").allSatisfy { $0.contains("allow") }, "\(answer.output)")
    let none = calldir("resolve", spam, "--country", "FR", "--emergency", "none", "+15")
    #expect(none.output.contains("block"), "\(none.output)")
  }
}
