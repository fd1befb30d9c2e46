import Foundation
import Testing

/// Replays the committed fuzzing corpora (`Tests/Fuzz/Corpus/HARNESS/`: the inputs `.ci/fuzz`
/// found that reach new code, and every input that once crashed, named `crash-*`) and the spec's
/// vectors through the harnesses, with the plain build of `calldir-fuzz`. A harness traps on a
/// finding, so a regression fails here without libFuzzer.
@Suite struct FuzzReplayTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The `calldir-fuzz` executable beside `calldir`.
  static var executable: String {
    URL(fileURLWithPath: CalldirExecutable.path).deletingLastPathComponent().appendingPathComponent("calldir-fuzz").path
  }

  static func replay(_ harness: String, _ paths: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [harness] + paths.map { Self.root.appendingPathComponent($0).path }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
  }

  @Test(arguments: [
    ("reader", ["Spec/vectors", "Spec/vectors/v1", "Spec/vectors/invalid", "Samples", "Tests/Fuzz/Corpus/reader"]),
    ("verifier", ["Spec/vectors", "Spec/vectors/v1", "Spec/vectors/invalid", "Samples", "Tests/Fuzz/Corpus/verifier"]),
    ("changeset", ["Spec/vectors/changesets", "Tests/Fuzz/Corpus/changeset"]),
    ("listing", ["Tests/Fuzz/Corpus/listing"]),
    ("number", ["Tests/Fuzz/Corpus/number"]),
    ("service", ["Tests/Fuzz/Corpus/service"]),
  ])
  func replaysTheCorpus(harness: String, paths: [String]) throws {
    let result = try Self.replay(harness, paths)
    #expect(result.status == 0, "\(result.output)")
    // The count proves the inputs were found and run: a wrong path would replay nothing.
    let count = result.output.split(separator: "\n").last.flatMap { line in
      line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    #expect((count ?? 0) >= 5, "\(result.output)")
  }
}
