import CallDirectory

/// Ranges against the same numbers expanded: the size of a directory holding published ranges,
/// and lookups in it.
///
/// Two seeded shapes: a country's published numbering blocks (ranges of 10,000 numbers, the size
/// regulators such as ARCEP and the NANPA assign) and a range-heavy block list (a dozen ranges of
/// a million consecutive numbers plus scattered singles).
enum RangesBench {
  struct Shape {
    let name: String
    let ranges: [ClosedRange<Int64>]
    let singles: [Int64]
  }

  static func shapes(seed: UInt64, scale: Int) -> [Shape] {
    var random = SeededGenerator.derived(from: seed, "ranges")
    // France: +33 then 9 national digits; blocks of 10,000 at random block boundaries.
    var blocks = Set<Int64>()
    while blocks.count < 1_000 / scale { blocks.insert(Int64.random(in: 10_000...99_999, using: &random)) }
    let published = blocks.sorted().map { block -> ClosedRange<Int64> in
      let first = 33_000_000_000 + block * 10_000
      return first...(first + 9_999)
    }
    var heavy: [ClosedRange<Int64>] = []
    for index in 0..<12 {
      let first = 33_800_000_000 + Int64(index) * 10_000_000
      heavy.append(first...(first + 1_000_000 / Int64(scale) - 1))
    }
    let singles = (0..<(100_000 / scale)).map { _ in 12_010_000_000 + Int64.random(in: 0..<2_400_000_000, using: &random) }
    return [
      Shape(name: "published blocks of 10k (France)", ranges: published, singles: []),
      Shape(name: "12 ranges of 1M + scattered singles", ranges: heavy, singles: Array(Set(singles)).sorted()),
    ]
  }

  /// The table: for each shape, the file with ranges, the file with every number as a single
  /// entry, and isBlocked latency in the ranged file.
  /// - Returns: the table, and the bytes a number of the range-heavy shape.
  static func run(seed: UInt64, scale: Int, sink: Sink) throws -> (Table, Double?) {
    var heavyBytes: Double?
    var table = Table(title: "ranges: intervals against the same numbers expanded")
    table.section(
      "shape", ["numbers covered", "ranges file", "B/number", "expanded file", "B/number", "expanded/ranges", "lookup ns"])
    for shape in shapes(seed: seed, scale: scale) {
      var ranged = DirectoryBuilder()
      var expanded = DirectoryBuilder()
      var covered = shape.singles.count
      for range in shape.ranges {
        try ranged.block(range)
        covered += range.count
        for number in range { try expanded.block(number) }
      }
      for number in shape.singles {
        try ranged.block(number)
        try expanded.block(number)
      }
      let rangedBytes = try ranged.encoded()
      let expandedBytes = try expanded.encoded()
      let reader = try CallDirectoryReader(bytes: rangedBytes)
      var random = SeededGenerator.derived(from: seed, shape.name)
      let probes: [Int64] = (0..<100_000).map { index in
        let range = shape.ranges[Int.random(in: 0..<shape.ranges.count, using: &random)]
        return index % 2 == 0
          ? Int64.random(in: range, using: &random) : range.upperBound + Int64.random(in: 1...500, using: &random)
      }
      var hits = 0
      let start = monotonicNanoseconds()
      for _ in 0..<5 { for probe in probes where try reader.isBlocked(probe) { hits += 1 } }
      let nanoseconds = Double(monotonicNanoseconds() &- start) / Double(5 * probes.count)
      sink.consume(hits)
      if shape.ranges.count == 12 { heavyBytes = Double(rangedBytes.count) / Double(covered) }
      table.row(
        [
          shape.name,
          Format.grouped(covered), Format.grouped(rangedBytes.count),
          Format.fixed(Double(rangedBytes.count) / Double(covered), 4), Format.grouped(expandedBytes.count),
          Format.fixed(Double(expandedBytes.count) / Double(covered), 4),
          Format.fixed(Double(expandedBytes.count) / Double(rangedBytes.count), 0) + "x", Format.fixed(nanoseconds, 1),
        ])
    }
    table.note("lookup: 100,000 probes, half inside a range and half just past one, 5 passes, mean")
    return (table, heavyBytes)
  }
}
