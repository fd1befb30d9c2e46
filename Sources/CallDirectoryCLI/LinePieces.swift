import CallDirectory
import CallDirectorySystem

/// An input read a few MiB at a time, each piece ending at a line break (the last at the input's
/// end), so that line-by-line formats can be parsed without the whole text in memory.
///
/// A line longer than ``maximumLineLength`` is an error as soon as that many bytes of it are
/// read (`Spec/INPUT.md` section 3), so input without line ends, such as `/dev/zero`, stops
/// after a megabyte instead of filling memory.
struct LinePieces {
  /// The longest line, its CR included and its LF not, in bytes: 1 MiB. The longest valid line
  /// is a JSON Lines record whose 65,534-byte label is all `\u00XX` escapes, under 400 KB.
  static let maximumLineLength = 1 << 20

  private let chunks: InputChunks
  private var carry: [UInt8] = []
  /// Where the next piece may end, just after an LF (outside quotes, for CSV): 0 when `carry`
  /// holds no such place.
  private var lastBreak = 0
  /// The bytes of the line that `carry` leaves open.
  private var openLength = 0
  /// The lines handed out in pieces so far.
  private var linesBefore = 0
  private var ended = false
  private let pieceSize: Int
  /// Whether pieces end only where a CSV record does: at an LF outside a quoted field.
  private let quotedFields: Bool
  /// Whether the end of `carry` is inside a quoted field.
  private var inQuotes = false

  /// Pieces of about `pieceSize` bytes of `chunks`; with `quotedFields`, pieces end only at an
  /// LF outside a quoted field (RFC 4180: quotes inside one come doubled, so an even count of
  /// quotes before an LF puts it outside), so that no CSV record is cut.
  init(_ chunks: InputChunks, pieceSize: Int = 8 << 20, quotedFields: Bool = false) {
    self.chunks = chunks
    self.pieceSize = max(1, pieceSize)
    self.quotedFields = quotedFields
  }

  private mutating func fill() throws(CommandFailure) {
    let chunk = try chunks.next()
    if chunk.isEmpty {
      ended = true
      return
    }
    // Every line the chunk ends, and the one it leaves open, is measured before it is kept. A
    // line that begins and ends inside the chunk is no longer than the chunk: only the first
    // and the last need measuring unless the chunk itself is longer than a line may be.
    if let firstBreak = chunk.firstIndex(of: 0x0A), let finalBreak = chunk.lastIndex(of: 0x0A) {
      try check(openLength + firstBreak, in: chunk, from: 0)
      if chunk.count > Self.maximumLineLength {
        var start = firstBreak + 1
        while let lineEnd = chunk[start...].firstIndex(of: 0x0A) {
          try check(lineEnd - start, in: chunk, from: start)
          start = lineEnd + 1
        }
      }
      openLength = chunk.count - finalBreak - 1
      try check(openLength, in: chunk, from: finalBreak + 1)
      if !quotedFields { lastBreak = carry.count + finalBreak + 1 }
    } else {
      openLength += chunk.count
      try check(openLength, in: chunk, from: 0)
    }
    if quotedFields {
      for index in chunk.indices {
        if chunk[index] == 0x22 {
          inQuotes.toggle()
        } else if chunk[index] == 0x0A && !inQuotes {
          lastBreak = carry.count + index + 1
        }
      }
    }
    carry += chunk
  }

  /// Refuses a line of `length` bytes, when too long, with its line number: the line that
  /// begins at `start` in `chunk`, or before `chunk` when `start` is 0.
  private func check(_ length: Int, in chunk: [UInt8], from start: Int) throws(CommandFailure) {
    guard length > Self.maximumLineLength else { return }
    func breaks(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
    let line = linesBefore + breaks(carry[...]) + breaks(chunk[..<start]) + 1
    throw CommandFailure("\(chunks.name):\(line): line longer than \(Self.maximumLineLength) bytes")
  }

  /// The next piece and the number of lines it holds, or `nil` at the end.
  mutating func next() throws(CommandFailure) -> ([UInt8], Int)? {
    // Whole lines only: a piece grows past its size until a line ends in it.
    while !ended && (carry.count < pieceSize || lastBreak == 0) { try fill() }
    if carry.isEmpty { return nil }
    let end = ended ? carry.count : lastBreak
    let piece = Array(carry[0..<end])
    carry.removeFirst(end)
    lastBreak -= min(lastBreak, end)
    let lines = piece.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    linesBefore += lines
    return (piece, lines)
  }
}
