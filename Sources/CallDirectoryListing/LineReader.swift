import CallDirectorySystem

/// One text input read a line, or a run of whole lines, at a time: a file, or any stream of
/// chunks such as standard input, inflated as it is read when it is gzip (a name ending in `.gz`,
/// or gzip's magic `1f 8b` at its start; `Spec/INPUT.md` section 3.4).
///
/// Every input of the `calldir` tool is read through one of these. The reader owns its source:
/// the file is opened once, closed at its end, and closed when the reader is dropped early (an
/// error in a line), so no descriptor outlives it. It reads a file straight into one buffer that
/// it reuses, hands pieces out of that buffer without copying them, and counts line ends eight
/// bytes at a time.
///
///     var reader = try LineReader(path: "list.csv", quotedFields: true)
///     while let (bytes, lines) = try reader.nextPiece(size: 8 << 20) {
///       print("\(lines) lines")
///       try ListingParser.parse(bytes: bytes, file: "list.csv", parser: .formatDomain) { record in print(record.number) }
///     }
///
///     var pieces = [Array("+12025550100\n+33612345678\n".utf8)]
///     var input = LineReader(name: "<stdin>", chunks: { pieces.popLast() ?? [] },
///                            maximumLineLength: LineReader.maximumCallerLineLength)
///     while let length = try input.nextLine({ line in line.count }) {
///       print("a line of \(length) bytes")
///     }
///
/// Lines end at LF; a CR just before the LF is part of no line that ``nextLine(_:)`` hands out,
/// and the last line may end without either. A line is at most `maximumLineLength` bytes, its CR
/// counted and its LF not: ``nextPiece(size:)`` refuses a longer one as soon as that many bytes
/// of it are read, so input without line ends, such as `/dev/zero`, stops after that many bytes
/// instead of filling memory; ``nextLine(_:)`` hands it out cut, as described there.
///
/// Memory: one chunk of input, one window of inflated output, and the piece or line being
/// handed out, whatever the input holds or inflates to.
public struct LineReader: ~Copyable {
  /// The longest line of a listing, block list or identify file, in bytes: 1 MiB
  /// (`Spec/INPUT.md` section 3). The longest valid line is a JSON Lines record whose
  /// 65,534-byte label is all `\u00XX` escapes, under 400 KB.
  public static let maximumLineLength = 1 << 20
  /// The longest caller string read from standard input by `calldir resolve`: 4 KiB
  /// (`Spec/RESOLUTION.md` section 7), far beyond any (a number has at most 19 digits).
  public static let maximumCallerLineLength = 4096
  /// The most bytes read from a file at once: 1 MiB.
  public static let chunkBytes = 1 << 20

  /// The input as messages name it (`<stdin>` for standard input).
  public let name: String
  /// The longest line, in bytes.
  public let maximumLineLength: Int
  /// Whether pieces end only where a CSV record does: at an LF outside a quoted field.
  private let quotedFields: Bool
  private var file: InputFile
  /// The next chunk of a stream that is not a file: empty at its end.
  private let chunks: (() throws(SystemError) -> [UInt8])?
  private var inflater: GzipInflater?
  /// The input read and not yet handed out: `buffer[start...]`.
  private var buffer: [UInt8] = []
  /// The storage of the piece handed out last, reused for the next one's tail.
  private var spare: [UInt8] = []
  private var start = 0
  /// How far `buffer` has been looked at for line ends.
  private var scanned = 0
  /// Where the line being looked at begins.
  private var lineStart = 0
  /// Just after the last LF a piece may end at, or 0 for none; and the LFs before it.
  private var lastBreak = 0
  private var linesToBreak = 0
  /// The LFs in `buffer[..<scanned]`.
  private var linesScanned = 0
  /// The lines handed out before `buffer`.
  private var linesBefore = 0
  /// Whether `scanned` is inside a quoted field.
  private var inQuotes = false
  /// Where `scanned` is in its line, for quotes: a comment line's quotes are no field's.
  private var lineKind = LineKind.start

  /// Where the scan is in a line outside quotes: before its first byte that is not a space or a
  /// tab, in a comment line (that byte was `#`: `Spec/INPUT.md` section 3), or in any other line.
  private enum LineKind {
    case start, comment, other
  }
  /// Whether the bytes up to the next LF are the rest of a line handed out cut.
  private var discarding = false
  private var ended = false
  private var gzip: GzipCheck

