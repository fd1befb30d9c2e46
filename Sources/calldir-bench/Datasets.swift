import CallDirectory
import Foundation

/// One benchmark dataset: a directory's entries, the queries to ask it, and what is known of its
/// number space.
///
/// Every dataset is generated from a seed, so two runs with the same seed measure the same bytes.
struct Dataset {
  /// The short name used in tables and by `--only` ("nanp-1M").
  let name: String
  /// One line saying how the entries were made.
  let summary: String
  /// Which kind of entry the dataset holds.
  let kind: EntryKind
  /// The numbers, ascending and distinct.
  let numbers: [Int64]
  /// For identification: the label of each entry of `numbers`, as an index into `labels`.
  let labelIndices: [UInt32]
  /// The distinct labels (empty for blocking).
  let labels: [String]
  /// The entries in the order they are handed to a builder: shuffled, never sorted.
  let packNumbers: [Int64]
  /// The label index of each entry of `packNumbers` (identification only).
  let packLabels: [UInt32]
  /// Numbers drawn from the same space that are not in the set, for miss lookups.
  let misses: [Int64]
  /// The information-theoretic bound of the set in bits, when the space has a closed form
  /// (`log2 C(U, n)` for `n` numbers drawn from `U` possible ones).
  let boundBits: Double?
  /// What the bound is, for the size table.
  var boundName = "bound log2 C(U, n)"

  /// The number of entries.
  var count: Int { numbers.count }
}

/// The NANP numbers of a fixed set of area codes: `1 NPA NXX XXXX` with the exchange `NXX` in
/// 200 ... 999, so each area code holds 8,000,000 possible numbers.
struct NANPSpace {
  /// Possible numbers in one area code: 800 exchanges of 10,000 lines.
  static let numbersPerArea: Int64 = 800 * 10_000
  /// The area codes, ascending: three digits, the first 2 ... 9.
  let areaCodes: [Int64]

  /// `areaCount` distinct area codes chosen at random.
  init(areaCount: Int, using random: inout SeededGenerator) {
    var all = Array(Int64(200)...Int64(999))
    all.shuffle(using: &random)
    areaCodes = all.prefix(areaCount).sorted()
  }

  /// The number of possible numbers.
  var size: Int64 { Int64(areaCodes.count) * Self.numbersPerArea }

  /// The `rank`-th possible number (0-based, ascending within an area code).
  func number(_ rank: Int64) -> Int64 {
    let area = areaCodes[Int(rank / Self.numbersPerArea)]
    let rest = rank % Self.numbersPerArea
    return 10_000_000_000 + area * 10_000_000 + (200 + rest / 10_000) * 10_000 + rest % 10_000
  }

  /// A possible number drawn uniformly.
  func random(using random: inout SeededGenerator) -> Int64 {
    number(Int64.random(in: 0..<size, using: &random))
  }
}

/// A country's numbering plan, reduced to what the caller-ID generator needs.
struct Country {
  /// The E.164 country code.
  let code: Int64
  /// Digits of a national number; country code plus national number is at most 15 digits.
  let digits: Int
  /// The share of labels homed in this country.
  let weight: Double
  /// The script of its business names.
  let script: Script

  /// The smallest national number (first digit 2) and one past the largest.
  var nationalRange: Range<Int64> {
    let power = (0..<digits).reduce(Int64(1)) { value, _ in value * 10 }
    return (2 * power / 10)..<power
  }

  /// The full number of `national`.
  func number(_ national: Int64) -> Int64 {
    code * nationalRange.upperBound + national
  }

