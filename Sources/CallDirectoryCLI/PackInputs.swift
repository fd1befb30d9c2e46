import CallDirectory
import CallDirectorySystem

/// The inputs of `calldir pack`, each read with the reader its role and form call for: listings,
/// block lists and identify files, as CSV, TSV or JSON Lines, plain or gzipped, and directories. Pack reads them
/// once to build the directory, and again, only when the writer refuses a label conflict, to
/// find the lines that conflict.
struct PackInputs {
  enum Role { case listing, blockList, allowList, identify }

  let inputs: [(path: String, role: Role)]
  /// `--format`, or `nil` to go by each file's name.
  let format: ListingFormat?
  /// Numbers as people write them (block lists, identify files).
  let people: PhoneNumberParser
  /// Numbers as listings write them: every number the format holds.
  let listings: PhoneNumberParser
  let console: Console
  /// The most bytes a gzip input may inflate to.
  let gzipLimit: Int
  /// The size of the pieces line-by-line inputs are read in: an eighth of `--memory`, within
  /// 1 ... 8 MiB, so that the input's share of memory shrinks with the bound.
  let pieceSize: Int

  /// - Throws: `CommandFailure` (exit code 2) for a country code the parser refuses; `--country`
  ///   is checked as the arguments are parsed, so only a caller that skipped that check meets it.
  init(_ options: Command.PackOptions, console: Console) throws(CommandFailure) {
    inputs =
      options.listings.map { ($0, .listing) } + options.blockFiles.map { ($0, .blockList) }
      + options.allowFiles.map { ($0, .allowList) } + options.identifyFiles.map { ($0, .identify) }
    format = options.format
    do {
      people = try PhoneNumberParser(region: options.country)
      listings = try PhoneNumberParser(region: options.country, digitLimits: PhoneNumberParser.formatDomainDigits)
    } catch {
      throw CommandFailure.usage("\(error)", command: "pack")
    }
    self.console = console
    gzipLimit = options.gzipLimit
    pieceSize = min(8 << 20, max(1 << 20, options.memoryLimit / 8))
  }

  /// A line of an input that could not be packed: its error (naming the file's line), its bytes
  /// without the line break, the input's path, and the input's header line when it has one (so
  /// that the line can be fed again under it).
  struct BadLine {
    var error: ListingError
    var bytes: ArraySlice<UInt8>
    var path: String
    var header: [UInt8]?
  }

  /// Calls `body` with each entry of every input in turn, with its label's bytes (empty for a
  /// blocking entry), lent for the call, and the input's path.
  /// - Parameters:
  ///   - skipStandardInput: skip `-`, which cannot be read twice.
  ///   - onBadLine: when given, each line that cannot be read or that `body` refuses goes to it,
  ///     which skips it by returning or stops by throwing (`--keep-going`).
  /// - Returns: the blank and comment lines skipped.
  /// - Throws: `CommandFailure` naming the file and line of the first bad line, or of what `body`
  ///   throws.
  func forEachEntry(
    skipStandardInput: Bool = false, onBadLine: ((BadLine) throws(ListingError) -> Void)? = nil,
    _ body: (ListingEntry, Span<UInt8>, String) throws(ListingError) -> Void
  ) throws(CommandFailure) -> Int {
    var skipped = 0
    for (path, role) in inputs where !(skipStandardInput && path == "-") {
      let format = self.format ?? ListingFormat.implied(by: path) ?? .csv
      // Added to line numbers of an input read in pieces, so that messages name the file's line.
      var lineOffset = 0
      // What `body` throws names the file's line already: kept apart from the parser's errors,
      // whose lines count from the piece.
      var bodyError: ListingError?
      func eachEntry(_ entry: ListingEntry, _ label: Span<UInt8>, offset: Int) throws(ListingError) {
        do throws(ListingError) {
          try body(ListingEntry(kind: entry.kind, numbers: entry.numbers, line: entry.line + offset), label, path)
        } catch {
          bodyError = error
          throw error
        }
      }
      if try Self.isDirectory(path) {
        guard role == .listing else {
          throw CommandFailure.usage(
            "\(path) is a call directory: give it as an input of its own, not with --block, --allow or --identify",
            command: "pack")
        }
        try forEachDirectoryEntry(path) { (entry, label) throws(ListingError) in try eachEntry(entry, label, offset: 0) }
        continue
      }
      func parse(_ read: () throws(ListingError) -> Int) throws(CommandFailure) {
        do throws(ListingError) { skipped += try read() } catch {
          if let bodyError { throw CommandFailure(bodyError.description) }
          throw CommandFailure(
            (error.line < 1 ? error : ListingError(file: error.file, line: error.line + lineOffset, message: error.message))
              .description)
        }
      }
      // Every form is read a few MiB at a time, so that its text never has to fit in memory: CSV
      // in pieces that end between records, the header carried from piece to piece in `table`.
      let numbersOnly = role == .blockList || role == .allowList
      var reader = try open(path, quotedFields: !numbersOnly && format == .csv)
      var table = TableReadState()
      var atStart = true
      let noLabel: [UInt8] = []  // a block list's entries have no label
      while let (bytes, lines) = try piece(of: &reader) {
        if atStart && ByteOrderMark.isUTF16(atStartOf: bytes.span) {
          throw CommandFailure(
            "\(Inputs.displayName(path)): the file is UTF-16 (it begins with UTF-16's byte order mark), and inputs are UTF-8: "
              + "convert it (iconv -f UTF-16 -t UTF-8) or save it as UTF-8")
        }
        // What `body` threw names the file's line already; the parser's own errors count lines
        // from the piece.
        let offset = lineOffset
        // The piece's line offset is passed, not read from `lineOffset`: a variable the nested
        // functions capture is checked for exclusive access at run time, on every entry.
        func each(_ record: ListingRecord) throws(ListingError) {
          let label = record.labelUTF8 ?? []
          try eachEntry(ListingEntry(kind: record.kind, numbers: record.numbers, line: record.line), label.span, offset: offset)
        }
        func eachInPiece(_ entry: ListingEntry, _ label: Span<UInt8>) throws(ListingError) {
          try eachEntry(entry, label, offset: offset)
        }
        var badLine: BadLineHandler?
        if let onBadLine {
          badLine = { (error, range, header) throws(ListingError) in
            let inFile =
              error == bodyError ? error : ListingError(file: error.file, line: error.line + offset, message: error.message)
            bodyError = nil
            try onBadLine(BadLine(error: inFile, bytes: bytes[range], path: path, header: header))
          }
        }
        try parse { () throws(ListingError) -> Int in
          switch (role, format) {
          case (.blockList, _), (.allowList, _):
            // An allow list is a block list whose numbers are exceptions.
            let kind: ListingKind = role == .allowList ? .exception : .blocking
            return try BlockListParser.forEachEntry(
              bytes: bytes, file: path, parser: people, atStart: atStart, onBadLine: badLine
            ) { (entry) throws(ListingError) in
              try eachEntry(ListingEntry(kind: kind, numbers: entry.numbers, line: entry.line), noLabel.span, offset: offset)
            }
          case (_, .jsonl):
            // A JSON Lines record names its kind, so one reader serves listings and identify files.
            return try ListingJSONLines.parse(
              bytes: bytes, file: path, parser: role == .listing ? listings : people, atStart: atStart, onBadLine: badLine,
              each: each)
          case (.listing, _):
            return try ListingParser.forEachEntry(
              bytes: bytes, file: path, parser: listings, format: format == .tsv ? .tsv : .csv, state: &table,
              onBadLine: badLine, eachInPiece)
          case (.identify, _):
            return try IdentifyCSVParser.forEachEntry(
              bytes: bytes, file: path, parser: people, format: format == .tsv ? .tsv : .csv, state: &table,
              onBadLine: badLine, eachInPiece)
          }
        }
        atStart = false
        lineOffset += lines
      }
    }
    return skipped
  }

