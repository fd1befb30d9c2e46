/// The UTF-8 byte order mark (`EF BB BF`), which a text input may begin with and which is no part
/// of its first line (`Spec/INPUT.md` section 2, `Spec/RESOLUTION.md` section 7): every reader of
/// lines and records skips it with this one test.
package enum ByteOrderMark {
  /// The bytes of the mark that begins `bytes`: 3 when they begin with it, else 0.
  /// - Complexity: O(1).
  package static func length(atStartOf bytes: Span<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }
}
