import CallDirectory
import CallDirectoryCrypto
import Testing

@testable import CallDirectoryChangeset

@Suite struct ChangesetRoundTripTests {
  /// Diffs two versions, checks the listing against the model, patches, and compares bytes.
  func check(_ old: SlotVersion, _ new: SlotVersion, entriesPerBlock: Int = 512, seed: UInt64) throws {
    let oldBytes = try old.encoded(entriesPerBlock: entriesPerBlock)
    let newBytes = try new.encoded(entriesPerBlock: entriesPerBlock)
    let oldReader = try CallDirectoryReader(bytes: oldBytes)
    let newReader = try CallDirectoryReader(bytes: newBytes)
    let bytes = try Changeset.diff(old: oldReader, new: newReader)
    let changes = try ChangesetReader(bytes: bytes)
    #expect(changes.base == SHA256Digest.hash(oldBytes), "seed \(seed)")
    #expect(changes.result == SHA256Digest.hash(newBytes), "seed \(seed)")
    let listing = try ChangesetListing.read(changes)
    let blocking = SlotVersion.expected(from: old.blocking, to: new.blocking)
    let identification = SlotVersion.expected(from: old.identification, to: new.identification)
    #expect(listing.removals[.blocking] == blocking.removals, "seed \(seed)")
    #expect(listing.removals[.identification] == identification.removals, "seed \(seed)")
    #expect(listing.additions[.blocking] == blocking.additions.map { ChangesetListing.describe($0.numbers, nil) }, "seed \(seed)")
    #expect(
      listing.additions[.identification] == identification.additions.map { ChangesetListing.describe($0.numbers, $0.label) },
      "seed \(seed)")
    let counts = changes.counts
    #expect(
      counts.removals.blocking == blocking.removals.count && counts.additions.identification == identification.additions.count)
    #expect(try Changeset.patched(old: oldReader, changes: changes) == newBytes, "seed \(seed)")
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func randomVersions(seed: UInt64) throws {
    var rng = SeededGenerator(seed: seed)
    let slots = Int.random(in: 1...3_000, using: &rng)
    let old = SlotVersion.random(slots: slots, fill: 0.6, using: &rng)
    let new = old.mutated(slots: slots, share: [0.001, 0.01, 0.1, 0.5].randomElement(using: &rng) ?? 0.1, using: &rng)
    print("changeset round trip: seed \(seed), \(slots) slots")
    try check(old, new, entriesPerBlock: seed.isMultiple(of: 3) ? 4 : 512, seed: seed)
  }

  @Test func emptyToFullAndBack() throws {
    var rng = SeededGenerator(seed: 42)
    let full = SlotVersion.random(slots: 5_000, fill: 0.9, using: &rng)
    try check(SlotVersion(), full, seed: 42)
    try check(full, SlotVersion(), seed: 42)
    try check(SlotVersion(), SlotVersion(), seed: 42)
  }

  @Test func identicalVersionsGiveAnEmptyChangeset() throws {
    var rng = SeededGenerator(seed: 7)
    let version = SlotVersion.random(slots: 2_000, fill: 0.5, using: &rng)
    try check(version, version, seed: 7)
    let reader = try CallDirectoryReader(bytes: try version.encoded())
    let changes = try ChangesetReader(bytes: try Changeset.diff(old: reader, new: reader))
    #expect(changes.counts.removals == (0, 0) && changes.counts.additions == (0, 0))
    #expect(changes.size == ChangesetLayout.headerSize + ChangesetLayout.footerSize)
  }

  @Test func labelChangeIsRemovalPlusAddition() throws {
    var old = SlotVersion()
    old.identification[0] = .single(SlotVersion.base + 5, "Old")
    old.identification[1] = .range((SlotVersion.base + 1_010)...(SlotVersion.base + 1_020), "Range")
    var new = old
    new.identification[0] = .single(SlotVersion.base + 5, "New")
    new.identification[1] = .range((SlotVersion.base + 1_010)...(SlotVersion.base + 1_021), "Range")
    try check(old, new, seed: 0)
    let changes = try ChangesetReader(
      bytes: try Changeset.diff(old: CallDirectoryReader(bytes: old.encoded()), new: CallDirectoryReader(bytes: new.encoded())))
    #expect(changes.counts.removals.identification == 2 && changes.counts.additions.identification == 2)
  }

  @Test func labelsAreComparedAsBytes() throws {
    var old = SlotVersion()
    old.identification[0] = .single(SlotVersion.base + 5, "Caf\u{E9}")
    var new = SlotVersion()
    new.identification[0] = .single(SlotVersion.base + 5, "Cafe\u{301}")
    try check(old, new, seed: 0)
  }

  @Test func manyRunsSpanSeveralBlocks() throws {
    var old = SlotVersion()
    var new = SlotVersion()
    for slot in 0..<10_000 { new.blocking[slot] = .single(SlotVersion.base + Int64(slot) * 1_000 + 1, nil) }
    for slot in 0..<3_000 {
      new.identification[slot] = .single(SlotVersion.base + Int64(slot) * 1_000 + 2, String(repeating: "L", count: 100))
    }
    old.blocking[5] = .single(SlotVersion.base + 5_001, nil)
    try check(old, new, seed: 0)
  }

  /// Diff refuses a NEW whose optional sections the changeset's carried part cannot hold (more
  /// than 8, or one over 65,536 bytes) instead of writing a changeset no reader takes;
  /// at the limits it writes one that patches back to NEW.
  @Test func sectionsACarriedPartCannotHoldAreRefused() throws {
    var rng = SeededGenerator(seed: 11)
    let old = try CallDirectoryReader(
      bytes: try SlotVersion.random(slots: 200, fill: 0.5, using: &rng).encoded(entriesPerBlock: 512))
    func new(_ sections: [RawSection]) throws -> [UInt8] {
      var writer = try AscendingDirectoryWriter()
      try writer.block(5)
      var bytes: [UInt8] = []
      try writer.finish(appending: sections) { (piece) throws(WriterError) in bytes += piece }
      return bytes
    }
    let refused: [[RawSection]] = [
      [RawSection(type: 0x5A5A_5A5A, flags: 0, bytes: Array(repeating: 1, count: 65_537))],
      (0..<9).map { RawSection(type: 0x5A5A_5A41 + UInt32($0), flags: 0, bytes: [1]) },
    ]
    for sections in refused {
      let newBytes = try new(sections)
      do {
        _ = try Changeset.diff(old: old, new: try CallDirectoryReader(bytes: newBytes))
        Issue.record("diff accepted \(sections.count) sections")
      } catch {
        guard let error = error as? ChangesetError, case .sectionsNotCarried = error.kind else {
          Issue.record("\(error)")
          continue
        }
        #expect(error.description.contains("cannot go in a changeset"))
      }
    }
    let atTheLimits = (0..<8).map {
      RawSection(type: 0x5A5A_5A41 + UInt32($0), flags: 0, bytes: Array(repeating: UInt8($0), count: $0 == 0 ? 65_536 : 3))
    }
    let newBytes = try new(atTheLimits)
    let changes = try ChangesetReader(bytes: try Changeset.diff(old: old, new: try CallDirectoryReader(bytes: newBytes)))
    #expect(try Changeset.patched(old: old, changes: changes) == newBytes)
  }

  /// A reader refuses a carried derived section (`Spec/CHANGESET.md` section 4.1): patch derives
  /// its own, so a carried one would be written twice.
  @Test func aCarriedDerivedSectionIsRefused() throws {
    let top = SectionType.blockingTop.code
    let part = CarriedSections.encode([RawSection(type: top, flags: 0, bytes: [UInt8](repeating: 0, count: 16))])
    let refusal = FormatError(
      .invalidField(field: "carried section type (BTOP is derived, never carried)", value: UInt64(top)), at: 8,
      section: "carried sections")
    #expect(throws: refusal) {
      try unsafe part.withUnsafeBytes { raw in try unsafe CarriedSections.parse(ByteView(raw), at: 0, end: raw.count) }
    }
  }

  @Test func wrongBaseIsRefused() throws {
    var rng = SeededGenerator(seed: 9)
    let a = SlotVersion.random(slots: 100, fill: 0.5, using: &rng)
    let b = a.mutated(slots: 100, share: 0.2, using: &rng)
    let c = b.mutated(slots: 100, share: 0.2, using: &rng)
    let readerA = try CallDirectoryReader(bytes: try a.encoded())
    let readerB = try CallDirectoryReader(bytes: try b.encoded())
    let readerC = try CallDirectoryReader(bytes: try c.encoded())
    let changes = try ChangesetReader(bytes: try Changeset.diff(old: readerB, new: readerC))
    #expect {
      _ = try Changeset.patched(old: readerA, changes: changes)
    } throws: { error in
      guard let error = error as? ChangesetError, case .baseMismatch(let expected, let actual) = error.kind else { return false }
      return expected == readerB.contentHash && actual == readerA.contentHash
        && error.description.contains(SHA256Digest.hex(expected)) && error.description.contains(SHA256Digest.hex(actual))
    }
  }

  @Test func sha256MatchesTheFIPSVector() {
    #expect(
      SHA256Digest.hex(SHA256Digest.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    #expect(SHA256Digest.hex(SHA256Digest.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
  }
}
