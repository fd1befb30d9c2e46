import CallDirectory
import CallDirectorySystem

/// `calldir verify`: every problem of every file, then exit 0 only when all are valid.
struct Verify {
  let files: [String]
  let callKit: Bool
  let json: Bool
  let quiet: Bool
  var trust: [String] = []
  var installedVersion: UInt64?
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    var options = VerificationOptions()
    options.callKit = callKit
    let keys = try Keys.trusted(trust)
    options.trust = TrustPolicy(trustedKeys: keys.map(\.0), installedVersion: installedVersion)
    var allValid = true
    for file in files {
      let report: VerificationReport
      if file == "-" {
        report = Verifier.verify(try Inputs.read(file, console: console), options: options)
      } else {
        let progress = ProgressLine(console: console, label: "verify \(file)", quiet: quiet)
        report = Verifier.verify(path: file, options: options, progress: progress.advance)
        progress.finish()
      }
      allValid = allValid && report.isValid
      let name = Inputs.displayName(file)
      do {
        if json {
          try console.print(JSON.render(Verify.json(report, file: name, signer: report.signer.map { Keys.describe($0, among: keys) })))
        } else {
          for problem in report.problems { try console.print("\(name): \(Self.text(problem))") }
          if report.truncatedProblemList { try console.print("\(name): (more problems not listed)") }
          let signed = report.signer.map { ", signed by \(Keys.describe($0, among: keys))" } ?? ""
          let version = report.listVersion > 0 ? ", list version \(report.listVersion)" : ""
          try console.print(
            report.isValid
              ? "\(name): ok (\(Self.counts(report))\(version)\(signed))"
              : "\(name): INVALID (\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"))")
        }
      } catch {
        throw CommandFailure("cannot write: \(error.message)")
      }
    }
    return allValid ? CLI.ExitCode.success : CLI.ExitCode.failure
  }

  /// `N blocking, N identification, N labels`, each kind with its ranges when it has any:
  /// `0 blocking and 1 range, ...`.
  static func counts(_ report: VerificationReport) -> String {
    func ranges(_ count: Int) -> String { count == 0 ? "" : " and \(count) range\(count == 1 ? "" : "s")" }
    return "\(report.blockingCount) blocking\(ranges(report.blockingRangeCount)), "
      + "\(report.identificationCount) identification\(ranges(report.identificationRangeCount)), \(report.labelCount) labels"
  }

  /// A problem as a line says it after the file's name: a file that could not be read says so
  /// as the other commands do, without repeating its path or a place in it.
  static func text(_ problem: VerificationProblem) -> String {
    guard case .system(let operation, _, _, let message) = problem.error.kind else { return "\(problem)" }
    return operation == "open" ? "cannot open: \(message)" : "cannot read: \(operation) failed: \(message)"
  }

  static func json(_ report: VerificationReport, file: String, signer: String? = nil) -> JSON.Value {
    .object([
      ("file", .string(file)), ("valid", .bool(report.isValid)),
      ("blocking", .int(report.blockingCount)), ("blockingRanges", .int(report.blockingRangeCount)),
      ("identification", .int(report.identificationCount)),
      ("identificationRanges", .int(report.identificationRangeCount)), ("labels", .int(report.labelCount)),
      // A string: list versions are 64-bit, past the integers a JSON reader keeps exactly.
      ("listVersion", .string(String(report.listVersion))), ("signer", signer.map { .string($0) } ?? .null),
      (
        "problems",
        .array(
          report.problems.map { problem in
            .object([
              ("offset", .int(problem.error.offset)), ("section", problem.error.section.map { .string($0) } ?? .null),
              ("message", .string(problem.error.kind.message)), ("callKit", .bool(problem.isCallKitLimit)),
            ])
          })
      ),
      ("truncated", .bool(report.truncatedProblemList)),
    ])
  }
}
