import CallDirectorySystem

/// The output of a command that answers its input a line at a time (`calldir resolve` reading
/// standard input), written in batches: the answers to every line read so far are written
/// together, with one `write`, just before more input is read.
///
/// So a program that sends one line and waits gets its answer at once (the read that would wait
/// comes after the write), while input that is queued is answered a chunk at a time with one
/// `write` a chunk, not one a line. A batch is also written once it holds ``flushBytes``, so
/// memory stays bounded whatever one chunk of input expands to.
///
///     let batches = AnswerBatches(read: console.readChunk, write: console.writeOutput)
///     var lines = LineReader(name: "<stdin>", chunks: batches.nextChunk)
///     while let line = try lines.nextLine({ ... }) {
///       if batches.takeBatchStart() { /* once a batch: check for replaced files */ }
///       batches.pending.append(contentsOf: answer(line))
///       try batches.writeIfFull()
///     }
///     try batches.finish()
///
/// A failed write ends the input (``nextChunk()`` then hands out the end), since nobody reads
/// the answers any more; ``finish()`` throws it.
final class AnswerBatches {
  /// The size past which a batch is written before the input is drained: 64 KiB, a pipe's
  /// capacity on Linux, so a reader of the answers is never kept waiting for more than that.
  static let flushBytes = 1 << 16

  /// The answers not yet written.
  var pending: [UInt8] = []
  private let read: () throws(SystemError) -> [UInt8]
  private let write: ([UInt8]) throws(SystemError) -> Void
  /// Whether a chunk was read since ``takeBatchStart()`` last said so.
  private var batchStarted = false
  /// The write that failed, kept for ``finish()``.
  private var writeFailure: SystemError?

  /// Batches over `read`, the next chunk of input (empty at its end), and `write`.
  init(read: @escaping () throws(SystemError) -> [UInt8], write: @escaping ([UInt8]) throws(SystemError) -> Void) {
    self.read = read
    self.write = write
    pending.reserveCapacity(Self.flushBytes + 4096)
  }

  /// Writes what is pending, then reads the next chunk of input: the source to read lines from.
  /// - Returns: the chunk; empty at the end of the input, or once a write has failed.
  /// - Throws: `SystemError` when the input cannot be read.
  func nextChunk() throws(SystemError) -> [UInt8] {
    guard writeFailure == nil else { return [] }
    do { try writePending() } catch {
      writeFailure = error
      return []
    }
    let chunk = try read()
    batchStarted = true
    return chunk
  }

  /// Whether a new batch began (a chunk was read) since the last call: true once per chunk.
  func takeBatchStart() -> Bool {
    defer { batchStarted = false }
    return batchStarted
  }

  /// Writes the batch when it holds ``flushBytes`` or more.
  /// - Throws: `SystemError` when the write fails.
  func writeIfFull() throws(SystemError) {
    if pending.count >= Self.flushBytes { try writePending() }
  }

  /// Writes what is pending, or throws the write that failed before.
  /// - Throws: `SystemError` when a write failed, now or earlier.
  func finish() throws(SystemError) {
    if let writeFailure { throw writeFailure }
    try writePending()
  }

  private func writePending() throws(SystemError) {
    guard !pending.isEmpty else { return }
    try write(pending)
    pending.removeAll(keepingCapacity: true)
  }
}
