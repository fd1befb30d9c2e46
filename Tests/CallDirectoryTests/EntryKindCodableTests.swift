import CallDirectory
import Foundation
import Testing

/// `EntryKind` encodes as the word listings use and decodes only those words.
@Suite struct EntryKindCodableTests {
  @Test func kindsEncodeAsTheirListingWords() throws {
    let encoded = try JSONEncoder().encode(EntryKind.allCases)
    #expect(String(decoding: encoded, as: UTF8.self) == #"["block","identify"]"#)
    #expect(try JSONDecoder().decode([EntryKind].self, from: encoded) == EntryKind.allCases)
  }

  @Test(arguments: [#""blocking""#, #""Block""#, #""""#, "0"])
  func otherValuesAreRefused(json: String) {
    #expect {
      try JSONDecoder().decode(EntryKind.self, from: Data(json.utf8))
    } throws: { error in
      guard case DecodingError.dataCorrupted = error else {
        if case DecodingError.typeMismatch = error { return json == "0" }
        return false
      }
      return json != "0"
    }
  }
}
