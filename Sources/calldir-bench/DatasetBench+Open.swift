import CallDirectory
import Foundation

extension DatasetBench {
  /// The open section: `CallDirectoryReader(path:)` on a small and on this file, and the peers' start-up.
  func opens(path: String, raw: String, sqlite: SQLiteFileInfo?, into table: inout Table, _ summary: inout Summary)
    throws
  {
    let count = configuration.opens
    let small = try timeEach(count) { try CallDirectoryReader(path: smallFile.path) }
    let large = try timeEach(count) { try CallDirectoryReader(path: path) }
    let mapped = try timeEach(count) { () throws -> MappedSortedFile in
      guard let file = MappedSortedFile(path: raw) else { throw BenchError.io("cannot map \(raw)") }
      return file
    }
    let sqliteOpen = try sqlite.map { file in
      try timeEach(count) { () throws -> SQLitePeer in
        try SQLitePeer(path: file.path, identification: dataset.kind == .identification, setup: .best)
      }
    }
    let loads = max(5, count / 100)
    let loaded = try timeEach(loads) { try MappedSortedFile.load(raw) }

    table.section("open, us", ["entries", "file bytes", "median", "p99"])
    func row(_ name: String, _ entries: Int, _ file: String, _ samples: Samples) {
      table.row([
        name, Format.grouped(entries), Files.size(file).map(Format.grouped) ?? "-", Format.microseconds(samples.median),
        Format.microseconds(samples.percentile(99)),
      ])
    }
    row("calldir CallDirectoryReader(path:), small file", smallFile.entries, smallFile.path, small)
    row("calldir CallDirectoryReader(path:), this file", dataset.count, path, large)
    row("raw Int64 file: open + fstat + mmap", dataset.count, raw, mapped)
    row("raw Int64 file: read(2) into [Int64]", dataset.count, raw, loaded)
    if let sqlite, let sqliteOpen {
      row("SQLite best: open, pragmas, prepare, BEGIN + first query", dataset.count, sqlite.path, sqliteOpen)
    }
    table.note("\(count) opens each (\(loads) reads), timed one by one; the mapping is released outside the timing")
    summary.openNanoseconds = large.median
    summary.openSmallNanoseconds = small.median
    try firstLookups(path: path, into: &table)
  }

  /// What a reader's first-use checks cost: the first lookup after open checks the kind's index,
  /// top index and ranges whole and its block's CRC; the second, in another block, that block's
  /// CRC; after `Verifier.verify(_:)` passed the file, neither. Warm lookups are the lookup section's.
  private func firstLookups(path: String, into table: inout Table) throws {
    let count = max(20, configuration.opens / 10)
    var random = SeededGenerator.derived(from: configuration.seed, dataset.name + " first lookups")
    var first = Samples()
    var second = Samples()
    var verified = Samples()
    for _ in 0..<count {
      let numbers = dataset.numbers.sample(2, using: &random)
      let reader = try CallDirectoryReader(path: path)
      let start = monotonicNanoseconds()
      sink.consume(try lookup(reader, numbers[0]) ? 1 : 0)
      let middle = monotonicNanoseconds()
      sink.consume(try lookup(reader, numbers[1]) ? 1 : 0)
      let end = monotonicNanoseconds()
      first.append(Double(middle &- start))
      second.append(Double(end &- middle))
      let checked = try CallDirectoryReader(path: path)
      guard Verifier.verify(checked).isValid else { throw BenchError.library("\(path) does not verify") }
      let before = monotonicNanoseconds()
      sink.consume(try lookup(checked, numbers[0]) ? 1 : 0)
      verified.append(Double(monotonicNanoseconds() &- before))
    }
    table.section("first lookups after open, us (checks on first use)", ["median", "p99"])
    for (name, samples) in [
      ("first lookup: top, group checks (or index), ranges, group and block checked", first),
      ("second lookup, another block: its block (and group) checked", second),
      ("first lookup after Verifier.verify passed", verified),
    ] {
      table.row([name, Format.microseconds(samples.median), Format.microseconds(samples.percentile(99))])
    }
    table.note("\(count) readers each, pages warm; the lookup sections' warm figures include the checks' atomic loads")
  }

  /// One lookup of the dataset's kind: whether `number` is listed.
  private func lookup(_ reader: CallDirectoryReader, _ number: Int64) throws -> Bool {
    dataset.kind == .blocking ? try reader.isBlocked(number) : try reader.labelId(for: number) != nil
  }

  /// Times `make` `count` times after `count / 10` untimed calls; returns nanoseconds per call.
  /// The value made is consumed and released after the clock stops.
  private func timeEach<T>(_ count: Int, _ make: () throws -> T) throws -> Samples {
    var samples = Samples()
    for round in 0..<(count + count / 10) {
      let before = monotonicNanoseconds()
      let value = try make()
      let after = monotonicNanoseconds()
      sink.consume(withExtendedLifetime(value) { Int(after &- before) })
      if round >= count / 10 { samples.append(Double(after &- before)) }
    }
    return samples
  }
}
