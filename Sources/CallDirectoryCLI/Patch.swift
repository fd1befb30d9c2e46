import CallDirectory
import CallDirectorySystem

/// `calldir patch`: applies a changeset to OLD and writes NEW atomically, refusing a wrong base.
struct Patch {
  let old: String
  let changes: String
  let output: String
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let oldReader = try Inputs.openDirectory(old, console: console)
    let input = changes == "-" ? try Inputs.read(changes, console: console) : nil
    let changeset: ChangesetReader
    do throws(ChangesetError) {
      if let input { changeset = try ChangesetReader(bytes: input) } else { changeset = try ChangesetReader(path: changes) }
    } catch {
      if case .system(let failure) = error.kind { throw CommandFailure("\(changes): cannot open: \(failure.message)") }
      throw CommandFailure("\(Inputs.displayName(changes)): \(error)")
    }
    let bytes: [UInt8]
    do throws(ChangesetError) { bytes = try Changeset.patched(old: oldReader, changes: changeset) } catch {
      throw CommandFailure("\(Inputs.displayName(old)): cannot apply \(Inputs.displayName(changes)): \(error)")
    }
    try Inputs.write(to: output, console: console) { (sink) throws(CommandFailure) in
      do throws(SystemError) { try sink(bytes) } catch { throw CommandFailure("\(Inputs.displayName(output)): cannot write: \(error.message)") }
    }
    console.summary("\(Inputs.displayName(output)): \(bytes.count) bytes, SHA-256 \(Hex.string(changeset.result))")
    return CLI.ExitCode.success
  }
}