  /// Opens the file at `path`; its first bytes, read when a piece or line is first asked for,
  /// tell gzip apart.
  ///
  /// - Parameters:
  ///   - name: the input as messages name it; `path` by default.
  ///   - gzipLimit: the most bytes a gzip input may inflate to.
  ///   - maximumLineLength: the longest line, in bytes.
  ///   - quotedFields: whether ``nextPiece(size:)`` ends pieces only at an LF outside a quoted
  ///     field (RFC 4180: quotes inside one come doubled, so an even count of quotes before an LF
  ///     puts it outside), so that no CSV record is cut. The quotes of a comment line (outside a
  ///     quoted field, its first byte that is not a space or a tab `#`) are not counted.
  /// - Throws: `LineReaderError` naming `path` when it cannot be opened.
  public init(
    path: String, name: String? = nil, gzipLimit: Int = Gzip.maximumInflatedBytes,
    maximumLineLength: Int = LineReader.maximumLineLength, quotedFields: Bool = false
  ) throws(LineReaderError) {
    let descriptor: FileDescriptor
    do { descriptor = try FileDescriptor.openForReading(path) } catch {
      throw LineReaderError(file: path, kind: .unreadable(error.message))
    }
    self.init(
      name: name ?? path, file: InputFile(descriptor), chunks: nil,
      gzip: .detect(limit: gzipLimit, named: path.lowercased().hasSuffix(".gz")), maximumLineLength: maximumLineLength,
      quotedFields: quotedFields)
  }

  /// Reads the stream that `chunks` hands out, a chunk a call, empty at its end: standard input,
  /// a pipe, or bytes in memory. Nothing is read until a piece or line is asked for.
  ///
  /// - Parameters:
  ///   - gzipLimit: the most bytes a gzip input may inflate to; `nil` to read the stream as it
  ///     is, without looking for gzip's magic (a caller answering each line as it comes must not
  ///     wait for two bytes).
  public init(
    name: String, chunks: @escaping () throws(SystemError) -> [UInt8], gzipLimit: Int? = nil,
    maximumLineLength: Int = LineReader.maximumLineLength, quotedFields: Bool = false
  ) {
    self.init(
      name: name, file: InputFile(nil), chunks: chunks, gzip: gzipLimit.map { .detect(limit: $0, named: false) } ?? .plain,
      maximumLineLength: maximumLineLength, quotedFields: quotedFields)
  }

  private init(
    name: String, file: consuming InputFile, chunks: (() throws(SystemError) -> [UInt8])?, gzip: GzipCheck,
    maximumLineLength: Int, quotedFields: Bool
  ) {
    self.gzip = gzip
    self.name = name
    self.file = file
    self.chunks = chunks
    self.maximumLineLength = max(1, maximumLineLength)
    self.quotedFields = quotedFields
  }

  /// Whether the input is still to be told apart as gzip or not.
  private enum GzipCheck {
    /// Not yet: by the name, or by the first two bytes, inflating to at most `limit` bytes.
    case detect(limit: Int, named: Bool)
    /// Done, or never to be done.
    case plain
  }

  /// Reads the first two bytes (a pipe may give them one at a time) and, when they are gzip's
  /// magic or the name says gzip, inflates from there on.
  private mutating func detectGzip(limit: Int, named: Bool) throws(LineReaderError) {
    gzip = .plain
    while buffer.count < 2, try readRaw() {}
    guard named || Gzip.hasMagic(buffer) else { return }
    let inflater: GzipInflater
    do { inflater = try GzipInflater(limit: limit) } catch { throw LineReaderError(file: name, kind: .badGzip(error.message)) }
    inflater.supply(buffer)
    buffer.removeAll(keepingCapacity: true)
    self.inflater = inflater
  }

  // MARK: Pieces

