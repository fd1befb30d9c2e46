/// The frame every block shares (`Spec/FORMAT.md`, "Blocks"): a 4-byte header whose first byte is
/// the codec, a body, and a trailing CRC-32 of everything before it.
///
/// Parsing checks the frame (sizes, codec, payload cap) in O(1). The checksum is compared only
/// by `checksumMatches()`, which streaming and the verifier call and lookups skip.
@usableFromInline package struct Block: ~Escapable, Sendable {
  /// The block's header bytes: codec, then three bytes whose meaning depends on the block kind.
  @usableFromInline package let header: (UInt8, UInt8, UInt8, UInt8)
  /// How the payload is stored.
  @usableFromInline package let codec: BlockCodec
  /// The payload itself (`raw`) or the deflate stream (`deflate`).
  @usableFromInline package let body: ByteView
  /// The payload's length: the body's for `raw`, the declared inflated length for `deflate`.
  @usableFromInline package let payloadLength: Int
  /// The whole block, trailer included.
  @usableFromInline package let bytes: ByteView
  /// The block's number within its section, for messages.
  @usableFromInline package let number: Int
  /// Where the block lies in the file: its errors, and those of its payload, are placed there.
  @usableFromInline package let place: FilePlace

  /// Checks a block's frame.
  ///
  /// - Parameters:
  ///   - bytes: the block, from its codec byte to the end of its trailer.
  ///   - place: where the block lies in the file.
  ///   - number: the block's number in its section, for messages.
  ///   - maximumPayload: the payload cap of this block kind.
  /// - Throws: `FormatError`, placed in the file, for a block too short for its frame,
  ///   an unknown codec, or a payload over the cap.
  @_lifetime(copy bytes)
  package init(parsing bytes: ByteView, at place: FilePlace, number: Int, maximumPayload: Int) throws(FormatError) {
    let frame = FormatConstants.blockHeaderSize + FormatConstants.blockTrailerSize
    guard bytes.count >= frame else {
      throw place.error(.truncated(needed: frame, available: bytes.count))
    }
    header = (
      unsafe bytes.uncheckedByte(at: 0), unsafe bytes.uncheckedByte(at: 1), unsafe bytes.uncheckedByte(at: 2),
      unsafe bytes.uncheckedByte(at: 3)
    )
    guard let codec = BlockCodec(rawValue: header.0) else { throw place.error(.unknownCodec(header.0)) }
    self.codec = codec
    let inner = try bytes.slice(offset: FormatConstants.blockHeaderSize, length: bytes.count - frame, in: place)
    switch codec {
    case .raw:
      body = inner
      payloadLength = inner.count
    case .deflate:
      guard let declared = inner.uint32LE(at: 0) else {
        throw place.error(.malformedBlock(block: number, reason: "no payload length"), at: FormatConstants.blockHeaderSize)
      }
      body = try inner.dropFirst(4, in: place.advanced(by: FormatConstants.blockHeaderSize))
      payloadLength = Int(declared)
    }
    guard payloadLength <= maximumPayload else {
      throw place.error(
        .malformedBlock(block: number, reason: "payload of \(payloadLength) bytes exceeds the \(maximumPayload)-byte cap"),
        at: FormatConstants.blockHeaderSize)
    }
    self.bytes = bytes
    self.number = number
    self.place = place
  }

  /// The error of `kind` at byte `offset` of the payload, placed in the file: exactly for a raw
  /// block, whose payload is its body; at the start of the body for a deflated block, whose
  /// payload exists only inflated and so has no offset in the file.
  package func payloadError(_ kind: FormatError.Kind, at offset: Int) -> FormatError {
    place.error(kind, at: FormatConstants.blockHeaderSize &+ (codec == .raw ? offset : 0))
  }

  /// The CRC-32 stored in the trailer (the frame check at parse proved `count >= 8`).
  @usableFromInline package var storedChecksum: UInt32 { unsafe bytes.uncheckedUInt32LE(at: bytes.count &- 4) }

  /// Whether the trailer matches the block's bytes.
  ///
  /// - Throws: `FormatError.blockChecksumMismatch`, at the trailer, when it does not.
  /// - Complexity: O(block size).
  @usableFromInline package func checkChecksum() throws(FormatError) {
    let computed = CRC32.checksum(bytes.sliceOrEmpty(offset: 0, length: bytes.count &- 4))
    guard computed == storedChecksum else {
      throw place.error(.blockChecksumMismatch(block: number, stored: storedChecksum, computed: computed), at: bytes.count &- 4)
    }
  }

  /// Calls `body` with the block's payload: the body itself, or the body inflated into a buffer
  /// of exactly `payloadLength` bytes (at most the cap, so memory is bounded by one block).
  ///
  /// - Throws: `FormatError.inflateFailed`, at the block's body, when the deflate stream
  ///   is corrupt, ends early, has trailing bytes, or does not inflate to exactly `payloadLength`;
  ///   and whatever `body` throws.
  @usableFromInline package func withPayload<R>(_ body: (ByteView) throws(FormatError) -> R) throws(FormatError) -> R {
    switch codec {
    case .raw:
      return try body(self.body)
    case .deflate:
      var buffer = [UInt8](repeating: 0, count: payloadLength)
      let stream = self.body
      let failure = unsafe buffer.withUnsafeMutableBytes { unsafe Deflate.inflate(stream, into: $0) }
      if let failure {
        throw place.error(.inflateFailed(block: number, reason: failure), at: FormatConstants.blockHeaderSize)
      }
      // Array.withUnsafeBytes rethrows untyped: carry the typed error out through a Result.
      let result = unsafe buffer.withUnsafeBytes { raw in
        Result { () throws(FormatError) -> R in try body(unsafe ByteView(raw)) }
      }
      return try result.get()
    }
  }

  /// Frames `payload` as a block: `header` (its first byte is replaced by the codec), the payload
  /// raw or deflated, then the CRC-32 trailer.
  ///
  /// - Parameter deflateWhenSaving: deflate the payload when that saves at least this share of
  ///   it, as `1 / n` (`Spec/FORMAT.md`, "Choosing a codec"); `nil` never deflates.
  /// - Parameter deflater: the compressor to try it with; a fresh one when `nil`. Writers of many
  ///   blocks pass one of their own: starting zlib costs more than a small block's stream.
  @usableFromInline package static func encode(
    header: (UInt8, UInt8, UInt8), payload: [UInt8], deflateWhenSaving divisor: Int?, using deflater: Deflater? = nil
  ) -> [UInt8] {
    var block: [UInt8] = [BlockCodec.raw.rawValue, header.0, header.1, header.2]
    if let divisor, payload.count >= 64,
      let deflated = deflater.map({ $0.compress(payload) }) ?? Deflate.compress(payload),
      deflated.count + 4 <= payload.count - payload.count / divisor
    {
      block[0] = BlockCodec.deflate.rawValue
      block.appendUInt32LE(UInt32(payload.count))
      block.append(contentsOf: deflated)
    } else {
      block.append(contentsOf: payload)
    }
    block.appendUInt32LE(CRC32.checksum(block))
    return block
  }
}
