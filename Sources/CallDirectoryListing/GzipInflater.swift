import CZlib
import CallDirectoryFormat

/// Inflates a gzip stream (RFC 1952, one or more members) given in pieces, handing its output
/// out a window at a time as zlib produces it.
///
/// The cap is counted as bytes come out, so a bomb stops after `limit` bytes of output, in time
/// proportional to the cap, and memory holds one window of output and one piece of input
/// whatever the stream inflates to. The caller alternates ``next()`` and ``supply(_:)``:
///
///     let inflater = try GzipInflater()
///     var chunks = [gzipBytes[...]]  // what a download hands out, piece by piece
///     var inflated: [UInt8] = []
///     while true {
///       let output = try inflater.next()
///       if !output.isEmpty { inflated += output; continue }
///       guard let input = chunks.popLast() else { try inflater.finish(); break }
///       inflater.supply(Array(input))
///     }
@safe public final class GzipInflater {
  /// The most bytes ``next()`` returns at once: 64 KiB.
  public static let windowBytes = 1 << 16
  /// The most trailing bytes counted for a message before the stream is refused unread.
  private static let trailingCountLimit = 1 << 20

  private enum State {
    /// Inside a member: zlib decides what the bytes are.
    case member
    /// After a member's end: another member's magic, or the end of the input, may follow.
    case betweenMembers
    /// Bytes that do not begin a member follow the last member: this many so far.
    case trailing(Int)

    var isMember: Bool {
      if case .member = self { return true }
      return false
    }
  }

  /// zlib's stream: on the heap, since zlib's state points back at it and refuses a moved one.
  private let stream: UnsafeMutablePointer<z_stream>
  private let limit: Int
  /// The bytes handed out so far.
  public private(set) var inflatedCount = 0
  private var state = State.member
  /// The input supplied and not yet taken: `input[consumed...]`.
  private var input: [UInt8] = []
  private var consumed = 0
  /// Whether the last call filled the window: zlib may hold more output with no more input.
  private var windowWasFilled = false
  private var window = [UInt8](repeating: 0, count: windowBytes)

  /// An inflater that refuses more than `limit` bytes of output.
  /// - Throws: ``Gzip/Failure`` when zlib cannot start (out of memory).
  public init(limit: Int = Gzip.maximumInflatedBytes) throws(Gzip.Failure) {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    unsafe stream.initialize(to: unsafe z_stream())
    // The stream is stored only on success: deinit, which frees it, runs only then.
    guard unsafe inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      unsafe stream.deallocate()
      throw Gzip.Failure("zlib could not start")
    }
    unsafe self.stream = stream
    self.limit = limit
  }

  deinit {
    _ = unsafe inflateEnd(stream)
    unsafe stream.deallocate()
  }

  /// Adds the next bytes of the stream, after whatever ``next()`` has not taken yet.
  /// - Complexity: O(1) when everything before was taken (the usual case), else O(*n*) for the
  ///   bytes left.
  public func supply(_ bytes: [UInt8]) {
    input = consumed == input.count ? bytes : Array(input[consumed...]) + bytes
    consumed = 0
  }

  /// The next output, at most ``windowBytes``; empty when more input is needed (or the input
  /// supplied so far ends after a member).
  /// - Throws: ``Gzip/Failure`` for a corrupt stream, output over the limit, or more than 1 MiB
  ///   of bytes after the last member.
  /// - Complexity: O(*n*) in the input taken and the output made.
  public func next() throws(Gzip.Failure) -> [UInt8] {
    while true {
      switch state {
      case .trailing(let count):
        let total = count + (input.count - consumed)
        consumed = input.count
        guard total <= Self.trailingCountLimit else {
          throw Gzip.Failure("more than \(Self.trailingCountLimit) bytes after the end of the gzip stream")
        }
        state = .trailing(total)
        return []
      case .betweenMembers:
        // Two bytes decide; one byte waits for the next piece (or for `finish`).
        guard input.count - consumed >= 2 else { return [] }
        if input[consumed] == 0x1F && input[consumed + 1] == 0x8B {
          guard unsafe inflateReset(stream) == Z_OK else { throw Gzip.Failure("zlib could not restart") }
          state = .member
        } else {
          state = .trailing(0)
        }
      case .member:
        guard consumed < input.count || windowWasFilled else { return [] }
        let before = consumed
        let (status, produced) = inflateOnce()
        // Subtraction form: `inflatedCount <= limit` holds before every window handed out.
        guard produced <= limit - inflatedCount else {
          throw Gzip.Failure("inflates to more than \(limit) bytes (the cap on inflated input)")
        }
        inflatedCount += produced
        windowWasFilled = produced == window.count
        switch status {
        case Z_STREAM_END: state = .betweenMembers
        case Z_OK, Z_BUF_ERROR: break  // Z_BUF_ERROR: no progress without more input
        default:
          // zlib's own words name the damage ("incorrect data check" for a bad CRC-32).
          let detail = unsafe stream.pointee.msg.map { unsafe String(cString: $0) } ?? "zlib status \(status)"
          throw Gzip.Failure("corrupt gzip stream (\(detail))")
        }
        if produced > 0 { return Array(window[0..<produced]) }
        // No progress with what is left: only more input can help.
        if consumed == before && state.isMember { return [] }
      }
    }
  }

  /// Says that the input has ended, after ``next()`` returned empty.
  /// - Throws: ``Gzip/Failure`` when the stream is cut short (or empty), or bytes after the
  ///   last member do not begin another.
  public func finish() throws(Gzip.Failure) {
    switch state {
    case .member: throw Gzip.Failure("the gzip stream is cut short")
    case .betweenMembers:
      let left = input.count - consumed
      if left > 0 { throw Gzip.Failure("\(left) bytes after the end of the gzip stream") }
    case .trailing(let count): throw Gzip.Failure("\(count) bytes after the end of the gzip stream")
    }
  }

  /// One call of zlib's `inflate` over the input left (at most 1 GiB of it: `avail_in` is a
  /// 32-bit count) into the window.
  private func inflateOnce() -> (status: Int32, produced: Int) {
    let feed = min(input.count - consumed, 1 << 30)
    let (status, used, produced) = unsafe zlibStep(stream, input: input, from: consumed, feed: feed, into: &window) {
      unsafe CZlib.inflate($0, Z_NO_FLUSH)
    }
    // What zlib took is within the feed, itself within the input.
    consumed += used
    return (status, produced)
  }
}
