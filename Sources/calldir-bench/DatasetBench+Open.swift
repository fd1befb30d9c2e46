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
