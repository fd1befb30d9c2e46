import CallDirectory
import CallDirectorySystem

/// Directories among `pack`'s inputs: a file that starts with the format's magic is read as a
/// directory and merged entry by entry, under the same rules as every listing (a directory is
/// what its listing says, so `pack a.calldir b.csv` is `unpack a.calldir` packed with `b.csv`).
extension PackInputs {
  /// Whether the file at `path` is a call directory: its first bytes are the format's magic.
  /// Standard input, a pipe (`<(zcat list.gz)`, `/dev/stdin`), a FIFO or a device is always
  /// text: it cannot be read twice, and looking at its first bytes would take them from the
  /// listing read next.
  static func isDirectory(_ path: String) throws(CommandFailure) -> Bool {
    guard path != "-", FileDescriptor.isRegularFile(path) else { return false }
    do {
      let file = try FileDescriptor.openForReading(path)
      let prefix = try file.closeAfter { () throws(SystemError) in try file.readPrefix(FormatConstants.magic.count) }
      return prefix == FormatConstants.magic
    } catch {
      throw CommandFailure("\(path): cannot read: \(error.message)")
    }
  }

  /// Calls `body` with every entry of the directory at `path`: its blocking runs, then its
  /// identification runs, each with the line `unpack` writes it on (after the header line), so
  /// that a conflict names a place a user can find with `unpack`.
  /// - Throws: `CommandFailure` for a file that cannot be opened or is damaged (every block is
  ///   checked before its entries are used); what `body` throws, as `ListingError`.
  func forEachDirectoryEntry(
    _ path: String, _ body: (ListingEntry, Span<UInt8>) throws(ListingError) -> Void
  ) throws(CommandFailure) {
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(path: path) } catch { throw CommandFailure(opening: path, error) }
    var line = 1
    do throws(StreamError<ListingError>) {
      try reader.forEachBlockingRun { (numbers) throws(ListingError) in
        line += 1
        try body(ListingEntry(kind: .blocking, numbers: numbers, line: line), [UInt8]().span)
      }
      try reader.forEachIdentificationRun { (numbers, label) throws(ListingError) in
        line += 1
        let bytes = Array(label.utf8)
        try body(ListingEntry(kind: .identification, numbers: numbers, line: line), bytes.span)
      }
    } catch {
      switch error {
      case .format(let damage): throw CommandFailure("\(path): \(damage)")
      case .consumer(let failure): throw CommandFailure(failure.description)
      }
    }
  }
}
