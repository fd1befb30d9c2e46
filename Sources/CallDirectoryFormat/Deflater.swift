import CZlib

/// A deflate compressor that keeps zlib's state from one input to the next.
///
/// Starting zlib allocates and clears about 256 KiB of window and hash tables, which costs more
/// than compressing a block of a few hundred bytes; a writer that tries deflate on every block
/// keeps one `Deflater` and resets it between blocks instead. `deflateReset` returns the stream
/// to the state `deflateInit2` leaves, so every input compresses to the bytes a fresh stream
/// would make of it.
///
/// Parameters: the level given (9 by default), memLevel 8, default strategy, and the window bits
/// given (-15, raw deflate, by default). Not for concurrent use: give each writer its own.
///
/// A `Deflater` serves either ``compress(_:)``, input by input, or one long stream fed piece by
/// piece through ``continueStream(_:finish:)``; not both.
@safe @usableFromInline package final class Deflater {
  /// zlib's stream: on the heap, since zlib's state points back at it and refuses a moved one.
  private let stream: UnsafeMutablePointer<z_stream>
  private let trailer: Int

  /// A compressor at `level` (0 stores, 1 is fastest, 9 smallest) whose streams are raw deflate
  /// (`windowBits` -15), or a gzip member for 15 + 16, whose header and trailer add `trailer`
  /// bytes to deflate's bound.
  /// - Returns: `nil` when zlib cannot start (out of memory, or a level outside 0...9).
  @usableFromInline package init?(level: Int32 = 9, windowBits: Int32 = -15, trailer: Int = 0) {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    unsafe stream.initialize(to: unsafe z_stream())
    let status = unsafe deflateInit2_(
      stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    // Stored properties are set only on success: a failed init that had set them all would
    // run deinit, which frees the stream again.
    guard status == Z_OK else {
      unsafe stream.deallocate()
      return nil
    }
    unsafe self.stream = stream
    self.trailer = trailer
  }

  deinit {
    _ = unsafe deflateEnd(stream)
    unsafe stream.deallocate()
  }

  /// Compresses `input` in one `Z_FINISH` call, as a fresh stream would.
  /// - Returns: the stream, or `nil` if zlib fails or the input is over zlib's 32-bit counts.
  /// - Complexity: O(n) in the input size.
  @usableFromInline package func compress(_ input: [UInt8]) -> [UInt8]? {
    guard unsafe deflateReset(stream) == Z_OK else { return nil }
    let bound = Int(unsafe deflateBound(stream, uLong(input.count))) + trailer
    // zlib counts in 32 bits: one call can take no more.
    guard bound <= Int(uInt.max), input.count <= Int(uInt.max) else { return nil }
    var output = [UInt8](repeating: 0, count: bound)
    var finished = false
    unsafe input.withUnsafeBytes { source in
      unsafe output.withUnsafeMutableBytes { target in
        unsafe stream.pointee.next_in = UnsafeMutablePointer(
          mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
        unsafe stream.pointee.avail_in = uInt(source.count)
        unsafe stream.pointee.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
        unsafe stream.pointee.avail_out = uInt(target.count)
        finished = unsafe deflate(stream, Z_FINISH) == Z_STREAM_END
      }
    }
    // The stream points into buffers that are gone once this returns.
    unsafe stream.pointee.next_in = nil
    unsafe stream.pointee.next_out = nil
    guard finished else { return nil }
    output.removeLast(Int(unsafe stream.pointee.avail_out))
    return output
  }

  /// Compresses `input` as the next piece of one stream and returns the bytes zlib has ready,
  /// perhaps none yet; with `finish`, ends the stream and returns all that is left.
  ///
  /// zlib holds back up to its window of input, so the output of one call does not decompress
  /// on its own; the output of every call, concatenated, is the stream.
  /// - Complexity: O(n) in the input size.
  @usableFromInline package func continueStream(_ input: [UInt8], finish: Bool) -> [UInt8] {
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var consumed = 0
    while true {
      // zlib counts in 32 bits: feed at most 1 GiB a call, and finish only with the last piece.
      let feed = min(input.count - consumed, 1 << 30)
      let flush = finish && consumed + feed == input.count ? Z_FINISH : Z_NO_FLUSH
      let (status, used, produced) = unsafe zlibStep(stream, input: input, from: consumed, feed: feed, into: &chunk) {
        unsafe deflate($0, flush)
      }
      // After a good init, deflate fails only on a stream used against its contract (a bug
      // here, never the bytes given): Z_BUF_ERROR just means it had nothing to do.
      precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate: status \(status)")
      consumed += used
      output.append(contentsOf: chunk[..<produced])
      if status == Z_STREAM_END { return output }
      // A full chunk may leave more output inside zlib; otherwise it has taken all it was given.
      if produced < chunk.count && consumed == input.count && !finish { return output }
      precondition(used > 0 || produced > 0, "deflate made no progress")
    }
  }
}
