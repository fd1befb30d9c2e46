import CallDirectory
import CallDirectorySystem

/// `calldir patch`: applies a changeset to OLD and writes NEW atomically as it is made, refusing a
/// wrong base; NEW is renamed into place only once its hash matches the changeset's result.
struct Patch {
  let old: String
  let changes: String
  let output: String
  let quiet: Bool
  var trust: [String] = []
  /// The list version installed: a result below it is refused as a rollback.
  var installedVersion: UInt64?
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    // NEW may replace OLD (an upgrade in place: OLD stays mapped until patch ends), not the changeset.
    try Inputs.refuseReplacing([changes], with: output, command: "patch")
    let oldReader = try Inputs.openDirectory(old, console: console)
    let input = changes == "-" ? try Inputs.readDirectoryInput(console: console, orChangeset: true) : nil
    let changeset: ChangesetReader
    do throws(ChangesetError) {
      if let input { changeset = try ChangesetReader(bytes: input) } else { changeset = try ChangesetReader(path: changes) }
    } catch {
      if case .system(let failure) = error.kind { throw CommandFailure("\(changes): cannot open: \(failure.message)") }
      throw CommandFailure("\(Inputs.displayName(changes)): \(error)")
    }
    let keys = try Keys.trusted(trust)
    let policy = TrustPolicy(trustedKeys: keys.map(\.0), installedVersion: installedVersion)
    let started = MonotonicClock.nanoseconds()
    let progress = ProgressLine(console: console, label: "patch", quiet: quiet)
    defer { progress.finish() }
    // Spools go beside the output, on a file system with room for it; standard output has none.
    let spools = output == "-" ? AtomicFile.scratchDirectory : AtomicFile.directory(of: output)
    var written = 0
    // NEW's hash is checked after its last byte: an output that cannot be replaced whole gets
    // it only once the check has passed.
    try Inputs.writeCheckedAtEnd(to: output, console: console, spools: spools) { (sink) throws(CommandFailure) in
      do throws(ChangesetError) {
        try Changeset.patch(
          old: oldReader, changes: changeset, trust: policy, temporaryDirectory: spools, progress: progress.advance
        ) {
          (bytes) throws(ChangesetError) in
          written += bytes.count
          do throws(SystemError) { try sink(bytes) } catch { throw ChangesetError(.system(error)) }
        }
      } catch {
        if case .system(let failure) = error.kind {
          throw CommandFailure("\(Inputs.outputName(output)): cannot write: \(failure.message)")
        }
        // A second run of the same patch (a retry, a script run twice) is told apart from a wrong base.
        if case .baseMismatch = error.kind, oldReader.contentHash == changeset.result {
          throw CommandFailure(
            "\(Inputs.displayName(old)): already patched: it is the result of \(Inputs.displayName(changes)) "
              + "(SHA-256 \(Hex.string(changeset.result))), not its base")
        }
        throw CommandFailure("\(Inputs.displayName(old)): cannot apply \(Inputs.displayName(changes)): \(error)")
      }
    }
    progress.finish()
    if !quiet {
      console.summary(
        "patched \(Inputs.outputName(output)): \(written) bytes, SHA-256 \(Hex.string(changeset.result)), "
          + ProgressLine.seconds(since: started))
    }
    return CLI.ExitCode.success
  }
}
