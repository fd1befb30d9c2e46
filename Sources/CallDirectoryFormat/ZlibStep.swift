import CZlib

/// One call of a zlib stream function (`inflate` or `deflate`) over `feed` bytes of `input` from
/// `consumed`, into all of `output`; the stream's pointers are cleared again after the call, so
/// that it holds none into arrays it does not own.
///
/// - Precondition: `feed <= input.count - consumed` and `feed <= 1 << 30` (zlib counts in 32 bits).
/// - Returns: zlib's status, the input bytes it took and the output bytes it made.
package func zlibStep(
  _ stream: UnsafeMutablePointer<z_stream>, input: [UInt8], from consumed: Int, feed: Int, into output: inout [UInt8],
  _ call: (UnsafeMutablePointer<z_stream>) -> Int32
) -> (status: Int32, used: Int, produced: Int) {
  var status: Int32 = Z_OK
  var used = 0
  var produced = 0
  unsafe input.withUnsafeBytes { source in
    unsafe output.withUnsafeMutableBytes { target in
      unsafe stream.pointee.next_in = UnsafeMutablePointer(
        mutating: source.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) + consumed })
      unsafe stream.pointee.avail_in = uInt(feed)
      unsafe stream.pointee.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
      unsafe stream.pointee.avail_out = uInt(target.count)
      status = unsafe call(stream)
      used = feed - Int(unsafe stream.pointee.avail_in)
      produced = target.count - Int(unsafe stream.pointee.avail_out)
    }
  }
  unsafe stream.pointee.next_in = nil
  unsafe stream.pointee.next_out = nil
  return (status, used, produced)
}
