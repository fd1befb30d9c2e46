import Synchronization

/// A fixed number of bits that threads set and test without a lock: one bit an entry block, for
/// remembering which blocks a reader has checked.
///
/// The words are atomics, reached only through `load` and `bitwiseOr`, so sharing the value is
/// safe although it holds a pointer; it is `~Copyable`, the one owner of the words, so that
/// reading a bit takes no reference count.
@safe @usableFromInline struct AtomicBits: ~Copyable, @unchecked Sendable {
  @usableFromInline let words: UnsafeMutablePointer<Atomic<UInt64>>
  private let wordCount: Int
  /// The number of bits.
  @usableFromInline let count: Int

  /// `count` bits, all clear.
  /// - Complexity: O(count / 64): a reader makes one per kind at open, a word per 64 blocks
  ///   (1,024 bytes of index records), so an index of 20,000 blocks costs 313 words.
  init(count: Int) {
    self.count = max(0, count)
    wordCount = max(1, self.count / 64 + (self.count % 64 == 0 ? 0 : 1))
    unsafe words = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: wordCount)
    for word in 0..<wordCount { unsafe (words + word).initialize(to: Atomic(0)) }
  }

  deinit {
    unsafe words.deinitialize(count: wordCount)
    unsafe words.deallocate()
  }

  /// Whether bit `index` is set; `false` outside `0 ..< count`.
  ///
  /// Relaxed ordering is enough: a set bit vouches for bytes nobody writes while the reader
  /// lives (a read-only mapping or a private copy), not for memory the setting thread wrote.
  @inlinable @inline(__always)
  func contains(_ index: Int) -> Bool {
    guard index >= 0 && index < count else { return false }
    return unsafe words[index >> 6].load(ordering: .relaxed) & (1 << UInt64(index & 63)) != 0
  }

  /// Sets every bit.
  /// - Complexity: O(count / 64).
  func insertAll() {
    for word in 0..<wordCount {
      let bits = min(64, count &- word &* 64)
      guard bits > 0 else { break }
      _ = unsafe words[word].bitwiseOr(bits == 64 ? ~0 : (1 << UInt64(bits)) &- 1, ordering: .relaxed)
    }
  }

  /// Sets bit `index` (nothing outside `0 ..< count`).
  func insert(_ index: Int) {
    guard index >= 0 && index < count else { return }
    _ = unsafe words[index >> 6].bitwiseOr(1 << UInt64(index & 63), ordering: .relaxed)
  }
}
