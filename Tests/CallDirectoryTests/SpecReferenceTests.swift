import Foundation
import Testing

/// Every reference from the code to a part of the spec (`Spec/FORMAT.md`, "Entry index", or
/// `Spec/FORMAT.md` section 14, or CHANGESET §4.2) names a heading the document has.
@Suite struct SpecReferenceTests {
  /// A document's numbered sections and its headings' titles, lowercased.
  struct Headings {
    var numbers: Set<String> = []
    var titles: [String] = []
  }

  static func headings() throws -> [String: Headings] {
    var documents: [String: Headings] = [:]
    let spec = SpecVectorTests.root.appendingPathComponent("Spec")
    for name in try FileManager.default.contentsOfDirectory(atPath: spec.path) where name.hasSuffix(".md") {
      var headings = Headings()
      let text = try String(contentsOf: spec.appendingPathComponent(name), encoding: .utf8)
      for line in text.split(separator: "\n") where line.hasPrefix("#") {
        let title = line.drop { $0 == "#" || $0 == " " }
        if let match = title.wholeMatch(of: /(\d+(?:\.\d+)*)\.?\s+(.*)/) {
          headings.numbers.insert(String(match.1))
          headings.titles.append(match.2.lowercased())
        } else {
          headings.titles.append(title.lowercased())
        }
      }
      documents[name] = headings
    }
    return documents
  }

  /// The Swift files of the package: sources, tests and samples.
  static func swiftFiles() -> [URL] {
    ["Sources", "Tests", "Samples"].flatMap { folder -> [URL] in
      let base = SpecVectorTests.root.appendingPathComponent(folder)
      let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
      return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }
    }
  }

  @Test func everyReferenceNamesAHeadingTheSpecHas() throws {
    let documents = try Self.headings()
    #expect(documents["FORMAT.md"]?.numbers.contains("14") == true, "the headings are read")
    let reference = /([A-Z]+\.md)`?,?\s+(?:"([^"]+)"|sections?\s+(\d+(?:\.\d+)*)|§\s*(\d+(?:\.\d+)*))/
    var broken: [String] = []
    var checked = 0
    for file in Self.swiftFiles() {
      let text = try String(contentsOf: file, encoding: .utf8)
      for match in text.matches(of: reference) {
        guard let headings = documents[String(match.1)] else { continue }
        checked += 1
        if let title = match.2 {
          let wanted = title.lowercased()
          if !headings.titles.contains(where: { $0.hasPrefix(wanted) }) { broken.append("\(file.lastPathComponent): \(match.0)") }
        } else if let number = match.3 ?? match.4, !headings.numbers.contains(String(number)) {
          broken.append("\(file.lastPathComponent): \(match.0)")
        }
      }
    }
    #expect(checked > 50, "the references are found")
    #expect(broken.isEmpty, "\(broken)")
  }
}
