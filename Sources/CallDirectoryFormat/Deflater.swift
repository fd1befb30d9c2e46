import CZlib

/// A deflate compressor that keeps zlib's state from one input to the next.
///
/// Starting zlib allocates and clears about 256 KiB of window and hash tables, which costs more
/// than compressing a block of a few hundred bytes; a writer that tries deflate on every block
/// keeps one `Deflater` and resets it between blocks instead. `deflateReset` returns the stream
/// to the state `deflateInit2` leaves, so every input compresses to the bytes a fresh stream
/// would make of it.
///
/// Parameters are fixed: level 9, memLevel 8, default strategy, and the window bits given (-15,
/// raw deflate, by default). Not for concurrent use: give each writer its own.
@safe public final class Deflater {
  /// zlib's stream: on the heap, since zlib's state points back at it and refuses a moved one.
  private let stream: UnsafeMutablePointer<z_stream>
  private let trailer: Int

  /// A compressor whose streams are raw deflate (`windowBits` -15), or a gzip member for 15 + 16,
  /// whose header and trailer add `trailer` bytes to deflate's bound.
  /// - Returns: `nil` when zlib cannot start (it only fails when out of memory).
  public init?(windowBits: Int32 = -15, trailer: Int = 0) {
    unsafe stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    unsafe stream.initialize(to: unsafe z_stream())
    self.trailer = trailer
    let status = unsafe deflateInit2_(
      stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard status == Z_OK else {
      unsafe stream.deallocate()
      return nil
    }
  }

  deinit {
    _ = unsafe deflateEnd(stream)
    unsafe stream.deallocate()
  }

  /// Compresses `input` in one `Z_FINISH` call, as a fresh stream would.
  /// - Returns: the stream, or `nil` if zlib fails or the input is over zlib's 32-bit counts.
  /// - Complexity: O(n) in the input size.
  public func compress(_ input: [UInt8]) -> [UInt8]? {
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
}
