import CallDirectory
import Foundation
import Testing

@testable import CallDirectoryChangeset

/// Changesets made by hand, well formed but wrong for their base: patch refuses each, naming why.
@Suite struct ChangesetCraftedTests {
  /// A changeset with `base` and `result` hashes and the given blocking removals and additions.
  static func crafted(
    base: [UInt8], baseLength: Int, result: [UInt8], resultLength: Int, removals: [ClosedRange<Int64>],
    additions: [ClosedRange<Int64>]
  ) -> [UInt8] {
    var bytes = ChangesetHeader(
      entriesPerBlock: 512, baseLength: UInt64(baseLength), resultLength: UInt64(resultLength), base: base, result: result
    ).encoded
    var footer = ChangesetFooter()
    func sink(_ block: [UInt8]) { bytes.append(contentsOf: block) }
    for (list, runs) in [
      (ChangeList.blockingRemovals, removals), (.identificationRemovals, []), (.blockingAdditions, additions),
      (.identificationAdditions, []),
    ] {
      var writer = RunBlockWriter(list: list)
      for run in runs { writer.append(run, label: nil, sink: sink) }
      writer.finish(sink: sink)
      footer.lists[Int(list.rawValue)] = (writer.runs, writer.blocks)
    }
    return bytes + footer.encoded
  }

  static func old() throws -> (CallDirectoryReader, [UInt8]) {
    var builder = DirectoryBuilder()
    try builder.block(12_025_550_100)
    try builder.block(12_025_550_200...12_025_550_299)
    let bytes = try builder.encoded()
    return (try CallDirectoryReader(bytes: bytes), bytes)
  }

  @Test(arguments: [
    12_025_550_101...12_025_550_101,  // not in OLD
    12_025_550_200...12_025_550_250,  // part of a stored range
    12_025_550_100...12_025_550_299,  // spans two runs
  ])
  func removalNotInBaseIsRefused(_ removal: ClosedRange<Int64>) throws {
    let (old, bytes) = try Self.old()
    let changes = try ChangesetReader(
      bytes: Self.crafted(
        base: old.contentHash, baseLength: bytes.count, result: old.contentHash, resultLength: bytes.count, removals: [removal],
        additions: []))
    #expect {
      _ = try Changeset.patched(old: old, changes: changes)
    } throws: { error in
      guard let error = error as? ChangesetError, case .removalNotInBase(let run, _) = error.kind else { return false }
      return run == removal
    }
  }

  @Test func wrongResultIsRefusedAndNothingWritten() throws {
    let (old, bytes) = try Self.old()
    let scratch = try ScratchDirectory()
    let changes = try ChangesetReader(
      bytes: Self.crafted(
        base: old.contentHash, baseLength: bytes.count, result: Array(repeating: 7, count: 32), resultLength: bytes.count,
        removals: [12_025_550_100...12_025_550_100], additions: [12_025_550_400...12_025_550_400]))
    #expect {
      try Changeset.patch(old: old, changes: changes, to: scratch.path("new.calldir"))
    } throws: { error in
      guard let error = error as? ChangesetError, case .resultMismatch = error.kind else { return false }
      return true
    }
    #expect(try scratch.names().isEmpty)
  }

  /// A version 1 NEW cannot be rebuilt by patch (its canonical blocks differ): diff refuses it up
  /// front, and its repacked version 2 twin diffs and patches back byte for byte.
  @Test func versionOneResultIsRefusedUntilRepacked() throws {
    let (old, _) = try Self.old()
    let versionOne = try [UInt8](Data(contentsOf: SpecVectorTests.versionOneVectors.appendingPathComponent("multiblock.calldir")))
    let new = try CallDirectoryReader(bytes: versionOne)
    #expect {
      try Changeset.diff(old: old, new: new)
    } throws: { error in
      guard let error = error as? ChangesetError, case .resultNotRebuildable(major: 1) = error.kind else { return false }
      return true
    }
    let listing = try [UInt8](Data(contentsOf: SpecVectorTests.versionOneVectors.appendingPathComponent("multiblock.csv")))
    let repacked = try SpecVectorTests.pack(listing: listing, entriesPerBlock: 4)
    let changes = try ChangesetReader(bytes: try Changeset.diff(old: old, new: try CallDirectoryReader(bytes: repacked)))
    let scratch = try ScratchDirectory()
    try Changeset.patch(old: old, changes: changes, to: scratch.path("new.calldir"))
    #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("new.calldir")))) == repacked)
  }

  @Test func missingFileIsASystemError() {
    #expect {
      _ = try ChangesetReader(path: "/nonexistent/changes.cdchanges")
    } throws: { error in
      guard let error = error as? ChangesetError, case .system = error.kind else { return false }
      return true
    }
  }

  @Test func laterMajorVersionIsRefusedAsSuch() throws {
    let (old, bytes) = try Self.old()
    var changes = Self.crafted(
      base: old.contentHash, baseLength: bytes.count, result: old.contentHash, resultLength: bytes.count, removals: [],
      additions: [])
    changes[8] = 4
    #expect {
      _ = try ChangesetReader(bytes: changes)
    } throws: { error in
      guard let error = error as? ChangesetError, case .format(let format) = error.kind,
        case .unsupportedVersion(4, 0) = format.kind
      else { return false }
      // The versions named are a changeset's (CHANGESET section 4), not a directory's.
      return error.description
        == "unsupported changeset version 4.0 (this reader reads changeset major versions 1 to 3) at byte 8"
    }
  }
}
