import CallDirectoryFormat

/// What decoded labels cost in memory: the measure every label budget of the reader counts in
/// (`LabelCache`, `RecentLabels`), so that a budget bounds bytes, not labels.
///
/// A label's text is not what it costs: a `String` of up to 15 UTF-8 bytes lives inside its 16
/// bytes, and a longer one points to storage of its bytes plus a 32-byte header and a terminating
/// zero, rounded up to 16 bytes by the allocator, besides the 16 bytes of its place in an array.
/// Counting `n + 64` for a label of `n > 15` bytes (16 for a shorter one) never counts less than
/// that. A label block's payload is at most 131,072 bytes, each label taking at least 4 bytes of
/// offsets besides its at least one byte of text, so one block costs at most 4 times its payload
/// (`(n + 64) / (n + 4)` is largest, 4, at `n = 16`): `maximumBlockCost`.
enum LabelMemory {
  /// The most one decoded label block costs: 4 x 131,072 bytes (see the type's discussion).
  static let maximumBlockCost = 4 * FormatConstants.maximumLabelPayload

  /// What a label of `count` UTF-8 bytes costs held in an array, in bytes.
  /// - Complexity: O(1).
  static func cost(ofLabelBytes count: Int) -> Int {
    count <= 15 ? 16 : count &+ 64  // count <= 65,534: no overflow
  }

  /// What `labels` cost held in an array, in bytes.
  /// - Complexity: O(labels): a native `String`'s UTF-8 count is stored, not counted.
  static func cost(of labels: some Sequence<String>) -> Int {
    labels.reduce(0) { $0 &+ cost(ofLabelBytes: $1.utf8.count) }  // at most 4 x the bytes decoded
  }
}
