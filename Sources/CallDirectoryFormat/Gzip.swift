import CZlib

/// gzip streams (RFC 1952) through the system zlib: compressed inputs of the `calldir` tool.
///
/// Inflation is capped (``maximumInflatedBytes`` unless a smaller cap is given), because a few
/// kilobytes of gzip can claim gigabytes; several gzip members one after another (what `cat a.gz
/// b.gz` makes) inflate to their concatenation, as `gzip -d` does.
public enum Gzip {
  /// The default cap on the inflated size: 4 GiB.
  public static let maximumInflatedBytes = 4 << 30

  /// Why a gzip stream could not be inflated.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a phrase.
    public var message: String
    /// A failure with `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
  }

  /// Whether `bytes` begin with the gzip magic `1f 8b`.
  public static func hasMagic(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
  }

  /// Compresses `input` into one gzip member at level 9 (windowBits 15 + 16 selects gzip).
  ///
  /// - Returns: The gzip stream, or `nil` if zlib fails (it only does when out of memory).
  /// - Complexity: O(*n*) in the input.
  public static func compress(_ input: [UInt8]) -> [UInt8]? {
    Deflater(windowBits: 15 + 16, trailer: 18)?.compress(input)
  }

  /// A compressor for one gzip member written piece by piece with
  /// ``Deflater/continueStream(_:finish:)``, at `level` (gzip's default 6).
  ///
  /// - Returns: `nil` if zlib cannot start (out of memory, or a level outside 0...9).
  public static func streamingCompressor(level: Int32 = 6) -> Deflater? {
    Deflater(level: level, windowBits: 15 + 16)
  }

  /// Inflates the gzip stream `input`: one or more members, each checked against its CRC-32
  /// and length trailer.
  ///
  /// - Parameter limit: The most bytes the result may hold; more is an error.
  /// - Throws: ``Failure`` for a corrupt or cut-short stream, bytes after it that are not
  ///   another member, or a result over `limit`.
  /// - Complexity: O(*n*) in the inflated size.
  public static func inflate(_ input: [UInt8], limit: Int = maximumInflatedBytes) throws(Failure) -> [UInt8] {
    var stream = unsafe z_stream()
    guard unsafe inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw Failure("zlib could not start")
    }
    defer { _ = unsafe inflateEnd(&stream) }
    var output: [UInt8] = []
    let chunkSize = 1 << 16
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    var consumed = 0
    while true {
      // Feed at most 1 GiB at a time: avail_in is a 32-bit count.
      let feed = min(input.count - consumed, 1 << 30)
      var status: Int32 = Z_OK
      var produced = 0
      unsafe input.withUnsafeBytes { source in
        unsafe chunk.withUnsafeMutableBytes { target in
          unsafe stream.next_in = UnsafeMutablePointer(
            mutating: source.baseAddress.map { unsafe $0.assumingMemoryBound(to: Bytef.self) + consumed })
          unsafe stream.avail_in = uInt(feed)
          unsafe stream.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
          unsafe stream.avail_out = uInt(target.count)
          status = unsafe CZlib.inflate(&stream, Z_NO_FLUSH)
          produced = target.count - Int(unsafe stream.avail_out)
        }
      }
      // What zlib took is the feed less what it left; both are within the input.
      consumed += feed - Int(unsafe stream.avail_in)
      // Subtraction form: `output.count <= limit` holds before every append.
      guard produced <= limit - output.count else {
        throw Failure("inflates to more than \(limit) bytes (the cap on inflated input)")
      }
      output.append(contentsOf: chunk[0..<produced])
      switch status {
      case Z_STREAM_END:
        if consumed == input.count { return output }
        // Another member may follow; anything else after the stream is an error, as gzip -d says.
        guard input.count - consumed >= 2, input[consumed] == 0x1F, input[consumed + 1] == 0x8B else {
          throw Failure("\(input.count - consumed) bytes after the end of the gzip stream")
        }
        guard unsafe inflateReset(&stream) == Z_OK else { throw Failure("zlib could not restart") }
      case Z_OK:
        continue
      case Z_BUF_ERROR:
        // No progress possible: the input ran out before the stream ended.
        if produced == 0 { throw Failure("the gzip stream is cut short") }
      default:
        // zlib's own words name the damage ("incorrect data check" for a bad CRC-32).
        let detail = unsafe stream.msg.map { unsafe String(cString: $0) } ?? "zlib status \(status)"
        throw Failure("corrupt gzip stream (\(detail))")
      }
    }
  }
}
