import CallDirectory
import CallDirectorySystem

/// `calldir pack`: reads every input, builds the directory, writes it atomically.
struct Pack {
  let options: Command.PackOptions
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    var builder = DirectoryBuilder()
    builder.options.entriesPerBlock = options.entriesPerBlock
    let people = PhoneNumberParser(defaultCountryCode: options.country)
    let listings = PhoneNumberParser(defaultCountryCode: options.country, digitLimits: PhoneNumberParser.formatDomainDigits)
    var lines = 0
    let inputs: [(path: String, format: InputFormat)] =
      options.listings.map { ($0, .listing) } + options.blockFiles.map { ($0, .blockList) }
      + options.identifyFiles.map { ($0, .identifyCSV) }
    for (path, format) in inputs {
      let bytes = try Inputs.read(path, console: console)
      do throws(ListingError) {
        let each = { (record: ListingRecord) throws(ListingError) in
          try add(record, to: &builder, file: path)
          lines += 1
        }
        switch format {
        case .listing: try ListingParser.parse(bytes: bytes, file: path, parser: listings, each: each)
        case .blockList: try BlockListParser.parse(bytes: bytes, file: path, parser: people, each: each)
        case .identifyCSV: try IdentifyCSVParser.parse(bytes: bytes, file: path, parser: people, each: each)
        }
      } catch {
        throw CommandFailure(error.description)
      }
    }
    let bytes: [UInt8]
    do { bytes = try builder.encoded() } catch { throw CommandFailure(error.description) }
    try Inputs.write(to: options.output, console: console) { (sink) throws(CommandFailure) in
      do throws(SystemError) { try sink(bytes) } catch {
        throw CommandFailure("\(Inputs.displayName(options.output)): cannot write: \(error.message)")
      }
    }
    if options.output != "-" {
      console.summary(
        "packed \(lines) entries into \(options.output): \(bytes.count) bytes")
    }
    return CLI.ExitCode.success
  }

  private enum InputFormat { case listing, blockList, identifyCSV }

  /// Adds one parsed record; a writer error names the record's file and line.
  private func add(_ record: ListingRecord, to builder: inout DirectoryBuilder, file: String) throws(ListingError) {
    do {
      switch record.kind {
      case .blocking: try builder.block(record.numbers)
      case .identification: try builder.identify(record.numbers, label: record.label ?? "")
      }
    } catch {
      throw ListingError(file: file, line: record.line, message: error.description)
    }
  }
}
