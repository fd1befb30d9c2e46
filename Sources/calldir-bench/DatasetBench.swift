import CallDirectory
import Foundation

/// Measures one dataset, ours and every peer side by side, and renders its table.
///
/// The order of the work: pack (which makes the file every later figure uses), the SQLite files,
/// sizes and the external compressors, lookups, cold pages, open, streaming, verify, the pack
/// variants. Nothing else runs while a figure is timed, except the two compressors, which run at
/// once on the two cores and are not timed closely.
struct DatasetBench {
  /// The entries and queries.
  let dataset: Dataset
  /// Sizes and repetitions.
  let configuration: Configuration
  /// Where files are written.
  let scratch: String
  /// A small blocking file, for showing that open time does not grow with the file.
  let smallFile: (path: String, entries: Int)
  /// Receives every result.
  let sink: Sink
  /// The median cost of one clock read, in nanoseconds, for the tables' notes.
  let clockNanoseconds: Double

  /// Prints a progress line to standard error, leaving standard output to the tables.
  func progress(_ text: String) {
    FileHandle.standardError.write(Data("  [\(dataset.name)] \(text)\n".utf8))
  }

  /// Runs every measurement of the dataset.
  /// - Returns: the dataset's table and its headline figures.
  /// - Throws: `BenchError` when a file cannot be written or the library refuses the entries.
  func run() throws -> (Table, Summary) {
    var summary = Summary()
    summary.dataset = dataset.name
    summary.entries = dataset.count
    var table = Table(title: "\(dataset.name): \(dataset.summary)")

    progress("pack")
    let (file, pack) = try measurePack()
    let base = scratch + "/" + dataset.name
    try Files.write(file, to: base + ".calldir")
    try MappedSortedFile.write(dataset.numbers, to: base + ".i64")
    try Files.write(Listing.csv(dataset), to: base + ".csv")
    var listings: [(ListingPack.Shape, String)] = [(.csv, base + ".csv")]
    if dataset.kind == .blocking {
      try Files.write(ListingPack.blockList(dataset.numbers), to: base + ".txt")
      listings.append((.blockList, base + ".txt"))
      try Files.write(ListingPack.blockList(dataset.packNumbers), to: base + ".shuffled.txt")
      listings.append((.shuffledBlockList, base + ".shuffled.txt"))
    }
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(path: base + ".calldir") } catch {
      throw BenchError.library("the packed file of \(dataset.name) does not open: \(error)")
    }
    guard reader.blockingCount + reader.identificationCount == dataset.count else {
      throw BenchError.library("the packed file of \(dataset.name) does not hold \(dataset.count) entries")
    }

    let codecs = try deflatedBlocks(reader)
    let plain = codecs.entries.deflated + codecs.labels.deflated > 0 ? try plainVariant(base + ".plain.calldir") : nil

    progress("SQLite files")
    let sqlite = try sqliteFiles(base)
    progress("gzip -9 and xz -9 of the listing")
    let compressors = dataset.count > configuration.xzLimit ? [ExternalCompressor.standard[0]] : ExternalCompressor.standard
    let compressed = ExternalCompressor.compress(base + ".csv", with: compressors)
    sizes(
      file: file.count, plain: plain?.bytes, listing: base + ".csv", compressed: compressed, sqlite: sqlite, pack: pack,
      into: &table, &summary)
    if compressors.count < ExternalCompressor.standard.count {
      table.note("xz -9 skipped above \(Format.grouped(configuration.xzLimit)) entries (minutes on this machine)")
    }

    progress("lookups")
    try lookups(reader, plain: plain?.reader, codecs: codecs, sqlite: sqlite, into: &table, &summary)
    progress("cold pages")
    try coldPages(path: base + ".calldir", into: &table, &summary)
    progress("open")
    try opens(path: base + ".calldir", raw: base + ".i64", sqlite: sqlite.first, into: &table, &summary)
    progress("streaming")
    try streaming(reader, gzip: compressed.first { $0.name.hasPrefix("gzip") }?.output, into: &table, &summary)
    progress("verify")
    try verification(path: base + ".calldir", into: &table, &summary)
    progress("pack variants")
    try packSection(shuffled: pack, listings: listings, sqlite: sqlite, into: &table, &summary)
    return (table, summary)
  }

  // MARK: Pack

  /// Times building the file from the shuffled entries; returns the file and the timings.
  private func measurePack() throws -> ([UInt8], Samples) {
    var file: [UInt8] = []
    let pack = try measure(configuration.packRepetitions(entries: dataset.count), sink: sink) {
      file = try build(numbers: dataset.packNumbers, labels: dataset.packLabels).encoded()
      return file.count
    }
    return (file, pack)
  }

  /// The SQLite files of the dataset, one per table layout, each timed as it is made.
  private func sqliteFiles(_ base: String) throws -> [SQLiteFileInfo] {
    try [SQLiteFile.Layout.rowid, .withoutRowid].map { layout in
      let path = base + (layout == .rowid ? ".sqlite" : ".norowid.sqlite")
      let start = monotonicNanoseconds()
      try SQLiteFile.create(
        path: path, numbers: dataset.numbers, labelIndices: dataset.labelIndices, labels: dataset.labels, layout: layout)
      let seconds = Double(monotonicNanoseconds() &- start) / 1e9
      return SQLiteFileInfo(layout: layout, path: path, bytes: Files.size(path) ?? 0, seconds: seconds)
    }
  }

  /// The same entries packed with deflate off (`allowDeflate = false`), written to `path` and
  /// opened: what the deflated blocks cost in size and save in lookup time.
  private func plainVariant(_ path: String) throws -> (reader: CallDirectoryReader, bytes: Int) {
    var options = DirectoryBuilder.Options()
    options.allowDeflate = false
    var builder = DirectoryBuilder(options: options)
    for (index, number) in dataset.numbers.enumerated() {
      if dataset.kind == .blocking {
        try builder.block(number)
      } else {
        try builder.identify(number, label: dataset.labels[Int(dataset.labelIndices[index])])
      }
    }
    let bytes = try builder.encoded()
    try Files.write(bytes, to: path)
    return (try CallDirectoryReader(path: path), bytes.count)
  }

  /// Seconds as milliseconds with one decimal.
  func ms(_ seconds: Double) -> String { Format.fixed(seconds * 1_000, 1) }

  /// "3 timed runs after 1 warm-up", or what the time budget left of that.
  func runs(_ samples: Samples, _ repetitions: Repetitions) -> String {
    let count = samples.values.count
    if count == 1 && repetitions.samples > 1 && samples.values[0] > repetitions.budget {
      return "1 run only: the warm-up run alone exceeded the \(Format.fixed(repetitions.budget, 0)) s budget"
    }
    return "\(count) timed run\(count == 1 ? "" : "s") after \(repetitions.warmup) warm-up"
  }
}
