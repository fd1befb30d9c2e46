import CallDirectory
import Foundation

extension DatasetBench {
  /// The streaming section: `forEachBlocking` or `forEachIdentification` over the whole file,
  /// against inflating the gzip listing.
  func streaming(_ reader: CallDirectoryReader, gzip: String?, into table: inout Table, _ summary: inout Summary)
    throws
  {
    let repetitions = configuration.streamRepetitions
    let ours: Samples
    let name: String
    if dataset.kind == .blocking {
      name = "calldir forEachBlocking"
      ours = try measure(repetitions, sink: sink) {
        var total: Int64 = 0
        var count = 0
        try reader.forEachBlocking { number in
          total &+= number
          count += 1
        }
        return count ^ Int(truncatingIfNeeded: total)
      }
    } else {
      name = "calldir forEachIdentification"
      ours = try measure(repetitions, sink: sink) { try Self.streamLabels(reader) }
    }
    let growth = try dirtyGrowth(reader)
    table.section("streaming, whole file", ["M entries/s", "median ms", "min ms", "Private_Dirty growth"])
    let rate = Double(dataset.count) / ours.median
    table.row([
      name, Format.millions(rate), ms(ours.median), ms(ours.minimum), growth.map { "\(Format.grouped($0)) KiB" } ?? "no /proc",
    ])
    summary.streamRate = rate
    summary.streamDirtyKiB = growth
    if dataset.kind == .identification, let path = reader.path {
      // A new reader each time, as a Call Directory extension has: its first stream decodes every
      // label block into the reader's label cache (the streams above read that cache).
      let first = try measure(repetitions, sink: sink) { try Self.streamLabels(try CallDirectoryReader(path: path)) }
      let firstRate = Double(dataset.count) / first.median
      table.row([
        "calldir forEachIdentification, first stream of a new reader", Format.millions(firstRate), ms(first.median),
        ms(first.minimum), "-",
      ])
      table.note(
        "a new reader's first stream decodes each label block once, into the reader's label cache (memory the reader keeps,"
          + " up to its budget; not what this process's dirty pages show, since freed memory is reused)")
      summary.streamFirstRate = firstRate
    }
    if dataset.kind == .identification {
      // The same entries as number and label id, for consumers that keep labels by id.
      let byId = try measure(repetitions, sink: sink) {
        var total: Int64 = 0
        var ids = 0
        try reader.forEachIdentificationLabelId { number, id in
          total &+= number
          ids &+= Int(id)
        }
        return ids ^ Int(truncatingIfNeeded: total)
      }
      let idRate = Double(dataset.count) / byId.median
      table.row([
        "calldir forEachIdentificationLabelId (no String)", Format.millions(idRate), ms(byId.median), ms(byId.minimum), "-",
      ])
      summary.streamLabelIdRate = idRate
    }
    if let gzip, let bytes = try? Files.read(gzip) {
      let peer = try measure(repetitions, sink: sink) {
        guard let lines = Gunzip.lineCount(bytes) else { throw BenchError.library("zlib could not inflate \(gzip)") }
        return lines
      }
      table.row([
        "listing CSV | gzip -9: zlib inflate + count lines", Format.millions(Double(dataset.count) / peer.median),
        ms(peer.median), ms(peer.minimum), "-",
      ])
      table.note("the gzip peer does not parse the CSV: it is a lower bound for reading the listing")
    }
    table.note(runs(ours, repetitions) + "; every entry's number (and label) is used; every block's CRC-32 checked")
    table.note(
      "Private_Dirty growth: largest rise of /proc/self/smaps_rollup Private_Dirty over its value before a separate,"
        + " untimed pass, sampled every 65,536 entries (the file's mapped pages are clean and not counted)")
  }

  /// Streams every identification entry with its label, using each number and label.
  private static func streamLabels(_ reader: CallDirectoryReader) throws -> Int {
    var total: Int64 = 0
    var labelBytes = 0
    try reader.forEachIdentification { number, label in
      total &+= number
      labelBytes &+= label.utf8.count
    }
    return labelBytes ^ Int(truncatingIfNeeded: total)
  }

  /// The largest growth of `Private_Dirty`, in KiB, during one untimed stream of the whole file.
  private func dirtyGrowth(_ reader: CallDirectoryReader) throws -> Int? {
    let probe = ProcessMemory()
    guard let baseline = probe.kibibytes(.privateDirty) else { return nil }
    var peak = 0
    var count = 0
    var total: Int64 = 0
    func sample() {
      count += 1
      if count & 0xFFFF == 0, let now = probe.kibibytes(.privateDirty) { peak = max(peak, now - baseline) }
    }
    if dataset.kind == .blocking {
      try reader.forEachBlocking { number in
        total &+= number
        sample()
      }
    } else {
      try reader.forEachIdentification { number, label in
        total &+= number ^ Int64(label.utf8.count)
        sample()
      }
    }
    if let now = probe.kibibytes(.privateDirty) { peak = max(peak, now - baseline) }
    sink.consume(Int(truncatingIfNeeded: total))
    return peak
  }
}
