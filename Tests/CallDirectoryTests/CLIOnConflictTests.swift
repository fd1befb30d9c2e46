import CallDirectory
import CallDirectoryCLI
import Foundation
import Testing

/// `pack --on-conflict error|first|last`: one number given different labels across inputs and
/// within one, counted in the summary and `--json`, and under `error --keep-going` every line of
/// such a number reported, written to `--rejects` and left out.
@Suite struct CLIOnConflictTests {
  /// Two identify files: +…100 is Acme, then Acme Support, then Acme again; +…102 is Clinic, then
  /// Clinic Two in the second file; +…101 has one label.
  static func inputs(_ scratch: ScratchDirectory) throws -> (a: String, b: String) {
    let a = try scratch.write("a.csv", "number,label\n+12025550100,Acme\n+12025550101,Bank\n+12025550100,Acme Support\n")
    let b = try scratch.write("b.csv", "number,label\n+12025550100,Acme\n+12025550102,Clinic\n+12025550102,Clinic Two\n")
    return (a, b)
  }

  @Test func firstAndLastKeepALabelInInputOrder() throws {
    let scratch = try ScratchDirectory()
    let (a, b) = try Self.inputs(scratch)
    let out = scratch.path("x.calldir")
    let first = calldir("pack", "-i", a, "-i", b, "--on-conflict", "first", "--json", "-o", out)
    #expect(first.status == 0, "\(first.error)")
    #expect(first.output.contains(#""onConflict":"first","labelConflicts":2"#), "\(first.output)")
    #expect(
      calldir("unpack", out).output
        == "kind,number,label\nidentify,+12025550100,Acme\nidentify,+12025550101,Bank\nidentify,+12025550102,Clinic\n")
    let last = calldir("pack", "-i", a, "-i", b, "--on-conflict", "last", "--verbose", "-o", out)
    #expect(last.status == 0, "\(last.error)")
    #expect(last.error.contains("; kept the last label of 2 numbers given conflicting labels"), "\(last.error)")
    #expect(
      calldir("unpack", out).output
        == "kind,number,label\nidentify,+12025550100,Acme\nidentify,+12025550101,Bank\nidentify,+12025550102,Clinic Two\n")
    // The inputs' order is the command line's: b before a makes a.csv's last line the last label.
    _ = calldir("pack", "-i", b, "-i", a, "--on-conflict", "last", "-o", out)
    #expect(calldir("lookup", "--json", out, "+12025550100").output.contains(#""label":"Acme Support""#))
    // "Acme Support" lost everywhere under first: it is not in the label table.
    _ = calldir("pack", "-i", a, "-i", b, "--on-conflict", "first", "-o", out)
    #expect(try CallDirectoryReader(path: out).labelCount == 3)
  }

  @Test func errorEndsThePackNamingTheLinesAndAWayOut() throws {
    let scratch = try ScratchDirectory()
    let (a, b) = try Self.inputs(scratch)
    let out = scratch.path("x.calldir")
    let refused = calldir("pack", "-i", a, "-i", b, "-o", out)
    #expect(refused.status == 1)
    #expect(
      refused.error
        == "calldir: \(a):2: +12025550100 has two labels: \"Acme\" and \"Acme Support\" (and \(a):4)"
        + CLIOutputEdgeTests.conflictHint + "\n")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test func errorWithKeepGoingReportsEveryLineAndLeavesTheNumbersOut() throws {
    let scratch = try ScratchDirectory()
    let (a, b) = try Self.inputs(scratch)
    let out = scratch.path("x.calldir")
    let rejects = scratch.path("rejects.csv")
    let result = calldir("pack", "-i", a, "-i", b, "--rejects", rejects, "--json", "-o", out)
    #expect(result.status == 0, "\(result.error)")
    let left = ": every entry of the number is left out"
    #expect(
      result.error == """
        calldir: \(a):2: +12025550100 is given other labels too\(left)
        calldir: \(a):4: +12025550100 is given other labels too\(left)
        calldir: \(b):2: +12025550100 is given other labels too\(left)
        calldir: \(b):3: +12025550102 is given other labels too\(left)
        calldir: \(b):4: +12025550102 is given other labels too\(left)
        calldir: 5 bad lines skipped (--keep-going); written to \(rejects)

        """)
    #expect(result.output.contains(#""onConflict":"error","labelConflicts":2"#), "\(result.output)")
    #expect(result.output.contains(#""rejected":5"#))
    #expect(
      try String(contentsOfFile: rejects, encoding: .utf8)
        == "number,label\n+12025550100,Acme\n+12025550100,Acme Support\nnumber,label\n+12025550100,Acme\n"
        + "+12025550102,Clinic\n+12025550102,Clinic Two\n")
    #expect(calldir("unpack", out).output == "kind,number,label\nidentify,+12025550101,Bank\n")
    // Fixed and fed again, the rejected lines pack.
    let fixed = try scratch.write("fixed.csv", "number,label\n+12025550100,Acme\n+12025550102,Clinic\n")
    #expect(calldir("pack", out, "-i", fixed, "-o", scratch.path("y.calldir")).status == 0)
  }

  @Test func standardInputIsReportedByNumber() throws {
    let scratch = try ScratchDirectory()
    let result = calldir(
      "pack", "-i", "-", "-k", "-o", scratch.path("x.calldir"),
      input: "+12025550100,A\n+12025550100,B\n+12025550101,C\n")
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.contains("<stdin>: +12025550100 is given conflicting labels: every entry of the number is left out"))
  }

  @Test func aBadPolicyIsAUsageError() {
    let result = calldir("pack", "-i", "x.csv", "--on-conflict", "fist", "-o", "x.calldir")
    #expect(result.status == 2)
    #expect(result.error.hasPrefix("calldir: --on-conflict needs error, first, last, not fist; did you mean 'first'?"))
  }

  /// Random identify files, each policy, against a model that reads the files in order.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func againstAModel(seed: UInt64) throws {
    let scratch = try ScratchDirectory()
    var random = SeededGenerator(seed: seed)
    var files: [String] = []
    var given: [(number: Int64, label: String)] = []
    for file in 0..<3 {
      var text = "number,label\n"
      for _ in 0..<Int.random(in: 1...25, using: &random) {
        let number = 12_025_550_100 + Int64.random(in: 0..<12, using: &random)
        let label = ["A", "B", "C"].randomElement(using: &random)!
        text += "+\(number),\(label)\n"
        given.append((number, label))
      }
      files.append(try scratch.write("\(file).csv", text))
    }
    for policy in ["first", "last"] {
      let out = scratch.path("\(policy).calldir")
      let result = calldir(["pack", "--on-conflict", policy, "-o", out] + files.flatMap { ["-i", $0] })
      #expect(result.status == 0, "seed \(seed): \(result.error)")
      let expected = LabelConflictTests.model(given, policy == "first" ? .keepFirst : .keepLast).labels
      let listed = calldir("unpack", out).output.split(separator: "\n").dropFirst().map { line in
        let fields = line.split(separator: ",")
        return (Int64(fields[1].dropFirst())!, String(fields[2]))
      }
      #expect(Dictionary(uniqueKeysWithValues: listed) == expected, "seed \(seed) \(policy)")
    }
  }
}
