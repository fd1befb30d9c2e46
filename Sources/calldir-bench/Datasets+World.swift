import CallDirectory

extension Datasets {
  /// Countries of the world-wide block list: E.164 country code, digits of a national number
  /// (first digit 2 ... 9) and a weight for the share of numbers, heavier where nuisance calls
  /// are reported most.
  static let worldCountries: [(code: Int64, digits: Int, weight: Double)] = [
    (1, 10, 30), (7, 10, 3), (20, 10, 1), (27, 9, 2), (30, 10, 1), (31, 9, 2), (32, 9, 1), (33, 9, 4), (34, 9, 3),
    (36, 9, 1), (39, 10, 3), (40, 9, 1), (41, 9, 1), (43, 10, 1), (44, 10, 5), (45, 8, 1), (46, 9, 1), (47, 8, 1),
    (48, 9, 2), (49, 11, 4), (51, 9, 1), (52, 10, 2), (54, 10, 1), (55, 11, 6), (56, 9, 1), (57, 10, 1), (58, 10, 1),
    (60, 9, 1), (61, 9, 2), (62, 11, 2), (63, 10, 2), (64, 9, 1), (65, 8, 1), (66, 9, 1), (81, 10, 2), (82, 10, 2),
    (84, 9, 2), (86, 11, 5), (90, 10, 2), (91, 10, 10), (92, 10, 2), (234, 10, 2), (254, 9, 1), (351, 9, 1),
    (353, 9, 1), (358, 9, 1), (380, 9, 1), (420, 9, 1), (852, 8, 1), (880, 10, 1), (966, 9, 1), (971, 9, 1),
    (972, 9, 1),
  ]

  /// `count` distinct blocking numbers spread over `worldCountries`: a country drawn by weight,
  /// then a national number drawn uniformly from its 8 ... 11-digit space.
  ///
  /// E.164 country codes are prefix-free, so numbers of different countries never coincide. The
  /// bound is that of the set given each country's count: the sum of `log2 C(U_c, n_c)`.
  static func world(count: Int, name: String, seed: UInt64) -> Dataset {
    var random = SeededGenerator.derived(from: seed, name)
    let choice = WeightedChoice(worldCountries.map(\.weight))
    let spaces = worldCountries.map { country -> (base: Int64, low: Int64, high: Int64) in
      let power = (0..<country.digits).reduce(Int64(1)) { value, _ in value * 10 }
      return (country.code * power, 2 * power / 10, power)
    }
    func draw(_ random: inout SeededGenerator) -> (Int, Int64) {
      let index = choice.next(using: &random)
      let space = spaces[index]
      return (index, space.base + Int64.random(in: space.low..<space.high, using: &random))
    }
    var numbers: [Int64] = []
    numbers.reserveCapacity(count)
    var seen = Set<Int64>(minimumCapacity: count)
    var perCountry = [Int](repeating: 0, count: spaces.count)
    while numbers.count < count {
      let (index, number) = draw(&random)
      guard seen.insert(number).inserted else { continue }
      numbers.append(number)
      perCountry[index] += 1
    }
    var misses: [Int64] = []
    misses.reserveCapacity(missCount)
    while misses.count < missCount {
      let number = draw(&random).1
      if !seen.contains(number) { misses.append(number) }
    }
    let bits = zip(spaces, perCountry).map { space, n in Bound.log2Binomial(Double(space.high - space.low), Double(n)) }
      .reduce(0, +)
    var dataset = Dataset(
      name: name,
      summary: "\(count) blocking numbers in \(spaces.count) countries, weighted, national numbers of 8 to 11 digits",
      kind: .blocking, numbers: numbers.sorted(), labelIndices: [], labels: [], packNumbers: numbers, packLabels: [],
      misses: misses, boundBits: bits)
    dataset.boundName = "bound: sum of log2 C(U_c, n_c) per country"
    return dataset
  }
}
