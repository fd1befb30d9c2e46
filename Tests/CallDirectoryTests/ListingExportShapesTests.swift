import CallDirectoryFormat
import Foundation
import Testing

@testable import CallDirectoryListing

/// What spreadsheets and contact exports write, read as `Spec/INPUT.md` sections 2, 3 and 3.1
/// say: other names for the columns, a space after each comma, `#` comment lines, and, where a
/// file cannot be read, an error that says what it most likely is.
@Suite("Listing exports as written")
struct ListingExportShapesTests {
  typealias Support = ListingTestSupport

  static func identify(_ text: String, format: TableFormat = .csv) throws(ListingError) -> [ListingRecord] {
    try IdentifyCSVParser.parse(bytes: Support.bytes(text), file: "ids.csv", parser: .formatDomain, format: format)
  }

  static func listing(_ text: String, format: TableFormat = .csv) throws(ListingError) -> [ListingRecord] {
    try ListingParser.parse(bytes: Support.bytes(text), file: "list.csv", parser: .formatDomain, format: format)
  }

  static func failure(_ body: () throws(ListingError) -> [ListingRecord]) -> ListingError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "A header may name the columns as exports do, in any case, with spaces, _ or - inside",
    arguments: [
      "Phone,Name", "\"Phone Number\",Label", "phone_number,NAME", "Telephone, name", "MSISDN,Label", "number, label",
    ])
  func headerNames(header: String) throws {
    #expect(try Self.identify("\(header)\n+12025550100,Acme\n") == [.identify(12_025_550_100, label: "Acme", line: 2)])
    // The same names in the other order.
    let swapped = header.split(separator: ",").reversed().joined(separator: ",")
    #expect(try Self.identify("\(swapped)\nAcme,+12025550100\n") == [.identify(12_025_550_100, label: "Acme", line: 2)])
  }

  @Test("A listing's header names its columns the same way")
  func listingHeaderNames() throws {
    let text = "Kind, Phone Number, Name\nidentify, +12025550100, Acme\nblock, +12025550101,\n"
    #expect(
      try Self.listing(text) == [.identify(12_025_550_100, label: "Acme", line: 2), .block(12_025_550_101, line: 3)])
  }

  @Test("Header names are not guessed: another word is an unknown column, and two names of one column are refused")
  func headerNamesNotGuessed() throws {
    let unknown = Self.failure { () throws(ListingError) in try Self.identify("Name,Phone,Email\n") }
    #expect(unknown?.message == "unknown column \"Email\" in the header (known: number, label)")
    let callerID = Self.failure { () throws(ListingError) in try Self.identify("Caller ID,Name\n") }
    #expect(callerID?.message.contains("unknown column \"Caller ID\"") == true)
    let twice = Self.failure { () throws(ListingError) in try Self.identify("Phone,Number,Label\n") }
    #expect(twice?.message == "column \"number\" named twice in the header")
    // A data row whose label is a column's other name is data.
    #expect(try Self.identify("+12025550100,Name\n") == [.identify(12_025_550_100, label: "Name", line: 1)])
  }

  @Test("Unquoted labels and kinds lose the spaces and tabs around them; quoted ones keep them")
  func trimming() throws {
    let text =
      "kind,number,label\n identify , +12025550100 ,\t Acme Corp \nblock,+12025550101,  \n"
      + "identify,+12025550102,\" Spaced \"\n"
    #expect(
      try Self.listing(text) == [
        .identify(12_025_550_100, label: "Acme Corp", line: 2), .block(12_025_550_101, line: 3),
        .identify(12_025_550_102, label: " Spaced ", line: 4),
      ])
    // A label of only spaces is empty, and refused as an empty label is.
    let blank = Self.failure { () throws(ListingError) in try Self.identify("+12025550100,   \n") }
    #expect(blank?.message.hasPrefix("empty label") == true)
    // A quoted block label of spaces is a label.
    let quoted = Self.failure { () throws(ListingError) in try Self.listing("block,+12025550100,\" \"\n") }
    #expect(quoted?.message == "block entry has a label (leave the label field empty)")
    // Tab-separated labels are trimmed alike.
    #expect(try Self.identify("+12025550100\t Acme \n", format: .tsv) == [.identify(12_025_550_100, label: "Acme", line: 1)])
  }

  @Test("# begins a comment line wherever data cannot begin with it")
  func comments() throws {
    let text =
      "# export of 2026-12-01, \"names\"\n  # owner: ops\nnumber,label\n# a comment, with a \" quote\n"
      + "+12025550100,Acme\n\t#\n"
    var records: [ListingRecord] = []
    let skipped = try IdentifyCSVParser.parse(bytes: Support.bytes(text), file: "ids.csv", parser: .formatDomain) {
      records.append($0)
    }
    #expect(records == [.identify(12_025_550_100, label: "Acme", line: 5)])
    #expect(skipped == 4)
    // Without a header, and in a listing and TSV alike.
    #expect(try Self.identify("# c\n+12025550100,Acme\n") == [.identify(12_025_550_100, label: "Acme", line: 2)])
    #expect(try Self.listing("# c\nblock,+12025550100\n# d\n") == [.block(12_025_550_100, line: 2)])
    #expect(try Self.identify("# c\n+12025550100\tAcme\n", format: .tsv) == [.identify(12_025_550_100, label: "Acme", line: 2)])
  }

  @Test("A header that puts the label first makes a # line data: the label may begin with it")
  func labelFirstKeepsHashes() throws {
    #expect(
      try Self.identify("label,number\n#1 Pizza,+12025550100\n") == [.identify(12_025_550_100, label: "#1 Pizza", line: 2)])
    // A quoted label in the number's place is still no comment.
    let quoted = Self.failure { () throws(ListingError) in try Self.identify("\"#1 Pizza\",+12025550100\n") }
    #expect(quoted?.line == 1)
  }

  /// The table of hints in `Spec/INPUT.md` section 3: each row's line, read as the row says,
  /// fails with a message that ends as the row says.
  @Test("The spec's table of hints, row by row")
  func specHints() throws {
    let url = SpecVectorTests.root.appendingPathComponent("Spec/INPUT.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let table = try #require(text.components(separatedBy: "A line that cannot be read says what").dropFirst().first)
    let rows = table.split(separator: "\n").prefix { !$0.hasPrefix("(") }.compactMap { line -> [String]? in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3, cells[0].hasPrefix("`") else { return nil }
      return cells.map { $0.hasPrefix("`") ? String($0.dropFirst().dropLast()) : $0 }
    }
    #expect(rows.count == 6)
    for row in rows {
      let line = row[0].replacingOccurrences(of: "<TAB>", with: "\t") + "\n"
      let format: TableFormat = row[1].hasSuffix(", TSV") ? .tsv : .csv
      var errors: [ListingError?] = []
      if row[1].hasPrefix("a block list") {
        errors.append(
          Self.failure { () throws(ListingError) in
            try BlockListParser.parse(bytes: Support.bytes(line), file: "b.txt", parser: .formatDomain)
          })
      }
      if row[1].contains("an identify file") {
        errors.append(Self.failure { () throws(ListingError) in try Self.identify(line, format: format) })
      }
      if row[1].contains("a listing") {
        errors.append(Self.failure { () throws(ListingError) in try Self.listing(line, format: format) })
      }
      #expect(!errors.isEmpty, "\(row)")
      for error in errors {
        #expect(error?.message.hasSuffix(row[2]) == true, "\(row): \(String(describing: error))")
      }
    }
  }

  @Test("A number,label line given as a block list or as a listing says where it goes")
  func wrongKindOfFile() {
    let block = Self.failure { () throws(ListingError) in
      try BlockListParser.parse(bytes: Support.bytes("+12025550100,Acme\n"), file: "b.txt", parser: .formatDomain)
    }
    #expect(block?.message.hasSuffix("; a file of number,label lines is given with --identify") == true)
    let tab = Self.failure { () throws(ListingError) in
      try BlockListParser.parse(bytes: Support.bytes("+12025550100\tAcme\n"), file: "b.txt", parser: .formatDomain)
    }
    #expect(tab?.message.hasSuffix("given with --identify") == true)
    // No hint where no number comes before the comma.
    let notNumber = Self.failure { () throws(ListingError) in
      try BlockListParser.parse(bytes: Support.bytes("Acme,+12025550100\n"), file: "b.txt", parser: .formatDomain)
    }
    #expect(notNumber?.message.contains("--identify") == false)
    let listing = Self.failure { () throws(ListingError) in try Self.listing("+12025550100,Acme\n") }
    #expect(
      listing?.message
        == "unknown kind \"+12025550100\" (expected \"block\", \"identify\" or \"allow\"); a file of number,label lines is given with --identify, one of numbers with --block"
    )
    let word = Self.failure { () throws(ListingError) in try Self.listing("blocked,+12025550100\n") }
    #expect(word?.message.contains("--identify") == false)
  }

  @Test("The separator hints know TSV from CSV, and are given under a header too")
  func separatorHintsByFormat() {
    let tsvSemicolon = Self.failure { () throws(ListingError) in try Self.identify("+12025550100;Acme\n", format: .tsv) }
    #expect(tsvSemicolon?.message.hasSuffix("; fields are separated by tabs, not semicolons") == true)
    let tsvComma = Self.failure { () throws(ListingError) in try Self.identify("+12025550100,Acme\n", format: .tsv) }
    #expect(tsvComma?.message.hasSuffix("a comma-separated file is read with --format csv") == true)
    let underHeader = Self.failure { () throws(ListingError) in try Self.identify("Phone,Name\n+12025550100;Acme\n") }
    #expect(
      underHeader?.message == "expected 2 fields, as the header names, found 1; fields are separated by commas, not semicolons")
    // A header that puts the kind second: a row in another order gets no advice about --identify.
    let reordered = Self.failure { () throws(ListingError) in try Self.listing("number,kind\nblock,+12025550101\n") }
    #expect(reordered?.message.hasPrefix("unknown kind \"+12025550101\"") == true)
    #expect(reordered?.message.contains("--identify") == false)
  }

  @Test("A line of one field holding a semicolon or a tab names the separator")
  func otherSeparators() {
    let semicolon = Self.failure { () throws(ListingError) in try Self.identify("+12025550100;Acme\n") }
    #expect(semicolon?.message == "expected 2 fields (number,label), found 1; fields are separated by commas, not semicolons")
    let tab = Self.failure { () throws(ListingError) in try Self.listing("block\t+12025550100\n") }
    #expect(
      tab?.message
        == "expected 3 fields (kind,number,label), found 1; fields are separated by commas, and a tab-separated file is read with --format tsv"
    )
  }
}
