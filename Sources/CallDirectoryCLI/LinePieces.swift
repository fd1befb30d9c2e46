import CallDirectory
import CallDirectorySystem

/// A file read a few MiB at a time, each piece ending at a line break (the last at the file's
/// end), so that line-by-line formats can be parsed without the whole text in memory.
struct LinePieces {
  private let file: FileDescriptor
  private var carry: [UInt8] = []
  private var ended = false
  private let pieceSize: Int

  init(file: FileDescriptor, pieceSize: Int = 8 << 20) {
    self.file = file
    self.pieceSize = max(1, pieceSize)
  }

  /// The first bytes of the file, read into the carry, to tell compressed input apart.
  mutating func peekMagic() throws(CommandFailure) -> [UInt8]? {
    try fill()
    return carry.isEmpty ? nil : Array(carry.prefix(2))
  }

  private mutating func fill() throws(CommandFailure) {
    var chunk = [UInt8](repeating: 0, count: pieceSize)
    let count: Int
    do {
      count = try unsafe chunk.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) -> Int in try unsafe file.read(into: raw) }
      }.get()
    } catch {
      throw CommandFailure("\(file.path): cannot read: \(error.message)")
    }
    if count == 0 { ended = true } else { carry += chunk[0..<count] }
  }

  /// The next piece and the number of lines it holds, or `nil` at the end.
  mutating func next() throws(CommandFailure) -> ([UInt8], Int)? {
    // Whole lines only: a line longer than a piece is read on until its end.
    while !ended && (carry.count < pieceSize || !carry.contains(0x0A)) { try fill() }
    if carry.isEmpty {
      try? file.close()
      return nil
    }
    var end = carry.count
    if !ended, let lastBreak = carry.lastIndex(of: 0x0A) { end = lastBreak + 1 }
    let piece = Array(carry[0..<end])
    carry.removeFirst(end)
    return (piece, piece.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
  }
}
