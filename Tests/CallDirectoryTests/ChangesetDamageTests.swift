import CallDirectory
import Testing

@testable import CallDirectoryChangeset

/// Every single-byte change and every truncation of a small changeset is detected: opening or
/// applying it throws, never crashes, and never gives bytes.
@Suite struct ChangesetDamageTests {
  static func fixture() throws -> (old: CallDirectoryReader, changes: [UInt8]) {
    var old = SlotVersion()
    old.blocking[0] = .single(SlotVersion.base + 1, nil)
    old.blocking[1] = .range((SlotVersion.base + 1_001)...(SlotVersion.base + 1_100), nil)
    old.identification[0] = .single(SlotVersion.base + 7, "Old")
    var new = old
    new.blocking[0] = nil
    new.blocking[2] = .single(SlotVersion.base + 2_002, nil)
    new.identification[0] = .single(SlotVersion.base + 7, "New")
    new.identification[3] = .range((SlotVersion.base + 3_001)...(SlotVersion.base + 3_009), "Range")
    let reader = try CallDirectoryReader(bytes: try old.encoded())
    return (reader, try Changeset.diff(old: reader, new: try CallDirectoryReader(bytes: try new.encoded())))
  }

  /// Whether opening, listing or applying `bytes` fails.
  static func rejected(_ bytes: [UInt8], old: CallDirectoryReader) -> Bool {
    do {
      let changes = try ChangesetReader(bytes: bytes)
      _ = try ChangesetListing.read(changes)
      _ = try Changeset.patched(old: old, changes: changes)
      return false
    } catch {
      return true
    }
  }

  @Test func intactChangesetApplies() throws {
    let (old, bytes) = try Self.fixture()
    #expect(!Self.rejected(bytes, old: old))
  }

  @Test func everySingleByteChangeIsDetected() throws {
    let (old, bytes) = try Self.fixture()
    for offset in bytes.indices {
      for flip in [0x01, 0x80, 0xFF] as [UInt8] {
        var damaged = bytes
        damaged[offset] ^= flip
        #expect(Self.rejected(damaged, old: old), "byte \(offset) xor \(flip)")
      }
    }
  }

  /// A changeset whose identification additions fill a deflated block.
  static func deflatedFixture() throws -> (old: CallDirectoryReader, changes: [UInt8]) {
    var new = SlotVersion()
    for slot in 0..<120 {
      new.identification[slot] = .single(SlotVersion.base + Int64(slot) * 1_000 + 3, "Repeated Label \(slot % 3)")
    }
    new.blocking[0] = .range((SlotVersion.base + 10)...(SlotVersion.base + 20), nil)
    let reader = try CallDirectoryReader(bytes: try SlotVersion().encoded())
    return (reader, try Changeset.diff(old: reader, new: try CallDirectoryReader(bytes: try new.encoded())))
  }

  @Test func everySingleByteChangeOfADeflatedBlockIsDetected() throws {
    let (old, bytes) = try Self.deflatedFixture()
    let listing = try ChangesetListing.read(try ChangesetReader(bytes: bytes))
    #expect(listing.additions[.identification]?.count == 120)
    // The second block (identification additions) follows the blocking addition's block, whose
    // length (under 256) is the first byte of its prefix.
    let last = ChangesetLayout.headerSize + 4 + Int(bytes[ChangesetLayout.headerSize])
    #expect(bytes[last + 4] == BlockCodec.deflate.rawValue, "the fixture's label block is deflated")
    for offset in bytes.indices {
      var damaged = bytes
      damaged[offset] ^= 0x20
      #expect(Self.rejected(damaged, old: old), "byte \(offset)")
    }
    for length in 0..<bytes.count { #expect(Self.rejected(Array(bytes[..<length]), old: old), "cut at \(length)") }
  }

  @Test func everyTruncationIsDetected() throws {
    let (old, bytes) = try Self.fixture()
    for length in 0..<bytes.count {
      #expect(Self.rejected(Array(bytes[..<length]), old: old), "cut at \(length)")
    }
    #expect(Self.rejected(bytes + [0], old: old), "one byte appended")
  }

  @Test func damagedChangesetWritesNothing() throws {
    let scratch = try ScratchDirectory()
    let (old, bytes) = try Self.fixture()
    var damaged = bytes
    damaged[damaged.count / 2] ^= 0x10
    let target = scratch.path("new.calldir")
    if let changes = try? ChangesetReader(bytes: damaged) {
      #expect {
        try Changeset.patch(old: old, changes: changes, to: target)
      } throws: { error in
        // A byte in the middle is in a block: its checksum, or the run it breaks, is what fails.
        guard let error = error as? ChangesetError, case .format(let format) = error.kind else { return false }
        switch format.kind {
        case .blockChecksumMismatch, .malformedBlock: return true
        default: return false
        }
      }
    }
    #expect(try scratch.names().isEmpty)
  }

  @Test func hostileCountsAreRefusedWithoutAllocating() throws {
    // A footer claiming 2^32 - 1 blocks of one list over no block bytes.
    var footer = ChangesetFooter()
    footer.lists[0] = (runs: .max, blocks: .max)
    let header = ChangesetHeader(
      entriesPerBlock: 512, baseLength: 0, resultLength: 0, base: .init(repeating: 0, count: 32),
      result: .init(repeating: 0, count: 32))
    #expect {
      try ChangesetReader(bytes: header.encoded + footer.encoded)
    } throws: { error in
      // The first block's length prefix is missing: the footer's counts are not believed.
      guard let error = error as? ChangesetError, case .format(let format) = error.kind else { return false }
      return format.kind == .truncated(needed: 4, available: 0)
    }
  }
}
