import CallDirectory

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// How many pages of a file a cold open and a cold lookup bring into memory (Linux).
///
/// For each probe: every mapping of the file has its page-table entries dropped
/// (`madvise(MADV_DONTNEED)`) and the file's pages are evicted from the page cache
/// (`fdatasync`, then `posix_fadvise(POSIX_FADV_DONTNEED)`), which `mincore` confirms (0 pages
/// resident). Then a reader is opened and one lookup runs; `mincore` counts the file's resident
/// pages after each step, through a mapping of the benchmark's own that reads nothing. The kernel's
/// read-ahead is as the library leaves it (the reader's mapping advises random access, streams
/// sequential), under the machine's default `read_ahead_kb`: a resident page is one the reader's
/// reads brought in, read-around included.
enum ColdPages {
  /// The page counts of one probe.
  struct Probe {
    /// Pages resident after eviction (0 when eviction worked).
    var afterEviction: Int
    /// Pages resident after a reader's open.
    var afterOpen: Int
    /// Pages resident after the open and one lookup.
    var afterLookup: Int
    /// The resident page numbers after the lookup.
    var pages: [Int]
  }

  /// The page size.
  static var pageSize: Int { Int(sysconf(Int32(_SC_PAGESIZE))) }

  /// The page size of iOS and Apple silicon Macs, where Call Directory extensions run: 16 KiB.
  static let applePageSize = 16_384

  /// How many pages of `size` bytes hold the resident pages `pages` (numbers of this machine's
  /// pages). With read-around off a resident page is one that was read, so this is what the same
  /// reads would bring in where a page is `size` bytes (a multiple of this machine's page).
  static func pages(_ pages: [Int], ofSize size: Int) -> Int {
    Set(pages.map { $0 * pageSize / size }).count
  }

  /// Runs one cold probe per number in `probes` with `lookup` on a copy of the file at
  /// `original`, or returns `nil` where the system calls are missing or refused.
  ///
  /// A copy, because a page that any mapping in the process still maps cannot be evicted, and
  /// the benchmark's own readers of the file are still open.
  /// - Throws: `BenchError.io` when the copy cannot be made.
  /// - Parameter inService: probe with one reader whose first-use checks already ran (a lookup
  ///   of the first probe before the loop, its pages then evicted too), as a long-running
  ///   service's reader is; otherwise each probe opens a reader and its lookup is its first.
  static func measure(
    path original: String, probes: [Int64], inService: Bool = false, lookup: (CallDirectoryReader, Int64) -> Int,
    sink: Sink
  ) throws(BenchError) -> [Probe]? {
    let path = original + ".cold"
    try Files.write(try Files.read(original), to: path)
    defer { Files.remove(path) }
    let descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var status = stat()
    guard unsafe fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
    let length = Int(status.st_size)
    guard let address = unsafe mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), unsafe address != MAP_FAILED
    else { return nil }
    defer { _ = unsafe munmap(address, length) }
    let pages = (length + pageSize - 1) / pageSize
    var vector = [UInt8](repeating: 0, count: pages)
    func resident() -> [Int] {
      let done = unsafe vector.withUnsafeMutableBufferPointer { unsafe mincore(address, length, $0.baseAddress) == 0 }
      return done ? vector.indices.filter { vector[$0] & 1 != 0 } : Array(0..<pages)
    }
    _ = fdatasync(descriptor)
    // A reader's own mapping, whose page-table entries are dropped with the probe's.
    func mapping(_ reader: CallDirectoryReader, _ advice: Int32) {
      let bytes = unsafe reader.layout.file.withUnsafeBytes { unsafe $0 }
      if let base = bytes.baseAddress { _ = unsafe madvise(UnsafeMutableRawPointer(mutating: base), bytes.count, advice) }
    }
    var serving: CallDirectoryReader?
    if inService, let first = probes.first {
      guard let reader = try? CallDirectoryReader(path: path) else { return nil }
      sink.consume(lookup(reader, first))
      serving = reader
    }
    var results: [Probe] = []
    for number in probes {
      if let serving { mapping(serving, MADV_DONTNEED) }
      _ = unsafe madvise(address, length, MADV_DONTNEED)
      _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
      let evicted = resident().count
      let reader: CallDirectoryReader
      if let serving {
        reader = serving
      } else {
        guard let opened = try? CallDirectoryReader(path: path) else { return nil }
        reader = opened
      }
      let opened = resident().count
      sink.consume(lookup(reader, number))
      let after = resident()
      results.append(
        Probe(afterEviction: evicted, afterOpen: opened, afterLookup: after.count, pages: after))
    }
    return results
  }

  /// Page numbers as runs: "0, 2-4, 97" (at most 12 runs, then the count of the rest).
  static func describe(_ pages: [Int]) -> String {
    var runs: [ClosedRange<Int>] = []
    for page in pages {
      if let last = runs.last, last.upperBound + 1 == page {
        runs[runs.count - 1] = last.lowerBound...page
      } else {
        runs.append(page...page)
      }
    }
    let shown = runs.prefix(12).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
    return shown.joined(separator: ", ") + (runs.count > 12 ? " and \(runs.count - 12) more runs" : "")
  }
}
