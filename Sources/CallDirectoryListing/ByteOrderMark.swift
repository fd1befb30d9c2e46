/// The UTF-8 byte order mark (`EF BB BF`), which a text input may begin with and which is no part
/// of its first line (`Spec/INPUT.md` section 2, `Spec/RESOLUTION.md` sections 7 and 8): every reader of
/// lines and records skips it with this one test. UTF-16's mark, which no UTF-8 input begins
/// with, is told apart so that such a file gets a message that says what it is.
package enum ByteOrderMark {
  /// The bytes of the mark that begins `bytes`: 3 when they begin with it, else 0.
  /// - Complexity: O(1).
  package static func length(atStartOf bytes: Span<UInt8>) -> Int {
    bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
  }

  /// Whether `bytes` begin with UTF-16's byte order mark, in either byte order (`FF FE`, `FE FF`):
  /// text a spreadsheet saved as "Unicode text", which is not UTF-8.
  /// - Complexity: O(1).
  package static func isUTF16(atStartOf bytes: Span<UInt8>) -> Bool {
    bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))
  }
}
