import CallDirectory

extension DatasetBench {
  /// The cold-page section: the file's pages a cold open and one cold lookup read (`ColdPages`).
  func coldPages(path: String, into table: inout Table, _ summary: inout Summary) throws {
    var random = SeededGenerator.derived(from: configuration.seed, dataset.name + " cold")
    let count = configuration.coldProbes
    let hits = dataset.numbers.sample(count, using: &random)
    let misses = Array(dataset.misses.shuffled(using: &random).prefix(count))
    let blocking = dataset.kind == .blocking
    let search: (CallDirectoryReader, Int64) -> Int = { reader, number in
      do {
        return blocking ? (try reader.isBlocked(number) ? 1 : 0) : Int(try reader.labelId(for: number) ?? 0)
      } catch { return -2 }
    }
    let label: (CallDirectoryReader, Int64) -> Int = { reader, number in
      do { return try reader.label(for: number)?.utf8.count ?? -1 } catch { return -2 }
    }
    // The lookups of a reader in service (its first-use checks done), then the label fetch,
    // which reads the label's block besides; last, the first lookup of a new reader, which
    // checks what it reads of the index first (`Spec/FORMAT.md` sections 5.4 and 14).
    let name = blocking ? "isBlocked" : "labelId(for:)"
    var runs: [(String, [Int64], (CallDirectoryReader, Int64) -> Int, isLabel: Bool, inService: Bool)] = [
      (name + ", hits", hits, search, false, true), (name + ", misses", misses, search, false, true),
    ]
    if !blocking { runs.append(("label(for:), hits", hits, label, true, true)) }
    runs.append((name + ", hits, a new reader's first lookup", hits, search, false, false))
    table.section(
      "cold: file pages read (4 KiB)",
      ["probes", "after open", "open + lookup median", "max", "16 KiB pages median", "evicted first"])
    var worst = 0
    var example: [Int] = []
    for (name, probes, lookup, isLabel, inService) in runs {
      guard let results = try ColdPages.measure(path: path, probes: probes, inService: inService, lookup: lookup, sink: sink)
      else {
        table.row([name, "-", "-", "-", "-", "-", "no mincore/fadvise"])
        continue
      }
      var totals = Samples()
      var apple = Samples()
      for result in results {
        totals.append(Double(result.afterLookup))
        apple.append(Double(ColdPages.pages(result.pages, ofSize: ColdPages.applePageSize)))
      }
      let clean = results.allSatisfy { $0.afterEviction == 0 }
      let opened = results.map(\.afterOpen).max() ?? 0
      table.row([
        name, "\(results.count)", "\(opened)", Format.fixed(totals.median, 0), Format.fixed(totals.values.max() ?? 0, 0),
        Format.fixed(apple.median, 0), clean ? "yes" : "NO (\(results.map(\.afterEviction).max() ?? 0) pages stayed)",
      ])
      if !inService {
        summary.coldFirstLookupPages = Int(totals.median)
      } else if isLabel {
        summary.coldLabelPages = (Int(totals.median), Int(apple.median))
      } else {
        worst = max(worst, Int(totals.median))
      }
      if example.isEmpty { example = results.first?.pages ?? [] }
    }
    let layout = ColdPages.pageSize
    table.note(
      "per probe: page tables dropped, pages evicted (fdatasync + POSIX_FADV_DONTNEED, checked with mincore), the kernel's"
        + " default read-ahead, the reader's own advice; then a reader, one lookup; a reader in service is one reader whose"
        + " first lookup (its first-use checks) ran before the probes, its pages evicted with the file's;"
        + " mincore counts the file's resident pages;"
        + " 16 KiB pages (iOS, Apple silicon): the distinct 16 KiB pages the same resident pages lie in")
    table.note(
      "file: \(Format.grouped(((Files.size(path) ?? 0) + layout - 1) / layout)) pages; "
        + "pages resident after the first hit probe: \(ColdPages.describe(example))")
    summary.coldPages = worst
  }
}
