import CallDirectory
import Foundation

extension DatasetBench {
  /// The size section: our file against the entropy bound, the raw numbers and the listing.
  func sizes(
    file: Int, plain: Int?, listing: String, compressed: [ExternalCompressor.Result], sqlite: [SQLiteFileInfo],
    pack: Samples, into table: inout Table, _ summary: inout Summary
  ) {
    let count = Double(dataset.count)
    table.section("size", ["bytes", "B/entry", "bits/entry", "vs calldir", "make s"])
    func row(_ name: String, _ bytes: Double?, seconds: Double?) {
      guard let bytes else { return table.row([name, "n/a", "-", "-", "-", "-"]) }
      table.row([
        name, Format.grouped(Int(bytes.rounded())), Format.fixed(bytes / count, 3), Format.fixed(bytes * 8 / count, 2),
        Format.ratio(bytes / Double(file)), seconds.map { Format.fixed($0, 2) } ?? "-",
      ])
    }
    row("calldir file", Double(file), seconds: pack.median)
    if let plain { row("calldir file, deflate off", Double(plain), seconds: nil) }
    summary.bytesPerEntry = Double(file) / count
    if let bits = dataset.boundBits {
      row(dataset.boundName, bits / 8, seconds: nil)
      summary.overBound = Double(file) / (bits / 8)
    }
    row("raw sorted Int64 numbers (the mmapped file peer)", count * 8, seconds: nil)
    for file in sqlite { row("SQLite, \(file.layout.rawValue)", Double(file.bytes), seconds: file.seconds) }
    row("listing CSV", Files.size(listing).map(Double.init), seconds: nil)
    for result in compressed {
      row("listing CSV | \(result.name)", result.bytes.map(Double.init), seconds: result.seconds)
      if result.name.hasPrefix("gzip"), let bytes = result.bytes { summary.overGzip = Double(file) / Double(bytes) }
    }
    if dataset.kind == .identification { table.note("raw Int64 holds the numbers only, no labels") }
    if !summary.overBound.isNaN {
      table.note("calldir / bound = \(Format.ratio(summary.overBound)) (target on nanp-1M: <= 1.10x)")
    }
    if dataset.name.hasPrefix("callerid") && !summary.overGzip.isNaN {
      table.note("calldir / gzip -9 listing = \(Format.ratio(summary.overGzip)) (design target <= 1.00x)")
    }
    table.note("compressors: the gzip and xz programs on the listing file, both at once; make s = wall time")
  }
}
