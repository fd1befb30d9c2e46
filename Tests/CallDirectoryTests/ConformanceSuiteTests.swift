import CallDirectory
import Foundation
import Testing

/// The directory cases of `Spec/conformance/`: the library's verifier gives each the manifest's
/// verdict (the normative result, `Spec/FORMAT.md` section 18), a valid one decodes to its
/// expected listing, and an invalid one's first problem is still the one the manifest notes (the
/// note is informative for other implementations, and a change of this package's order of checks
/// shows here). The command-line contract is checked by `Spec/conformance/run` in CI.
@Suite struct ConformanceSuiteTests {
  static let suite = SpecVectorTests.root.appendingPathComponent("Spec/conformance")

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var valid: Bool
    /// The noted first problem of an invalid case: offset (`nil` for a problem of the whole
    /// file, noted `-`), then message.
    var note: (offset: Int?, message: String)?
    var description: String { name }
  }

  static func directoryCases() throws -> [Case] {
    let text = try String(contentsOf: suite.appendingPathComponent("MANIFEST"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " # ", maxSplits: 1).map(String.init)
      let fields = parts[0].split(separator: " ").map(String.init)
      guard fields.count == 3, fields[0] == "directory" else { return nil }
      let note = parts.count == 2 ? parts[1].split(separator: " ", maxSplits: 1).map(String.init) : []
      return Case(
        name: fields[1], valid: fields[2] == "valid",
        note: note.count == 2 && (note[0] == "-" || Int(note[0]) != nil) ? (Int(note[0]), note[1]) : nil)
    }
  }

  @Test func everyRuleKindHasBothVerdicts() throws {
    let cases = try Self.directoryCases()
    #expect(cases.filter(\.valid).count >= 10)
    #expect(cases.filter { !$0.valid }.count >= 20)
    #expect(cases.allSatisfy { $0.valid == ($0.note == nil) }, "every invalid case notes its first problem")
  }

  @Test(arguments: try directoryCases())
  func verdictAndContents(_ conformanceCase: Case) throws {
    let url = Self.suite.appendingPathComponent("cases/\(conformanceCase.name).calldir")
    let bytes = try [UInt8](Data(contentsOf: url))
    let report = Verifier.verify(bytes, options: VerificationOptions())
    #expect(report.isValid == conformanceCase.valid, "\(conformanceCase.name): \(report.problems)")
    if let note = conformanceCase.note {
      let first = try #require(report.problems.first)
      #expect((first.error.isPlaced ? first.error.offset : nil) == note.offset, "\(conformanceCase.name): \(first)")
      #expect(first.description.contains(note.message), "\(conformanceCase.name): \(first)")
    } else {
      let expected = try [UInt8](Data(contentsOf: Self.suite.appendingPathComponent("expected/\(conformanceCase.name).csv")))
      let reader = try CallDirectoryReader(path: url.path)
      #expect(try SpecVectorTests.unpack(reader) == expected)
      // The lookups the runner checks through `lookup --json`, here through the library.
      let lookups = try String(
        contentsOf: Self.suite.appendingPathComponent("expected/\(conformanceCase.name).lookup"), encoding: .utf8)
      for line in lookups.split(separator: "\n") {
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let number = try #require((fields["number"] as? String).flatMap { Int64($0.dropFirst()) })
        let result = try reader.lookup(number)
        #expect(result.blocked == fields["blocked"] as? Bool, "\(conformanceCase.name): \(line)")
        #expect(result.label == fields["label"] as? String, "\(conformanceCase.name): \(line)")
      }
    }
  }

  /// `COVERAGE` maps every rule of FORMAT.md and CHANGESET.md to the cases that show it: every
  /// case of the manifest is in it, every case it names is in the manifest with the verdict its
  /// column says, every rule has an invalid case or says why none can exist, and every section
  /// it cites is a section of its document.
  @Test func theCoverageMapAndTheManifestAgree() throws {
    let manifest = try String(contentsOf: Self.suite.appendingPathComponent("MANIFEST"), encoding: .utf8)
    var verdicts: [String: String] = [:]
    for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: " ").map(String.init)
      if fields.count >= 3 { verdicts[fields[1]] = fields[2] }
    }
    let map = try String(contentsOf: Self.suite.appendingPathComponent("COVERAGE"), encoding: .utf8)
    let documents = [
      "F": try String(contentsOf: SpecVectorTests.root.appendingPathComponent("Spec/FORMAT.md"), encoding: .utf8),
      "C": try String(contentsOf: SpecVectorTests.root.appendingPathComponent("Spec/CHANGESET.md"), encoding: .utf8),
    ]
    var named = Set<String>()
    var rules = 0
    for line in map.split(separator: "\n") where !line.hasPrefix("#") {
      let columns = line.components(separatedBy: " | ")
      try #require(columns.count == 4, "\(line)")
      rules += 1
      let rule = columns[0]
      // F5.1/stride cites FORMAT section 5.1: its heading is "### 5.1 " (or "## 5. " for 5).
      let section = String(rule.dropFirst().prefix { $0 != "/" })
      let heading = section.contains(".") ? "# \(section) " : "## \(section). "
      #expect(documents[String(rule.prefix(1))]?.contains(heading) == true, "\(rule): no section \(section)")
      for (column, verdict) in [(columns[2], "invalid"), (columns[3], "valid")] where !column.hasPrefix("- ") {
        for name in column.components(separatedBy: ", ") {
          named.insert(name)
          let found = verdicts[name] ?? "missing"
          #expect(found == verdict || (verdict == "valid" && found == "either"), "\(rule): \(name) is \(found)")
        }
      }
      #expect(!columns[2].isEmpty && !columns[3].isEmpty, "\(rule)")
    }
    #expect(rules >= 100)
    #expect(Set(verdicts.keys).subtracting(named).sorted() == [], "cases in no rule")
  }

  /// `Spec/FORMAT.md` section 7.1's worked example: the five numbers make the eleven bytes it shows.
  @Test func workedEliasFanoBlock() throws {
    var builder = DirectoryBuilder()
    for number: Int64 in [5_551_000, 5_551_003, 5_551_004, 5_551_010, 5_551_031] { try builder.block(number...number) }
    let file = try builder.encoded()
    // The table entry of BDAT (FORMAT section 4.2), read as the spec lays it out.
    func u64(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[at + $1]) << (8 * $1) } }
    let entries = (0..<Int(file[12])).map { 32 + 32 * $0 }
    let entry = try #require(entries.first { Array(file[$0..<$0 + 4]) == Array("BDAT".utf8) })
    let block = Array(file[u64(entry + 8)..<u64(entry + 8) + u64(entry + 16)])
    #expect(block == [0x00, 0x02, 0x00, 0x00, 0xE3, 0x15, 0x04, 0x81, 0x32, 0xD8, 0x4B])
    let reader = try CallDirectoryReader(bytes: file)
    #expect(try reader.isBlocked(5_551_010))
    #expect(try !reader.isBlocked(5_551_005))
  }
}
