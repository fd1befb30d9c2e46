import CallDirectory
import CallDirectorySystem

/// `calldir diff`: writes the changeset from OLD to NEW and prints what it holds.
struct Diff {
  let old: String
  let new: String
  let output: String
  let json: Bool
  let quiet: Bool
  var signKey: String?
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    try Inputs.refuseReplacing([old, new], with: output, command: "diff")
    let oldReader = try Inputs.openDirectory(old, console: console)
    let newReader = try Inputs.openDirectory(new, console: console)
    let signingKey = try signKey.map { (path) throws(CommandFailure) in try Keys.signingKey(path) }
    if signingKey != nil { try Self.requireSigned(newReader, name: new) }
    let changes: ChangesetReader
    var whole: [UInt8]?  // the changeset made in memory, to be written once it is known good
    do throws(ChangesetError) {
      if signingKey == nil && output != "-" && !Self.isSpecialFile(output) {
        // Streamed to the file, then read back from it for the summary.
        let progress = ProgressLine(console: console, label: "diff", quiet: quiet)
        defer { progress.finish() }
        try Changeset.diff(old: oldReader, new: newReader, to: output, progress: progress.advance)
        progress.finish()
        changes = try ChangesetReader(path: output)
      } else {
        // A changeset is small: made in memory when it is to be signed, or when it goes where it
        // cannot be read back from (standard output, a device or a pipe), then written whole.
        var bytes = try Changeset.diff(old: oldReader, new: newReader)
        if let signingKey { bytes = try ChangesetSigner.sign(bytes, key: signingKey) }
        changes = try ChangesetReader(bytes: bytes)
        whole = bytes
      }
    } catch {
      if case .system(let failure) = error.kind {
        throw CommandFailure("\(Inputs.outputName(output)): cannot write: \(failure.message)")
      }
      throw CommandFailure("\(Inputs.displayName(old)) -> \(Inputs.displayName(new)): \(error)")
    }
    if let whole { try Inputs.write(whole, to: output, console: console) }
    let report = ChangesetSummary(changes: changes, oldSize: oldReader.fileSize, newSize: newReader.fileSize)
    if json {
      do { try console.print(JSON.render(report.json(file: output))) } catch {
        throw CommandFailure("cannot write: \(error.message)")
      }
    } else if !quiet {
      console.summary(report.text(file: output))
    }
    return CLI.ExitCode.success
  }
}

extension Diff {
  /// A signed changeset vouches for NEW, and patch carries NEW's signature into the result: with
  /// `--sign`, a NEW that is unsigned, or whose signature does not verify, is refused, since
  /// consumers that check signatures would refuse what patch makes of it (`Spec/CHANGESET.md`,
  /// section 4.2). A changeset between unsigned directories is signed with `calldir sign`.
  /// - Complexity: one SHA-256 pass over NEW.
  static func requireSigned(_ reader: CallDirectoryReader, name: String) throws(CommandFailure) {
    guard let signer = reader.signer else {
      throw CommandFailure(
        "\(Inputs.displayName(name)): NEW is not signed, so --sign would vouch for a result that consumers checking "
          + "signatures refuse: sign it first (calldir sign NEW --key KEY), or diff without --sign")
    }
    do throws(AuthenticityFailure) { try reader.check(TrustPolicy(trustedKeys: [signer])) } catch {
      throw CommandFailure("\(Inputs.displayName(name)): NEW's signature does not hold, so --sign refuses it: \(error)")
    }
  }

  /// Whether `path` names something other than a regular file (a device or a named pipe),
  /// which the output is written into in place and cannot be read back from.
  static func isSpecialFile(_ path: String) -> Bool {
    (try? FileIdentity(path: path)) != nil && !FileDescriptor.isRegularFile(path)
  }
}

/// The figures `diff` shows: runs of each list, sizes, and the two hashes.
struct ChangesetSummary {
  let changes: ChangesetReader
  let oldSize: Int
  let newSize: Int

  func text(file: String) -> String {
    let counts = changes.counts
    let share = newSize == 0 ? 0 : Double(changes.size) * 100 / Double(newSize)
    return
      "\(Inputs.displayName(file)): removals \(counts.removals.blocking) blocking, \(counts.removals.identification) identification; "
      + "additions \(counts.additions.blocking) blocking, \(counts.additions.identification) identification (runs); "
      + "\(changes.size) bytes, \(Self.percent(share)) of the new file's \(newSize) bytes"
  }

  func json(file: String) -> JSON.Value {
    let counts = changes.counts
    return .object([
      ("changes", .string(Inputs.displayName(file))),
      (
        "removals",
        .object([("blocking", .int(counts.removals.blocking)), ("identification", .int(counts.removals.identification))])
      ),
      (
        "additions",
        .object([("blocking", .int(counts.additions.blocking)), ("identification", .int(counts.additions.identification))])
      ),
      ("size", .int(changes.size)),
      ("oldSize", .int(oldSize)),
      ("newSize", .int(newSize)),
      ("base", .string(Hex.string(changes.base))),
      ("result", .string(Hex.string(changes.result))),
    ])
  }

  /// `value` percent with two decimals.
  static func percent(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
  }
}