  /// The next run of whole lines, about `size` bytes (more when a line or CSV record crosses
  /// that size), and the count of LFs in it; `nil` at the end of the input.
  ///
  /// A piece ends just after an LF (outside quotes, with `quotedFields`) or at the end of the
  /// input. The array is the reader's own buffer, handed over rather than copied: drop it before
  /// asking for the next piece, and the reader reuses its storage.
  /// - Throws: `LineReaderError` for a failed read, a bad gzip stream, or a line longer than
  ///   `maximumLineLength`, with its line number in the input.
  /// - Complexity: O(size of the piece).
  public mutating func nextPiece(size: Int) throws(LineReaderError) -> (bytes: [UInt8], lines: Int)? {
    while !ended && (buffer.count < size || lastBreak == 0) {
      if try fill() { try scan() } else { ended = true }
    }
    if buffer.isEmpty { return nil }
    let end = ended ? buffer.count : lastBreak
    let lines = ended ? linesScanned : linesToBreak
    // The tail (the lines after the piece) moves to the spare storage, and the piece is the
    // buffer itself, cut short: its bytes are not copied.
    spare.removeAll(keepingCapacity: true)
    spare.append(contentsOf: buffer[end...])
    buffer.removeSubrange(end...)
    swap(&buffer, &spare)
    scanned -= end
    lineStart -= end
    linesScanned -= lines
    lastBreak = 0
    linesToBreak = 0
    linesBefore += lines
    return (spare, lines)
  }

  /// Looks at the bytes read since the last look: counts LFs, notes where a piece may end, and
  /// measures each line.
  private mutating func scan() throws(LineReaderError) {
    let count = buffer.count
    // Without quotes, and with fewer new bytes than a line may hold, no line that begins and ends
    // among them is too long: only the first and the open last one need measuring, and the LFs
    // between are only counted, in a loop with no branch.
    guard quotedFields || count - scanned > maximumLineLength else { return try scanUnquoted() }
    var index = scanned
    if quotedFields && !inQuotes { index = pastComment(from: index, to: count) }
    while index < count {
      let byte = buffer[index]
      if byte == 0x0A {
        try check(index - lineStart)
        if inQuotes { try checkRecord(index) }
        linesScanned += 1
        lineStart = index + 1
        if !inQuotes {
          lastBreak = index + 1
          linesToBreak = linesScanned
          if quotedFields {
            // A test a line, not a byte: the per-byte loop stays as it was without comments.
            lineKind = .start
            index = pastComment(from: index + 1, to: count)
            continue
          }
        }
      } else if byte == 0x22 && quotedFields {
        inQuotes.toggle()
      }
      index += 1
    }
    scanned = count
    try check(count - lineStart)
    if inQuotes { try checkRecord(count) }
  }

  /// Refuses a record with a quoted field open whose bytes up to `index` are over the line
  /// limit: a piece ends only between records, so the buffer would otherwise hold the whole of
  /// it, and a quote never closed would hold the rest of the input.
  private func checkRecord(_ index: Int) throws(LineReaderError) {
    // The buffer begins with a record, and `lastBreak` (when set) is where the open one began.
    guard index - lastBreak > maximumLineLength else { return }
    throw LineReaderError(
      file: name, kind: .recordTooLong(line: linesBefore + linesToBreak + 1, limit: maximumLineLength))
  }

  /// Where the scan goes on from `index`, in a line outside quotes: at a comment line (its first
  /// byte that is not a space or a tab `#`), its LF, since a comment's quotes are no field's; at
  /// any other line, `index`. `count` when the buffer ends first, ``lineKind`` then saying where
  /// the next look begins.
  private mutating func pastComment(from index: Int, to count: Int) -> Int {
    var index = index
    // The input's byte order mark comes before its first line's first byte (a whole mark: a
    // first read of fewer bytes leaves a comment there to be counted as a line of data).
    if lineKind == .start && linesBefore == 0 && linesScanned == 0 && index == 0 && count >= 3
      && ByteOrderMark.length(atStartOf: buffer.span) == 3
    {
      index = 3
    }
    if lineKind == .start {
      while index < count && isSpaceOrTab(buffer[index]) { index += 1 }
      guard index < count else { return count }
      lineKind = buffer[index] == 0x23 ? .comment : .other
    }
    guard lineKind == .comment else { return index }
    return buffer[index..<count].firstIndex(of: 0x0A) ?? count
  }

  private mutating func scanUnquoted() throws(LineReaderError) {
    let count = buffer.count
    guard let first = buffer[scanned...].firstIndex(of: 0x0A) else {
      scanned = count
      return try check(count - lineStart)
    }
    try check(first - lineStart)
    let last = buffer[first...].lastIndex(of: 0x0A) ?? first
    linesScanned += LineFeeds.count(in: buffer.span.extracting(first..<(last + 1)))
    lineStart = last + 1
    lastBreak = lineStart
    linesToBreak = linesScanned
    scanned = count
    try check(count - lineStart)
  }

