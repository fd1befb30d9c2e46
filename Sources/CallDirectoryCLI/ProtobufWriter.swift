/// The few Protocol Buffers wire-format encodings the Live Caller ID datasets need
/// (`Spec/LIVE-CALLER-ID.md`): varints, and length-delimited fields of bytes or of an embedded
/// message, appended to a byte array.
///
///     var row: [UInt8] = []
///     ProtobufWriter.appendBytes(field: 1, Array("+12025550100".utf8), to: &row)   // keyword
///     ProtobufWriter.appendBytes(field: 2, [1], to: &row)                          // value
///     // 0a 0c 2b 31 32 30 32 35 35 35 30 31 30 30 12 01 01
///
/// A field's key is `field << 3 | wire type`, a varint: wire type 0 for a varint, 2 for a length
/// followed by that many bytes. Varints are little-endian groups of 7 bits, the high bit of each
/// byte set when another follows; the writer never pads them.
enum ProtobufWriter {
  /// Wire type 0: a varint (`uint32`, an enum).
  static let varintType: UInt64 = 0
  /// Wire type 2: a length, then that many bytes (`bytes`, `string`, an embedded message).
  static let lengthDelimitedType: UInt64 = 2

  /// Appends `value` as a varint: 1 to 10 bytes.
  static func appendVarint(_ value: UInt64, to output: inout [UInt8]) {
    var rest = value
    while rest >= 0x80 {
      output.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    output.append(UInt8(rest))  // below 0x80: fits
  }

  /// Appends field `field` (1 ... 2^29 - 1) of wire type 0 holding `value`.
  static func appendVarintField(field: UInt64, _ value: UInt64, to output: inout [UInt8]) {
    appendVarint(field << 3 | varintType, to: &output)
    appendVarint(value, to: &output)
  }

  /// Appends field `field` (1 ... 2^29 - 1) of wire type 2 holding `bytes`: a `bytes` or
  /// `string` field, or an embedded message already encoded.
  static func appendBytes(field: UInt64, _ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
    appendVarint(field << 3 | lengthDelimitedType, to: &output)
    appendVarint(UInt64(bytes.count), to: &output)
    output.append(contentsOf: bytes)
  }
}
