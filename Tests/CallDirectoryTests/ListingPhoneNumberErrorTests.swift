import Testing

@testable import CallDirectoryListing

@Suite("Phone number error messages")
struct ListingPhoneNumberErrorTests {
  @Test("Invalid character names the character and quotes the number")
  func invalidCharacterMessage() {
    let error = PhoneNumberError(kind: .invalidCharacter("x", offset: 9), input: "+1 202 55x 0100")
    #expect(error.description == "invalid character 'x' in number \"+1 202 55x 0100\"")
  }

  @Test("A long input is quoted in part, so a message stays a line of a log")
  func longInputIsCut() {
    let long = String(repeating: "1", count: 10_000)
    let error = PhoneNumberError(kind: .tooManyDigits(found: 10_000, maximum: 15), input: long)
    let quoted = "\"" + String(repeating: "1", count: PhoneNumberError.quotedCharacters) + "...\""
    #expect(error.description == "too many digits in number \(quoted): 10000, at most 15 allowed")
    let exact = String(repeating: "2", count: PhoneNumberError.quotedCharacters)
    #expect(PhoneNumberError(kind: .outOfRange, input: exact).description.contains("\"\(exact)\""))
  }

  @Test(
    "Every kind has a message quoting the input",
    arguments: [
      PhoneNumberError.Kind.noDigits, .misplacedPlus(offset: 1), .leadingZero,
      .tooFewDigits(found: 4, minimum: 7), .tooManyDigits(found: 16, maximum: 15), .outOfRange,
      .invalidNationalNumber(digits: 7), .localTelURI, .invalidCharacter("#", offset: 0),
    ])
  func messagesQuoteInput(kind: PhoneNumberError.Kind) {
    let error = PhoneNumberError(kind: kind, input: "INPUT-TEXT")
    #expect(error.description.contains("\"INPUT-TEXT\""))
  }

  @Test("Counts and limits appear in digit-count messages")
  func digitCountMessages() {
    let many = PhoneNumberError(kind: .tooManyDigits(found: 16, maximum: 15), input: "+1234567890123456")
    #expect(many.description == "too many digits in number \"+1234567890123456\": 16, at most 15 allowed")
    let few = PhoneNumberError(kind: .tooFewDigits(found: 4, minimum: 7), input: "+1 202")
    #expect(few.description == "too few digits in number \"+1 202\": 4, at least 7 needed")
  }

  @Test("Control characters are escaped so a message stays on one line")
  func escaping() {
    let error = PhoneNumberError(kind: .invalidCharacter("\t", offset: 6), input: "+1 202\t555\n")
    #expect(error.description == "invalid character '\\t' in number \"+1 202\\t555\\n\"")
    #expect(PhoneNumberError(kind: .empty, input: "").description == "empty phone number")
  }
}