  /// A reader of `path` (`-`: the console's standard input), inflating gzip up to `--gzip-limit`.
  private func open(_ path: String, quotedFields: Bool) throws(CommandFailure) -> LineReader {
    guard path != "-" else {
      return LineReader(
        name: Inputs.displayName(path), chunks: console.readChunk, gzipLimit: gzipLimit, quotedFields: quotedFields)
    }
    do { return try LineReader(path: path, gzipLimit: gzipLimit, quotedFields: quotedFields) } catch {
      throw CommandFailure(error.description)
    }
  }

  /// The next piece of about `pieceSize` bytes of whole lines, and its count of lines.
  private func piece(of reader: inout LineReader) throws(CommandFailure) -> (bytes: [UInt8], lines: Int)? {
    do { return try reader.nextPiece(size: pieceSize) } catch { throw CommandFailure(error.description) }
  }

  /// Where the first input entry of exactly each of `entries` (numbers and label; a blocking
  /// list's labels are `block` and `allow`) is, as `file:line`, read again from the inputs
  /// (standard input cannot be, and is not searched).
  /// - Returns: one place for each entry, `nil` where none was found.
  func places(of entries: [(numbers: ClosedRange<Int64>, label: String)]) -> [String?] {
    let wanted = entries.map { Array($0.label.utf8) }
    var found = [String?](repeating: nil, count: entries.count)
    _ = try? forEachEntry(skipStandardInput: true) { (entry, label, path) throws(ListingError) in
      for index in entries.indices where found[index] == nil && entry.numbers == entries[index].numbers {
        let matches =
          entry.kind == .identification ? Self.equal(label, wanted[index]) : entries[index].label == entry.kind.rawValue
        if matches { found[index] = "\(Inputs.displayName(path)):\(entry.line)" }
      }
    }
    return found
  }

  private static func equal(_ span: Span<UInt8>, _ bytes: [UInt8]) -> Bool {
    guard span.count == bytes.count else { return false }
    for index in bytes.indices where span[index] != bytes[index] { return false }
    return true
  }

}

extension WriterError {
  /// The two entries in conflict, with their labels, when the error is a conflict.
  var conflictingEntries: [(numbers: ClosedRange<Int64>, label: String)]? {
    switch self {
    case .conflictingLabels(let number, let first, let second): return [(number...number, first), (number...number, second)]
    case .overlappingRanges(let first, let firstLabel, let second, let secondLabel):
      return [(first, firstLabel), (second, secondLabel)]
    default: return nil
    }
  }
}
