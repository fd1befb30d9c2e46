/// SplitMix64: a small seeded generator, so every dataset is the same on every run and machine.
///
///     var random = SeededGenerator(seed: 42)
///     let digit = Int.random(in: 0..<10, using: &random)
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator whose whole output is fixed by `seed`.
  init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A generator for one named part of a run, so that changing one dataset never shifts another.
  static func derived(from seed: UInt64, _ purpose: String) -> SeededGenerator {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a over the purpose's bytes
    for byte in purpose.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return SeededGenerator(seed: seed ^ hash)
  }
}

extension Array {
  /// `count` elements drawn uniformly with replacement (for query lists).
  func sample(_ count: Int, using random: inout SeededGenerator) -> [Element] {
    guard !isEmpty else { return [] }
    return (0..<count).map { _ in self[Int.random(in: indices, using: &random)] }
  }
}

/// Cumulative weights for drawing an index with probability proportional to its weight.
struct WeightedChoice {
  private let cumulative: [Double]

  /// A choice among `weights.count` indices; weights must be positive.
  init(_ weights: [Double]) {
    var total = 0.0
    cumulative = weights.map { weight in
      total += weight
      return total
    }
  }

  /// An index drawn by weight: binary search of a uniform draw in the cumulative sums.
  func next(using random: inout SeededGenerator) -> Int {
    let target = Double.random(in: 0..<(cumulative.last ?? 1), using: &random)
    var low = 0
    var high = cumulative.count - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulative[middle] <= target { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