  /// Countries spread over nine scripts; Austria's 13-digit national numbers reach E.164's 15 digits.
  static let all: [Country] = [
    Country(code: 1, digits: 10, weight: 24, script: .latin),  // United States, Canada
    Country(code: 44, digits: 10, weight: 7, script: .latin),  // United Kingdom
    Country(code: 49, digits: 11, weight: 7, script: .latin),  // Germany
    Country(code: 33, digits: 9, weight: 5, script: .latin),  // France
    Country(code: 55, digits: 11, weight: 4, script: .latin),  // Brazil
    Country(code: 62, digits: 12, weight: 3, script: .latin),  // Indonesia
    Country(code: 43, digits: 13, weight: 2, script: .latin),  // Austria
    Country(code: 7, digits: 10, weight: 8, script: .cyrillic),  // Russia
    Country(code: 30, digits: 10, weight: 3, script: .greek),  // Greece
    Country(code: 20, digits: 10, weight: 4, script: .arabic),  // Egypt
    Country(code: 966, digits: 9, weight: 3, script: .arabic),  // Saudi Arabia
    Country(code: 972, digits: 9, weight: 2, script: .hebrew),  // Israel
    Country(code: 91, digits: 10, weight: 6, script: .devanagari),  // India
    Country(code: 86, digits: 11, weight: 10, script: .chinese),  // China
    Country(code: 81, digits: 10, weight: 6, script: .japanese),  // Japan
    Country(code: 82, digits: 10, weight: 4, script: .korean),  // South Korea
  ]
}

/// The generators of the benchmark's datasets.
enum Datasets {
  /// Misses generated per dataset.
  static let missCount = 1 << 17

  /// `count` distinct blocking numbers drawn uniformly from 300 NANP area codes.
  static func nanp(count: Int, name: String, seed: UInt64) -> Dataset {
    var random = SeededGenerator.derived(from: seed, name)
    let space = NANPSpace(areaCount: 300, using: &random)
    let (unsorted, seen) = distinctNumbers(count) { space.random(using: &random) }
    let misses = numbers(notIn: seen) { space.random(using: &random) }
    return Dataset(
      name: name, summary: "\(count) blocking numbers, uniform over 300 NANP area codes (U = \(space.size))",
      kind: .blocking, numbers: unsorted.sorted(), labelIndices: [], labels: [], packNumbers: unsorted, packLabels: [],
      misses: misses, boundBits: Bound.log2Binomial(Double(space.size), Double(count)))
  }

  /// `count` identification numbers from 300 NANP area codes, each labelled with one of
  /// `labelCount` spam labels drawn with Zipf weights (label `r` has weight 1/r).
  static func spam(count: Int, labelCount: Int, name: String, seed: UInt64) -> Dataset {
    var random = SeededGenerator.derived(from: seed, name)
    let space = NANPSpace(areaCount: 300, using: &random)
    let labels = SpamLabels.labels(labelCount)
    var rankOf = Array(0..<labels.count)
    rankOf.shuffle(using: &random)
    let choice = WeightedChoice(rankOf.map { 1 / Double($0 + 1) })
    let (unsorted, seen) = distinctNumbers(count) { space.random(using: &random) }
    let ids = unsorted.map { _ in UInt32(choice.next(using: &random)) }
    let misses = numbers(notIn: seen) { space.random(using: &random) }
    return identification(
      name: name, summary: "\(count) identification numbers in 300 NANP area codes, \(labels.count) spam labels, Zipf",
      numbers: unsorted, ids: ids, labels: labels, misses: misses, random: &random)
  }

