import CallDirectory
import CallDirectorySystem

/// One input file of a command read a chunk at a time: a file, or standard input for `-`,
/// inflated as it is read when it is gzip (a name ending in `.gz`, or gzip's magic `1f 8b` at
/// its start; `Spec/INPUT.md` section 3.4).
///
/// The file is opened once and closed when its end is read, or when the reader is dropped
/// early (an error in a line): no descriptor outlives its reader. Memory is one chunk of input
/// and one window of inflated output, whatever the file holds or inflates to.
final class InputChunks {
  /// The most bytes read from a file at once: 1 MiB.
  static let chunkBytes = 1 << 20

  /// The input as messages name it (`<stdin>` for `-`).
  let name: String
  /// The open file, `nil` for standard input and once its end was read.
  private var file: FileDescriptor?
  private let readStandardInput: (() throws(SystemError) -> [UInt8])?
  private var inflater: GzipInflater?
  /// Bytes read to look for gzip's magic, handed out first when the input is not gzip.
  private var first: [UInt8]
  private var ended = false

  /// Opens `path` (`-`: the console's standard input) and reads its first bytes.
  /// - Parameter gzipLimit: the most bytes a gzip input may inflate to.
  /// - Throws: `CommandFailure` naming the file when it cannot be opened or read.
  init(_ path: String, console: Console, gzipLimit: Int) throws(CommandFailure) {
    name = Inputs.displayName(path)
    if path == "-" {
      readStandardInput = console.readChunk
      file = nil
    } else {
      readStandardInput = nil
      do { file = try FileDescriptor.openForReading(path) } catch {
        throw CommandFailure("\(path): cannot read: \(error.message)")
      }
    }
    first = []
    var head: [UInt8] = []
    // Two bytes tell gzip apart; a pipe may give them one at a time.
    while head.count < 2 {
      let chunk = try readRaw()
      if chunk.isEmpty { break }
      head += chunk
    }
    if path.lowercased().hasSuffix(".gz") || Gzip.hasMagic(head) {
      let inflater: GzipInflater
      do { inflater = try GzipInflater(limit: gzipLimit) } catch { throw CommandFailure("\(name): \(error.message)") }
      inflater.supply(head)
      self.inflater = inflater
    } else {
      first = head
    }
  }

  deinit { try? file?.close() }

  /// The next bytes of the input (inflated when it is gzip), or empty at its end.
  /// - Throws: `CommandFailure` naming the file for a failed read or a bad gzip stream.
  func next() throws(CommandFailure) -> [UInt8] {
    if !first.isEmpty {
      defer { first = [] }
      return first
    }
    guard let inflater else { return try readRaw() }
    while !ended {
      let output = try inflated { () throws(Gzip.Failure) in try inflater.next() }
      if !output.isEmpty { return output }
      let input = try readRaw()
      if input.isEmpty {
        ended = true
        try inflated { () throws(Gzip.Failure) in try inflater.finish() }
      } else {
        inflater.supply(input)
      }
    }
    return []
  }

  /// `step`'s result, its failure named with the file.
  private func inflated<T>(_ step: () throws(Gzip.Failure) -> T) throws(CommandFailure) -> T {
    do { return try step() } catch { throw CommandFailure("\(name): \(error.message)") }
  }

  /// The next bytes as stored, or empty at the end (when the file is closed).
  private func readRaw() throws(CommandFailure) -> [UInt8] {
    do {
      if let readStandardInput { return try readStandardInput() }
      guard let file else { return [] }
      let bytes = try file.readAvailable(maximum: Self.chunkBytes)
      if bytes.isEmpty {
        self.file = nil
        try file.close()
      }
      return bytes
    } catch {
      throw CommandFailure("\(name): cannot read: \(error.message)")
    }
  }
}
