/// UTF-8 validity as Unicode defines it (no overlong forms, no surrogates, nothing above U+10FFFF).
public enum UTF8Validation {
  /// Whether `bytes` is valid UTF-8.
  /// - Complexity: O(n).
  public static func isValid(_ bytes: some Collection<UInt8>) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// Whether the bytes of `view` are valid UTF-8.
  public static func isValid(_ view: ByteView) -> Bool {
    unsafe view.withUnsafeBytes { unsafe isValid($0) }
  }
}
