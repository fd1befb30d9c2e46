import CallDirectorySystem

/// Splits a stream of chunks into lines, reading a chunk only when the lines it has run out.
///
/// A line ends at LF; a CR before the LF is dropped, and the last line may end without either.
/// A line longer than `maximumLineLength` is handed out once, cut to `maximumLineLength + 1`
/// bytes so that the caller sees it is too long, and the rest of it, up to its LF, is read and
/// dropped: input with no line ends holds at most `maximumLineLength` plus one chunk in memory,
/// and the tail of a long line is never taken for a line of its own.
final class LineReader {
  /// The longest line handed out whole: 4 KiB (`Spec/RESOLUTION.md` section 7), far beyond any
  /// caller string (a number has at most 19 digits).
  static let maximumLineLength = 4096

  /// The next chunk of input; empty at the end.
  private let nextChunk: () throws(SystemError) -> [UInt8]
  private var buffer: [UInt8] = []
  /// Where the unread part of `buffer` starts.
  private var start = 0
  /// How far past `start` is known to hold no LF.
  private var scanned = 0
  private var ended = false
  /// Whether the bytes up to the next LF are the rest of a line already handed out cut.
  private var discarding = false

  init(_ nextChunk: @escaping () throws(SystemError) -> [UInt8]) {
    self.nextChunk = nextChunk
  }

  /// The next line without its line end, or `nil` once the input has ended; a line of more than
  /// `maximumLineLength` bytes comes as its first `maximumLineLength + 1` bytes.
  func next() throws(SystemError) -> [UInt8]? {
    while true {
      if let end = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
        if discarding {
          start = end + 1
          scanned = 0
          discarding = false
          continue
        }
        let line = Self.handedOut(buffer[start..<end])
        start = end + 1
        scanned = 0
        return line
      }
      scanned = buffer.count - start
      if discarding {
        start = buffer.count
        scanned = 0
      }
      if ended && scanned > 0 {
        let line = Self.handedOut(buffer[start...])
        start = buffer.count
        scanned = 0
        return line
      }
      // Past `maximumLineLength + 1` bytes (room for a CR before an LF still to come) the line
      // is too long whatever follows.
      if scanned > Self.maximumLineLength + 1 {
        let line = Array(buffer[start...(start + Self.maximumLineLength)])
        start += line.count
        scanned = 0
        discarding = true
        return line
      }
      if ended { return nil }
      let chunk = try nextChunk()
      if chunk.isEmpty {
        ended = true
        continue
      }
      buffer.removeFirst(start)  // what was handed out or dropped
      start = 0
      buffer.append(contentsOf: chunk)
    }
  }

  /// A whole line as it is handed out: without a CR at its end, and cut to
  /// `maximumLineLength + 1` bytes when longer than `maximumLineLength`.
  private static func handedOut(_ line: ArraySlice<UInt8>) -> [UInt8] {
    let text = line.last == 0x0D ? line.dropLast() : line
    return Array(text.prefix(maximumLineLength + 1))
  }
}