  /// About `count` identification numbers in 16 countries with `labelCount` distinct business
  /// names in nine scripts.
  ///
  /// Label `r` (in a random order) names about `C / r` numbers, at least one, with `C` chosen so
  /// that the total is `count`: a few labels have thousands of numbers, most have one to five.
  /// Half of a label's numbers lie in a run near its own base number (a company's lines), the
  /// rest anywhere in its country. A number drawn twice keeps its first label.
  static func callerID(count: Int, labelCount: Int, name: String, seed: UInt64) -> Dataset {
    var random = SeededGenerator.derived(from: seed, name)
    let countries = WeightedChoice(Country.all.map(\.weight))
    var labels: [String] = []
    var homes: [Country] = []
    var known = Set<String>()
    while labels.count < labelCount {
      let country = Country.all[countries.next(using: &random)]
      let label = country.script.name(using: &random)
      guard known.insert(label).inserted else { continue }
      labels.append(label)
      homes.append(country)
    }
    var numbers: [Int64] = []
    var ids: [UInt32] = []
    var seen = Set<Int64>(minimumCapacity: count)
    for (label, share) in zipfCounts(labels: labelCount, total: count).enumerated() {
      let range = homes[label].nationalRange
      let spread = Int64(max(1_000, share * 20))
      let base = Int64.random(in: range.lowerBound..<(range.upperBound - spread), using: &random)
      for _ in 0..<share {
        let national =
          Bool.random(using: &random)
          ? base + Int64.random(in: 0..<spread, using: &random) : Int64.random(in: range, using: &random)
        let number = homes[label].number(national)
        guard seen.insert(number).inserted else { continue }
        numbers.append(number)
        ids.append(UInt32(label))
      }
    }
    let misses = self.numbers(notIn: seen) {
      let country = Country.all[countries.next(using: &random)]
      return country.number(Int64.random(in: country.nationalRange, using: &random))
    }
    return identification(
      name: name,
      summary: "\(numbers.count) identification numbers in \(Country.all.count) countries, \(labels.count) labels in "
        + "\(Script.allCases.count) scripts, Zipf",
      numbers: numbers, ids: ids, labels: labels, misses: misses, random: &random)
  }

  /// An identification dataset from entries in generation order: shuffled for packing, sorted for the rest.
  private static func identification(
    name: String, summary: String, numbers: [Int64], ids: [UInt32], labels: [String], misses: [Int64],
    random: inout SeededGenerator
  ) -> Dataset {
    var order = Array(numbers.indices)
    order.shuffle(using: &random)
    let sorted = numbers.indices.sorted { numbers[$0] < numbers[$1] }
    return Dataset(
      name: name, summary: summary, kind: .identification, numbers: sorted.map { numbers[$0] },
      labelIndices: sorted.map { ids[$0] }, labels: labels, packNumbers: order.map { numbers[$0] },
      packLabels: order.map { ids[$0] }, misses: misses, boundBits: nil)
  }

  /// `count` distinct numbers from `draw`, in the order drawn, and the set of them.
  private static func distinctNumbers(_ count: Int, _ draw: () -> Int64) -> ([Int64], Set<Int64>) {
    var numbers: [Int64] = []
    numbers.reserveCapacity(count)
    var seen = Set<Int64>(minimumCapacity: count)
    while numbers.count < count {
      let number = draw()
      if seen.insert(number).inserted { numbers.append(number) }
    }
    return (numbers, seen)
  }

  /// `missCount` numbers from `draw` that are not in `set`.
  private static func numbers(notIn set: Set<Int64>, _ draw: () -> Int64) -> [Int64] {
    var misses: [Int64] = []
    misses.reserveCapacity(missCount)
    while misses.count < missCount {
      let number = draw()
      if !set.contains(number) { misses.append(number) }
    }
    return misses
  }

  /// Entry counts per label rank: `max(1, round(C / r))` for r = 1 ... labels, with `C` found by
  /// bisection so that the counts add up to about `total`.
  static func zipfCounts(labels: Int, total: Int) -> [Int] {
    func counts(_ c: Double) -> [Int] { (1...labels).map { max(1, Int((c / Double($0)).rounded())) } }
    var low = 0.0
    var high = Double(total)
    for _ in 0..<60 {
      let middle = (low + high) / 2
      if counts(middle).reduce(0, +) < total { low = middle } else { high = middle }
    }
    return counts(high)
  }
}

/// The entropy bound.
enum Bound {
  /// `log2 C(u, n)`: the bits needed to tell one set of `n` numbers among `u` possible ones.
  static func log2Binomial(_ u: Double, _ n: Double) -> Double {
    (lgamma(u + 1) - lgamma(n + 1) - lgamma(u - n + 1)) / log(2)
  }
}
