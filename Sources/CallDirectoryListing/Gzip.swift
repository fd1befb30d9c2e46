import CZlib
import CallDirectoryFormat

/// gzip streams (RFC 1952) through the system zlib: compressed inputs of the `calldir` tool.
///
/// Inflation is capped (``maximumInflatedBytes`` unless a smaller cap is given), because a few
/// kilobytes of gzip can claim gigabytes; several gzip members one after another (what `cat a.gz
/// b.gz` makes) inflate to their concatenation, as `gzip -d` does.
///
///     let packed = Gzip.compress(Array("+12025550100\n".utf8)) ?? []
///     print(Gzip.hasMagic(packed))                              // true
///     print(try Gzip.inflate(packed, limit: 1 << 20).count)     // 13
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
  package static func streamingCompressor(level: Int32 = 6) -> Deflater? {
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
    let inflater = try GzipInflater(limit: limit)
    inflater.supply(input)
    var output: [UInt8] = []
    while true {
      let piece = try inflater.next()
      if piece.isEmpty { break }
      output += piece
    }
    try inflater.finish()
    return output
  }
}
