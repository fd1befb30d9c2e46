import CallDirectory
import CallDirectorySystem

/// `calldir unpack`: writes the listing CSV, blocking entries then identification entries, each ascending.
struct Unpack {
  let file: String
  let output: String
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let reader = try Inputs.openDirectory(file, console: console)
    try Inputs.write(to: output, console: console) { (sink) throws(CommandFailure) in
      var writer = ListingWriter()
      func failure(_ error: StreamError<SystemError>) -> CommandFailure {
        switch error {
        case .format(let damage): CommandFailure("\(Inputs.displayName(file)): \(damage)")
        case .consumer(let failure): writeFailure(failure)
        }
      }
      do throws(StreamError<SystemError>) {
        try reader.forEachBlocking { (number) throws(SystemError) in
          writer.appendBlock(number)
          try writer.flushIfFull(to: sink)
        }
      } catch { throw failure(error) }
      do throws(StreamError<SystemError>) {
        try reader.forEachIdentification { (number, label) throws(SystemError) in
          writer.appendIdentification(number, label: label)
          try writer.flushIfFull(to: sink)
        }
      } catch { throw failure(error) }
      do throws(SystemError) { try writer.flush(to: sink) } catch { throw writeFailure(error) }
    }
    return CLI.ExitCode.success
  }

  private func writeFailure(_ error: SystemError) -> CommandFailure {
    CommandFailure("\(Inputs.displayName(output)): cannot write: \(error.message)")
  }
}
