import CallDirectory
import Foundation

extension DatasetBench {
  /// The pack section: `DirectoryBuilder` from sorted, shuffled, and shuffled-with-duplicates
  /// entries in memory; end to end from the text listings; sorting alone; SQLite's insert; and
  /// the peak memory of an end-to-end pack in a child process.
  func packSection(
    shuffled: Samples, listings: [(ListingPack.Shape, String)], sqlite: [SQLiteFileInfo], into table: inout Table,
    _ summary: inout Summary
  ) throws {
    let repetitions = configuration.packRepetitions(entries: dataset.count)
    let sorted = try measure(repetitions, sink: sink) {
      try build(numbers: dataset.numbers, labels: dataset.labelIndices).encoded().count
    }
    let streamed = try measure(repetitions, sink: sink) {
      var writer = try AscendingDirectoryWriter()
      if dataset.kind == .blocking {
        for number in dataset.numbers { try writer.block(number) }
      } else {
        for (number, label) in zip(dataset.numbers, dataset.labelIndices) {
          try writer.identify(number, label: dataset.labels[Int(label)])
        }
      }
      var bytes = 0
      try writer.finish { (piece) throws(WriterError) in bytes &+= piece.count }
      return bytes
    }
    // Every tenth entry given twice (with its own label, so the duplicate merges), then shuffled.
    var random = SeededGenerator.derived(from: configuration.seed, dataset.name + " duplicates")
    var order = Array(dataset.packNumbers.indices) + Array(stride(from: 0, to: dataset.count, by: 10))
    order.shuffle(using: &random)
    let duplicated = order.map { dataset.packNumbers[$0] }
    let duplicatedLabels = dataset.packLabels.isEmpty ? [] : order.map { dataset.packLabels[$0] }
    let withDuplicates = try measure(repetitions, sink: sink) {
      try build(numbers: duplicated, labels: duplicatedLabels).encoded().count
    }
    let sortOnly = measure(repetitions, sink: sink) {
      let sorted = dataset.packNumbers.sorted()
      return Int(truncatingIfNeeded: sorted[sorted.count / 2])
    }

    table.section("pack", ["inputs", "M inputs/s", "median ms", "min ms"])
    func row(_ name: String, _ inputs: Int, _ samples: Samples) {
      table.row([
        name, Format.grouped(inputs), Format.millions(Double(inputs) / samples.median), ms(samples.median),
        ms(samples.minimum),
      ])
    }
    row("DirectoryBuilder add + encoded(), sorted distinct entries", dataset.count, sorted)
    row("AscendingDirectoryWriter add + finish, sorted distinct entries (spool in memory)", dataset.count, streamed)
    row("DirectoryBuilder add + encoded(), shuffled", dataset.count, shuffled)
    row("DirectoryBuilder add + encoded(), shuffled, 10% duplicates", duplicated.count, withDuplicates)
    summary.packSortedRate = Double(dataset.count) / min(sorted.median, streamed.median)
    summary.packRate = Double(dataset.count) / shuffled.median
    summary.packDuplicatesRate = Double(duplicated.count) / withDuplicates.median
    for (shape, path) in listings {
      let output = scratch + "/" + dataset.name + ".from-listing.calldir"
      var entries = 0
      let endToEnd = try measure(repetitions, sink: sink) {
        entries = try ListingPack.pack(path, shape: shape, to: output)
        return entries
      }
      row("end to end from the \(shape.rawValue) text: read, parse, sort, build, write (as calldir pack)", entries, endToEnd)
      if shape == .csv { summary.packListingRate = Double(entries) / endToEnd.median }
    }
    row("[Int64].sorted() of the shuffled numbers alone (a floor)", dataset.count, sortOnly)
    for file in sqlite {
      table.row([
        "SQLite \(file.layout.rawValue): INSERT sorted, one transaction, journal off", Format.grouped(dataset.count),
        Format.millions(Double(dataset.count) / file.seconds), ms(file.seconds), "-",
      ])
    }
    table.note(
      runs(sorted, repetitions) + "; in-memory rows: DirectoryBuilder from arrays held by the benchmark"
        + " (identification: label strings from the dataset's table)")
    table.note("end to end: one core, the listing read from a warm file, the directory written atomically (fsync, rename)")

    if let (shape, path) = listings.first(where: { $0.0 == .csv }) {
      let output = scratch + "/" + dataset.name + ".child.calldir"
      if let report = PackChild.run(path, shape: shape, output: output) {
        let growth = report.peakKiB - report.baselineKiB
        table.note(
          "peak memory of the end-to-end \(shape.rawValue) pack in a child process: VmHWM \(Format.grouped(report.peakKiB)) KiB,"
            + " \(Format.grouped(growth)) KiB over its \(Format.grouped(report.baselineKiB)) KiB start"
            + " (\(Format.fixed(Double(growth) * 1024 / Double(max(1, report.entries)), 1)) bytes an entry;"
            + " input file \(Format.grouped((Files.size(path) ?? 0) / 1024)) KiB)")
        summary.packPeakBytesPerEntry = Double(growth) * 1024 / Double(max(1, report.entries))
      } else {
        table.note("peak memory: the child process failed")
      }
    }
  }

  /// A builder holding `numbers` and, for identification, their labels from the dataset's table.
  func build(numbers: [Int64], labels: [UInt32]) throws -> DirectoryBuilder {
    var builder = DirectoryBuilder()
    if dataset.kind == .blocking {
      for number in numbers { try builder.block(number) }
    } else {
      for (number, label) in zip(numbers, labels) { try builder.identify(number, label: dataset.labels[Int(label)]) }
    }
    return builder
  }

  /// The verify section: `Verifier.verify(path:)` over the whole file (every checksum, every
  /// block decoded and checked), with the labels checked on a second thread (the default) and
  /// all on one.
  func verification(path: String, into table: inout Table, _ summary: inout Summary) throws {
    var valid = true
    var note = ""
    table.section("verify, whole file", ["M entries/s", "median ms", "min ms"])
    for concurrent in [true, false] {
      var options = VerificationOptions()
      options.concurrent = concurrent
      let samples = try measure(configuration.streamRepetitions, sink: sink) {
        let report = try Verifier.verify(path: path, options: options)
        valid = valid && report.isValid
        return report.blockingCount &+ report.identificationCount
      }
      let rate = Double(dataset.count) / samples.median
      let name =
        concurrent ? "calldir Verifier.verify(path:), labels on a second thread" : "calldir Verifier.verify(path:), one thread"
      table.row([name, Format.millions(rate), ms(samples.median), ms(samples.minimum)])
      if concurrent { summary.verifyRate = rate } else { summary.verifySerialRate = rate }
      note = runs(samples, configuration.streamRepetitions)
    }
    table.note(note + (valid ? "; the file verified clean" : "; WARNING: problems found"))
  }
}
