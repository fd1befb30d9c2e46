import CallDirectorySystem

/// Splits a stream of chunks into lines, reading a chunk only when the lines it has run out.
///
/// A line ends at LF; a CR before the LF is dropped, and the last line may end without either.
/// A line longer than `maximumLineLength` is handed out in pieces of that length, so that input
/// with no line ends cannot grow the buffer without bound.
final class LineReader {
  /// The longest line handed out whole: 64 KiB, far beyond any phone number.
  static let maximumLineLength = 1 << 16

  /// The next chunk of input; empty at the end.
  private let nextChunk: () throws(SystemError) -> [UInt8]
  private var buffer: [UInt8] = []
  /// Where the unread part of `buffer` starts.
  private var start = 0
  /// How far past `start` is known to hold no LF.
  private var scanned = 0
  private var ended = false

  init(_ nextChunk: @escaping () throws(SystemError) -> [UInt8]) {
    self.nextChunk = nextChunk
  }

  /// The next line without its line end, or `nil` once the input has ended.
  func next() throws(SystemError) -> [UInt8]? {
    while true {
      if let end = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
        var line = Array(buffer[start..<end])
        start = end + 1
        scanned = 0
        if line.last == 0x0D { line.removeLast() }
        return line
      }
      scanned = buffer.count - start
      if scanned >= Self.maximumLineLength || (ended && scanned > 0) {
        let length = min(scanned, Self.maximumLineLength)
        var line = Array(buffer[start..<(start + length)])
        start += length
        scanned = 0
        if ended && start == buffer.count && line.last == 0x0D { line.removeLast() }
        return line
      }
      if ended { return nil }
      let chunk = try nextChunk()
      if chunk.isEmpty {
        ended = true
        continue
      }
      buffer.removeFirst(start)  // what was handed out
      start = 0
      buffer.append(contentsOf: chunk)
    }
  }
}
