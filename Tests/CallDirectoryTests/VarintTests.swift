import CallDirectory
import Testing

@testable import CallDirectoryChangeset

/// The changeset's varints (`Spec/CHANGESET.md`): every value round-trips, and padded, truncated
/// and over-long encodings are refused.
@Suite struct VarintTests {
  @Test func varintsAreCanonicalAndBounded() {
    func read(_ bytes: [UInt8]) -> UInt64? {
      unsafe bytes.withUnsafeBytes { raw in
        var offset = 0
        let value = Varint.read(unsafe ByteView(raw), at: &offset)
        return offset == bytes.count ? value : nil
      }
    }
    for value in [0, 1, 127, 128, 16_383, 16_384, UInt64(Int64.max), .max] as [UInt64] {
      var bytes: [UInt8] = []
      Varint.append(value, to: &bytes)
      #expect(read(bytes) == value)
      for cut in 0..<bytes.count { #expect(read(Array(bytes[..<cut])) == nil) }
    }
    #expect(read([0x80, 0x00]) == nil)  // padded
    #expect(read([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02]) == nil)  // over 64 bits
    #expect(read(Array(repeating: 0x80, count: 11) + [0x01]) == nil)
  }
}