  /// Refuses the line being looked at when its `length` is over the limit.
  private func check(_ length: Int) throws(LineReaderError) {
    guard length > maximumLineLength else { return }
    throw LineReaderError(file: name, kind: .lineTooLong(line: linesBefore + linesScanned + 1, limit: maximumLineLength))
  }

  // MARK: Lines

  /// Calls `body` with the next line, without its line end, and returns what it returns; `nil`
  /// once the input has ended. Input is read only when no whole line is left, so a writer that
  /// sends one line and waits for the answer gets it.
  ///
  /// A line of more than `maximumLineLength` bytes is handed out once, cut to
  /// `maximumLineLength + 1` bytes so that the caller sees it is too long, and the rest of it, up
  /// to its LF, is read and dropped: the tail of a long line is never taken for a line of its own.
  /// - Throws: `LineReaderError` for a failed read or a bad gzip stream.
  /// - Complexity: O(length of the line).
  public mutating func nextLine<R>(_ body: (Span<UInt8>) -> R) throws(LineReaderError) -> R? {
    while true {
      if let end = buffer[scanned...].firstIndex(of: 0x0A) {
        if discarding {
          discard(through: end)
          discarding = false
          continue
        }
        var last = end
        if last > start && buffer[last - 1] == 0x0D { last -= 1 }
        let result = body(buffer.span.extracting(start..<min(last, start + maximumLineLength + 1)))
        discard(through: end)
        return result
      }
      scanned = buffer.count
      if discarding { start = buffer.count }
      if ended {
        guard start < buffer.count else { return nil }
        let last = buffer[buffer.count - 1] == 0x0D ? buffer.count - 1 : buffer.count
        let result = body(buffer.span.extracting(start..<min(last, start + maximumLineLength + 1)))
        start = buffer.count
        return result
      }
      // Past `maximumLineLength + 1` bytes (room for a CR before an LF still to come) the line is
      // too long whatever follows.
      if buffer.count - start > maximumLineLength + 1 {
        let result = body(buffer.span.extracting(start..<(start + maximumLineLength + 1)))
        start = buffer.count
        scanned = start
        discarding = true
        return result
      }
      // What was handed out or dropped makes room: the open line moves to the front.
      buffer.removeSubrange(..<start)
      scanned -= start
      start = 0
      if !(try fill()) { ended = true }
    }
  }

  private mutating func discard(through end: Int) {
    start = end + 1
    scanned = start
  }

  // MARK: Reading

  /// Appends the next bytes of the input, inflated when it is gzip.
  /// - Returns: `false` at the end of the input.
  private mutating func fill() throws(LineReaderError) -> Bool {
    if case .detect(let limit, let named) = gzip {
      try detectGzip(limit: limit, named: named)
      // The first bytes of a plain input are lines; a gzip input's went to the inflater.
      if inflater == nil && !buffer.isEmpty { return true }
    }
    guard let inflater else { return try readRaw() }
    while true {
      let output: [UInt8]
      do { output = try inflater.next() } catch { throw LineReaderError(file: name, kind: .badGzip(error.message)) }
      if !output.isEmpty {
        buffer.append(contentsOf: output)
        return true
      }
      let end = buffer.count
      guard try readRaw() else {
        do { try inflater.finish() } catch { throw LineReaderError(file: name, kind: .badGzip(error.message)) }
        return false
      }
      // The raw bytes go to the inflater, not to the lines.
      inflater.supply(Array(buffer[end...]))
      buffer.removeSubrange(end...)
    }
  }

  /// Appends the next bytes as stored, read from the file straight into `buffer`.
  /// - Returns: `false` at the end (the file is then closed).
  private mutating func readRaw() throws(LineReaderError) -> Bool {
    do throws(SystemError) {
      if let chunks {
        let chunk = try chunks()
        buffer.append(contentsOf: chunk)
        return !chunk.isEmpty
      }
      guard let descriptor = file.descriptor else { return false }
      let end = buffer.count
      buffer.append(contentsOf: repeatElement(0, count: Self.chunkBytes))
      let count = try unsafe buffer.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) -> Int in
          try unsafe descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[end...]))
        }
      }.get()
      buffer.removeSubrange((end + count)...)
      if count == 0 { try file.close() }
      return count > 0
    } catch {
      throw LineReaderError(file: name, kind: .unreadable(error.message))
    }
  }
}
