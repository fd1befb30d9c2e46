import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// CSV and TSV inputs read in pieces (`--memory 1` makes them 1 MiB): the same directory as one
/// read whole, the header carried across pieces, pieces never cutting a quoted field, and
/// errors naming the file's own line.
@Suite struct CLITablePiecesTests {
  /// An identify file of about 2 MiB whose header orders the columns, with labels holding
  /// commas, doubled quotes and line breaks; `bad` replaces one record near the end.
  static func identifyCSV(records: Int, bad: String? = nil) -> (text: String, badLine: Int) {
    var lines = ["Label,NUMBER"]
    var line = 2
    var badLine = 0
    for index in 0..<records {
      let number = 12_025_000_000 + index * 3
      if let bad, index == records - 10 {
        lines.append(bad)
        badLine = line
        line += 1
        continue
      }
      switch index % 4 {
      case 0:
        lines.append("\"Caller \(index), \"\"quoted\"\"\nsecond line \(index)\",+\(number)")
        line += 2
        continue
      case 1: lines.append("Plain \(index) \(String(repeating: "x", count: index % 40)),+\(number)")
      case 2:
        lines.append("\"\(String(repeating: "\n", count: index % 5))\"\"\",+\(number)")
        line += index % 5
      default: lines.append("\"A, B\",\(number)")
      }
      line += 1
    }
    return (lines.joined(separator: "\n") + "\n", badLine)
  }

  @Test func aCSVReadInPiecesPacksAsReadWhole() throws {
    let scratch = try ScratchDirectory()
    let (text, _) = Self.identifyCSV(records: 60_000)
    #expect(text.utf8.count > 2 << 20)
    let input = try scratch.write("ids.csv", text)
    let whole = calldir("pack", "-q", "--identify", input, "-o", scratch.path("whole.calldir"))
    #expect(whole.status == 0, "\(whole.error)")
    let pieces = calldir("pack", "-q", "--memory", "1", "--identify", input, "-o", scratch.path("pieces.calldir"))
    #expect(pieces.status == 0, "\(pieces.error)")
    let same =
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("whole.calldir")))
      == Data(contentsOf: URL(fileURLWithPath: scratch.path("pieces.calldir")))
    #expect(same)
    let piped = calldir("pack", "-q", "--memory", "1", "--identify", "-", "-o", scratch.path("piped.calldir"), input: text)
    #expect(piped.status == 0, "\(piped.error)")
  }

  /// A bad record in the last piece is named by its line in the file, as a whole read names
  /// it (the same message); a byte order mark there is data (an error), not skipped as at the
  /// start.
  @Test(arguments: ["\u{FEFF}+12029999999,Label", "not a number,Label", "\"unterminated,+12029999999"])
  func errorsInALaterPieceNameTheFilesLine(bad: String) throws {
    let scratch = try ScratchDirectory()
    let (text, badLine) = Self.identifyCSV(records: 60_000, bad: bad)
    let input = try scratch.write("ids.csv", text)
    let whole = calldir("pack", "-q", "--identify", input, "-o", scratch.path("whole.calldir"))
    let pieces = calldir("pack", "-q", "--memory", "1", "--identify", input, "-o", scratch.path("pieces.calldir"))
    #expect(whole.status == 1 && pieces.status == 1)
    #expect(whole.error == pieces.error)
    // An unterminated quote runs on over the records after it: its error comes later.
    if !bad.hasPrefix("\"") { #expect(pieces.error.contains("ids.csv:\(badLine):"), "line \(badLine): \(pieces.error)") }
  }

  @Test func aTSVListingReadInPiecesKeepsItsHeader() throws {
    let scratch = try ScratchDirectory()
    var lines = ["number\tkind\tlabel"]
    for index in 0..<120_000 {
      lines.append(index % 2 == 0 ? "+\(12_025_000_000 + index)\tblock\t" : "+\(12_025_000_000 + index)\tidentify\tName \(index)")
    }
    let input = try scratch.write("list.tsv", lines.joined(separator: "\n"))
    #expect(lines.joined(separator: "\n").utf8.count > 3 << 20)
    let whole = calldir("pack", "-q", input, "-o", scratch.path("whole.calldir"))
    let pieces = calldir("pack", "-q", "--memory", "1", input, "-o", scratch.path("pieces.calldir"))
    #expect(whole.status == 0 && pieces.status == 0, "\(whole.error) \(pieces.error)")
    let same =
      try Data(contentsOf: URL(fileURLWithPath: scratch.path("whole.calldir")))
      == Data(contentsOf: URL(fileURLWithPath: scratch.path("pieces.calldir")))
    #expect(same)
  }

  /// A byte order mark that begins the second piece exactly (1 MiB pieces cut at the last line
  /// end of the first MiB read) is data there, as a whole read finds it.
  @Test(arguments: [false, true]) func aByteOrderMarkAtAPieceStartIsData(tsv: Bool) throws {
    let scratch = try ScratchDirectory()
    let separator = tsv ? "\t" : ","
    let header = "number\(separator)label\n"
    let record = { (index: Int) in "+\(12_025_000_000 + index)\(separator)Name \(String(100_000 + index))\n" }
    let size = record(0).utf8.count
    let second = ((1 << 20) - header.utf8.count) / size  // the first record past the first MiB's last line end
    var text = header
    for index in 0..<(second + 100) { text += (index == second ? "\u{FEFF}" : "") + record(index) }
    let input = try scratch.write(tsv ? "ids.tsv" : "ids.csv", text)
    let whole = calldir("pack", "-q", "--identify", input, "-o", scratch.path("whole.calldir"))
    let pieces = calldir("pack", "-q", "--memory", "1", "--identify", input, "-o", scratch.path("pieces.calldir"))
    #expect(whole.status == 1 && pieces.status == 1)
    #expect(whole.error == pieces.error)
    #expect(pieces.error.contains(":\(second + 2):"), "\(pieces.error)")
  }
}
