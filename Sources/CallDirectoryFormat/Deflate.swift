import CZlib

/// Raw deflate (RFC 1951, no zlib or gzip wrapper: blocks carry their own CRC-32) through the
/// system zlib. The `deflate` block codec of `Spec/FORMAT.md` uses it.
@usableFromInline package enum Deflate {
  /// Compresses `input` at level 9 with a 32 KiB window (windowBits -15, memLevel 8, default
  /// strategy): fixed parameters, so one zlib build always gives the same bytes.
  ///
  /// For many small inputs use a ``Deflater``: starting zlib costs more than a block's stream.
  /// - Returns: the deflate stream, or `nil` if zlib fails (it only does when out of memory).
  /// - Complexity: O(n) in the input size.
  @usableFromInline package static func compress(_ input: [UInt8]) -> [UInt8]? {
    Deflater()?.compress(input)
  }

  /// Inflates the raw deflate stream `input` into `output`, which must be filled exactly.
  ///
  /// The stream must end exactly where `input` ends and produce exactly `output.count` bytes:
  /// anything else is an error, so a block cannot hide trailing bytes or inflate past its
  /// declared size (a "zip bomb" stops at `output.count`, which callers cap).
  ///
  /// - Returns: `nil` on success, else what went wrong.
  /// - Complexity: O(`output.count` + `input.count`).
  @usableFromInline package static func inflate(_ input: ByteView, into output: UnsafeMutableRawBufferPointer) -> String? {
    var stream = unsafe z_stream()
    guard unsafe inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      return "zlib could not start"
    }
    defer { _ = unsafe inflateEnd(&stream) }
    // Lengths are bounded by the payload caps (at most 128 KiB), far below uInt's range.
    return unsafe input.withUnsafeBytes { source -> String? in
      unsafe stream.next_in = UnsafeMutablePointer(
        mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
      unsafe stream.avail_in = uInt(source.count)
      unsafe stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
      unsafe stream.avail_out = uInt(output.count)
      let status = unsafe CZlib.inflate(&stream, Z_FINISH)
      let outputLeft = Int(unsafe stream.avail_out)
      let inputLeft = Int(unsafe stream.avail_in)
      switch status {
      case Z_STREAM_END:
        if outputLeft != 0 { return "inflated to \(output.count - outputLeft) bytes, expected \(output.count)" }
        if inputLeft != 0 { return "\(inputLeft) bytes after the end of the deflate stream" }
        return nil
      case Z_BUF_ERROR, Z_OK:
        return outputLeft == 0
          ? "inflates to more than the declared \(output.count) bytes" : "the deflate stream is cut short"
      default:
        return "corrupt deflate stream (zlib status \(status))"
      }
    }
  }
}
