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
        report = Verifier.verify(try Inputs.readDirectoryInput(console: console), options: options)
      } else {
        let progress = ProgressLine(console: console, label: "verify \(file)", quiet: quiet)
        defer { progress.finish() }
        do { report = try Verifier.verify(path: file, options: options, progress: progress.advance) } catch {
          allValid = false
          try unreadable(file, error)
          continue
        }
      }
      allValid = allValid && report.isValid
      let name = Inputs.displayName(file)
      do {
        if json {
          try console.print(
            JSON.render(Verify.json(report, file: name, signer: report.signer.map { Keys.describe($0, among: keys) })))
        } else {
          for problem in report.problems { console.report("\(name): \(problem)") }
          if let failure = report.authenticityFailure { console.report("\(name): \(failure)") }
          if report.truncatedProblemList { console.report("\(name): (more problems not listed)") }
          let signed = report.signer.map { ", signed by \(Keys.describe($0, among: keys))" } ?? ""
          let version = report.listVersion > 0 ? ", list version \(report.listVersion)" : ""
          try console.print(
            report.isValid
              ? "\(name): \(console.styledOutput("ok", .good)) (\(Self.counts(report))\(version)\(signed))"
              : "\(name): \(console.styledOutput("INVALID", .bad)) (\(Self.problemCount(report)))")
        }
      } catch {
        throw CommandFailure("cannot write: \(error.message)")
      }
    }
    return allValid ? CLI.ExitCode.success : CLI.ExitCode.failure
  }

  /// `N problem(s)`: the format problems and a refusal of the trust policy.
  static func problemCount(_ report: VerificationReport) -> String {
    let count = report.problems.count + (report.authenticityFailure == nil ? 0 : 1)
    return "\(count) problem\(count == 1 ? "" : "s")"
  }

  /// Reports a file that could not be read, as the other commands do, without a place in it:
  /// in the form of a report with one problem, so that every file gets one verdict.
  private func unreadable(_ file: String, _ error: SystemError) throws(CommandFailure) {
    let reason =
      error.operation == "open" ? "cannot open: \(error.message)" : "cannot read: \(error.operation) failed: \(error.message)"
    do {
      if json {
        try console.print(JSON.render(Verify.json(nil, file: file, unplaced: [reason])))
      } else {
        console.report("\(file): \(reason)")
        try console.print("\(file): \(console.styledOutput("INVALID", .bad)) (1 problem)")
      }
    } catch {
      throw CommandFailure("cannot write: \(error.message)")
    }
  }

  /// `N blocking, N identification, N labels`, each kind with its ranges when it has any:
  /// `0 blocking and 1 range, ...`.
  static func counts(_ report: VerificationReport) -> String {
    func ranges(_ count: Int) -> String { count == 0 ? "" : " and \(count) range\(count == 1 ? "" : "s")" }
    return "\(report.blockingCount) blocking\(ranges(report.blockingRangeCount)), "
      + "\(report.identificationCount) identification\(ranges(report.identificationRangeCount)), "
      + counted(report.labelCount, "label")
  }

  /// The JSON object of `report` (`nil` for a file that could not be read). Problems with no
  /// place in the file (`unplaced`, and a refusal of the trust policy) have a `null` offset.
  static func json(_ report: VerificationReport?, file: String, signer: String? = nil, unplaced: [String] = []) -> JSON.Value {
    let placed = (report?.problems ?? []).map { problem in
      JSON.Value.object([
        ("offset", problem.error.isPlaced ? .int(problem.error.offset) : .null),
        ("section", problem.error.section.map { .string($0) } ?? .null),
        ("message", .string(problem.error.kind.message)), ("callKit", .bool(problem.isCallKitLimit)),
      ])
    }
    let others = (unplaced + [report?.authenticityFailure?.description].compactMap { $0 }).map { message in
      JSON.Value.object([("offset", .null), ("section", .null), ("message", .string(message)), ("callKit", .bool(false))])
    }
    return .object([
      ("file", .string(file)), ("valid", .bool(report?.isValid ?? false)),
      ("blocking", .int(report?.blockingCount ?? 0)), ("blockingRanges", .int(report?.blockingRangeCount ?? 0)),
      ("identification", .int(report?.identificationCount ?? 0)),
      ("identificationRanges", .int(report?.identificationRangeCount ?? 0)), ("labels", .int(report?.labelCount ?? 0)),
      ("listVersion", .unsigned(report?.listVersion ?? 0)), ("signer", signer.map { .string($0) } ?? .null),
      ("problems", .array(placed + others)),
      ("truncated", .bool(report?.truncatedProblemList ?? false)),
    ])
  }
}
