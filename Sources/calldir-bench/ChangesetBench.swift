import CallDirectory
import Foundation

/// Changesets: the size of the changeset between two versions that differ in 0.1%, 1% and 10% of
/// their entries, against the size of the new file, and the time of diff and patch (files on
/// disk, written atomically).
///
/// A change of `p` of `n` entries removes `p n / 2` entries and adds as many new ones; for the
/// caller-ID list half of the removed numbers come back with another label (a label change).
enum ChangesetBench {
  static func run(configuration: Configuration, scratch: String, sink: Sink) throws -> Table {
    let scale = configuration.scale
    let seed = configuration.seed
    var table = Table(title: "changesets: diff OLD NEW, patch OLD CHANGES")
    table.section("list, change", ["entries changed", "changeset bytes", "new file bytes", "share", "diff ms", "patch ms"])

    let nanp = Datasets.nanp(count: 1_000_000 / scale, name: "changes-nanp", seed: seed)
    let spare = Datasets.nanp(count: 200_000 / scale, name: "changes-nanp-spare", seed: seed &+ 1).numbers
    let callers = Datasets.callerID(count: 300_000 / scale, labelCount: 45_000 / scale, name: "changes-callerid", seed: seed)
    let oldNANP = scratch + "/changes-nanp-old.calldir"
    try blocking(nanp.numbers).write(to: oldNANP)
    let oldCallers = scratch + "/changes-callerid-old.calldir"
    let callerEntries = zip(callers.numbers, callers.labelIndices).map { ($0, callers.labels[Int($1)]) }
    try identification(callerEntries).write(to: oldCallers)

    for share in [0.001, 0.01, 0.1] {
      var random = SeededGenerator.derived(from: seed, "changes-\(share)")
      let changed = Int(Double(nanp.count) * share)
      let existing = Set(nanp.numbers)
      var removed = Set(nanp.numbers.shuffled(using: &random).prefix(changed / 2))
      let added = spare.filter { !existing.contains($0) }.prefix(changed - changed / 2)
      removed.subtract(added)
      let newNumbers = nanp.numbers.filter { !removed.contains($0) } + added
      let newPath = scratch + "/changes-nanp-new.calldir"
      try blocking(newNumbers).write(to: newPath)
      table.row(
        try row(
          "nanp-\(Format.shortCount(nanp.count)), \(Format.fixed(share * 100, 1))%", changed, oldNANP, newPath, scratch, sink))
    }
    for share in [0.001, 0.01, 0.1] {
      var random = SeededGenerator.derived(from: seed, "changes-callerid-\(share)")
      let changed = Int(Double(callerEntries.count) * share)
      var entries = callerEntries
      // A quarter of the changes drop entries, a quarter relabel them, a half add numbers.
      var victims = Array(Array(entries.indices).shuffled(using: &random).prefix(changed / 2))
      let relabel = victims.prefix(changed / 4)
      for index in relabel { entries[index].1 = callers.labels.randomElement(using: &random) ?? "" }
      victims.removeFirst(relabel.count)
      for index in victims.sorted(by: >) { entries.remove(at: index) }
      let taken = Set(entries.map(\.0))
      var additions = 0
      while additions < changed - changed / 2 {
        let number = 44_200_000_0000 + Int64.random(in: 0..<1_000_000_000, using: &random)
        guard !taken.contains(number) else { continue }
        entries.append((number, callers.labels.randomElement(using: &random) ?? ""))
        additions += 1
      }
      let newPath = scratch + "/changes-callerid-new.calldir"
      try identification(entries).write(to: newPath)
      table.row(
        try row(
          "callerid-\(Format.shortCount(callers.count)), \(Format.fixed(share * 100, 1))%", changed, oldCallers, newPath, scratch,
          sink))
    }
    table.note("share: changeset bytes / new file bytes; diff and patch: one run each, files memory-mapped from disk")
    table.note("patch re-encodes the result in memory (DirectoryBuilder) and checks its SHA-256 before the rename")
    return table
  }

  private static func row(
    _ name: String, _ changed: Int, _ old: String, _ new: String, _ scratch: String, _ sink: Sink
  ) throws -> [String] {
    let changes = scratch + "/changes.cdchanges"
    let patched = scratch + "/changes-patched.calldir"
    let oldReader = try CallDirectoryReader(path: old)
    let newReader = try CallDirectoryReader(path: new)
    let diffStart = monotonicNanoseconds()
    try Changeset.diff(old: oldReader, new: newReader, to: changes)
    let diffTime = Double(monotonicNanoseconds() &- diffStart) / 1e6
    let reader = try ChangesetReader(path: changes)
    let patchStart = monotonicNanoseconds()
    try Changeset.patch(old: oldReader, changes: reader, to: patched)
    let patchTime = Double(monotonicNanoseconds() &- patchStart) / 1e6
    guard try CallDirectoryReader(path: patched).contentHash == newReader.contentHash else {
      throw ChangesetBenchError(message: "\(name): the patched file differs from NEW")
    }
    sink.consume(reader.size)
    return [
      name, Format.grouped(changed), Format.grouped(reader.size), Format.grouped(newReader.fileSize),
      Format.fixed(Double(reader.size) * 100 / Double(newReader.fileSize), 2) + "%", Format.fixed(diffTime, 1),
      Format.fixed(patchTime, 1),
    ]
  }

  private static func blocking(_ numbers: [Int64]) throws -> DirectoryBuilder {
    var builder = DirectoryBuilder()
    for number in numbers { try builder.block(number) }
    return builder
  }

  private static func identification(_ entries: [(Int64, String)]) throws -> DirectoryBuilder {
    var builder = DirectoryBuilder()
    for (number, label) in entries { try builder.identify(number, label: label) }
    return builder
  }
}

struct ChangesetBenchError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}
