import CallDirectory
import Testing

/// Characters one cannot see in a number as people paste it: a byte-order mark before the first
/// line is skipped by every command that reads lines, and any other such character is named by
/// its code point, never shown as itself.
@Suite struct CLIInvisibleCharacterTests {
  @Test func resolveSkipsAByteOrderMarkOnStandardInput() throws {
    let scratch = try ScratchDirectory()
    let list = try scratch.blocking(named: "list.calldir")
    let result = calldir("resolve", list, input: "\u{FEFF}+1 (202) 555-0100\n+1 202 555 0101\n")
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("\tblock") == true, "\(result.output)")
    // Only before the first line: a mark inside the input is a character like any other.
    let later = calldir("resolve", list, input: "+12025550101\n\u{FEFF}+12025550100\n")
    #expect(later.status == 1)
    #expect((later.output + later.error).contains("invalid character '\\u{FEFF}'"), "\(later.output)\(later.error)")
  }

  @Test(arguments: [("\u{00A0}", "\\u{00A0}"), ("\u{200B}", "\\u{200B}"), ("\u{FEFF}", "\\u{FEFF}"), ("é", "é")])
  func anInvisibleCharacterIsNamedByItsCodePoint(character: String, shown: String) {
    let error = PhoneNumberError(kind: .invalidCharacter(Character(character), offset: 3), input: "+33\(character)612345678")
    #expect(error.description.hasPrefix("invalid character '\(shown)' in number \"+33\(shown)612345678\""), "\(error)")
  }
}
