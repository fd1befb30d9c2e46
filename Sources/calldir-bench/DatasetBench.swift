import CallDirectory
import Foundation

/// Measures one dataset, ours and every peer side by side, and renders its table.
///
/// The order of the work: pack (which makes the file every later figure uses), sizes and the
/// external compressors, lookups, open, streaming. Nothing else runs while a figure is timed,
/// except the two compressors, which run at once on the two cores and are not timed closely.
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
    let (file, pack, sortOnly) = try measurePack()
    let base = scratch + "/" + dataset.name
    try Files.write(file, to: base + ".calldir")
    try MappedSortedFile.write(dataset.numbers, to: base + ".i64")
    try Files.write(Listing.csv(dataset), to: base + ".csv")
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(path: base + ".calldir") } catch {
      throw BenchError.library("the packed file of \(dataset.name) does not open: \(error)")
    }
    guard reader.blockingCount + reader.identificationCount == dataset.count else {
      throw BenchError.library("the packed file of \(dataset.name) does not hold \(dataset.count) entries")
    }

    let codecs = try deflatedBlocks(reader)
    let plain = codecs.entries.deflated + codecs.labels.deflated > 0 ? try plainVariant(base + ".plain.calldir") : nil

    progress("gzip -9 and xz -9 of the listing")
    let compressed = ExternalCompressor.compress(base + ".csv", with: ExternalCompressor.standard)
    sizes(
      file: file.count, plain: plain?.bytes, listing: base + ".csv", compressed: compressed, pack: pack, into: &table,
      &summary)

    progress("lookups")
    try lookups(reader, plain: plain?.reader, codecs: codecs, into: &table, &summary)
    progress("open")
    try opens(path: base + ".calldir", raw: base + ".i64", into: &table, &summary)
    progress("streaming")
    try streaming(reader, gzip: compressed.first { $0.name.hasPrefix("gzip") }?.output, into: &table, &summary)

    table.section("pack (shuffled in-memory entries)", ["M entries/s", "median ms", "min ms"])
    let rate = Double(dataset.count) / pack.median
    table.row(["calldir DirectoryBuilder add + encoded()", Format.millions(rate), ms(pack.median), ms(pack.minimum)])
    table.row([
      "[Int64].sorted() alone (a floor)", Format.millions(Double(dataset.count) / sortOnly.median), ms(sortOnly.median),
      ms(sortOnly.minimum),
    ])
    table.note(runs(pack, configuration.packRepetitions))
    summary.packRate = rate
    return (table, summary)
  }

  // MARK: Pack

  /// Times building the file from the shuffled entries; returns the file and the timings.
  private func measurePack() throws -> ([UInt8], Samples, Samples) {
    var file: [UInt8] = []
    let pack = try measure(configuration.packRepetitions, sink: sink) {
      var builder = DirectoryBuilder()
      if dataset.kind == .blocking {
        for number in dataset.packNumbers { try builder.block(number) }
      } else {
        for (number, label) in zip(dataset.packNumbers, dataset.packLabels) {
          try builder.identify(number, label: dataset.labels[Int(label)])
        }
      }
      file = try builder.encoded()
      return file.count
    }
    let sortOnly = measure(configuration.packRepetitions, sink: sink) {
      let sorted = dataset.packNumbers.sorted()
      return Int(truncatingIfNeeded: sorted[sorted.count / 2])
    }
    return (file, pack, sortOnly)
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
