/// How a block's payload is stored (`Spec/FORMAT.md`, "Blocks").
@usableFromInline package enum BlockCodec: UInt8, Sendable {
  /// The payload bytes follow the header as they are.
  case raw = 0
  /// A `UInt32` payload length, then the payload as a raw deflate stream (RFC 1951).
  case deflate = 1
}
