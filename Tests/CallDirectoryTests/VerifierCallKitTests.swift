import CallDirectory
import Testing

@Suite struct VerifierCallKitTests {
  /// A valid file with `blocking` consecutive blocking numbers from 1 and two identification
  /// entries. The blocking sections are made directly: a full block of consecutive numbers has the
  /// same bytes wherever it starts (the index holds its first number), so one encoded block is
  /// repeated instead of running the builder over millions of entries.
  private func file(blocking: Int) throws -> [UInt8] {
    let perBlock = FormatConstants.maximumEntriesPerBlock
    let fullBlock = EntryBlock.encode(ArraySlice((1...Int64(perBlock)).map { $0 }), labelIds: [])
    var data: [UInt8] = []
    var index: [UInt8] = []
    index.appendUInt64LE(UInt64(blocking))
    index.appendUInt32LE(UInt32(perBlock))
    index.appendUInt32LE(0)
    var first = 0
    while first < blocking {
      let count = min(perBlock, blocking - first)
      index.appendUInt64LE(UInt64(first + 1))
      index.appendUInt64LE(UInt64(data.count) | UInt64(count - 1) << 48)  // version 2: the count in the top 16 bits
      data += count == perBlock ? fullBlock : EntryBlock.encode(ArraySlice((1...Int64(count)).map { $0 }), labelIds: [])
      first += count
    }
    var crafted = try CraftedFile(
      try Contents(identification: [(Limits.maximumNumber - 1, "Spam"), (Limits.maximumNumber, "Spam")]).encoded())
    crafted[.blockingData] = data
    crafted[.blockingIndex] = index
    return crafted.bytes
  }

  @Test func overTheLimitIsFlagged() throws {
    let bytes = try file(blocking: Limits.callKitMaximumEntriesPerLoad - 1)
    let report = Verifier.verify(bytes, options: .callKitChecks)
    #expect(report.blockingCount + report.identificationCount == 2_000_001)
    #expect(report.problems.count == 1)
    #expect(report.problems.first?.isCallKitLimit == true)
    #expect(report.problems.first?.error.kind == .maximumEntriesExceeded(count: 2_000_001, limit: 2_000_000))
    #expect(!report.isValid)
    // Without the CallKit checks the same file is well formed.
    #expect(Verifier.verify(bytes).problems == [])
  }

  /// Ranges count as every number they hold, all of them: the total is the file's, not where
  /// the sum passed the limit (2,010,000 was said of a file of 3,010,000).
  @Test func theTotalIsTheWholeFiles() throws {
    var builder = DirectoryBuilder()
    try builder.block(33_899_000_000...33_899_999_999)
    try builder.block(33_898_000_000...33_898_999_999)
    try builder.block(12_025_550_000...12_025_559_999)
    try builder.identify(33_897_000_000...33_897_999_999, label: "X")
    let report = Verifier.verify(try builder.encoded(), options: .callKitChecks)
    #expect(report.problems.first?.error.kind == .maximumEntriesExceeded(count: 3_010_000, limit: 2_000_000))
    // Ranges past Int.max together are said as such, not as a plausible count.
    #expect(
      "\(FormatError(unplaced: .maximumEntriesExceeded(count: Int.max, limit: 2_000_000)))"
        .hasPrefix("more than 9223372036854775806 entries"))
  }

  @Test func atTheLimitIsAccepted() throws {
    let bytes = try file(blocking: Limits.callKitMaximumEntriesPerLoad - 2)
    let report = Verifier.verify(bytes, options: .callKitChecks)
    #expect(report.blockingCount + report.identificationCount == 2_000_000)
    #expect(report.problems == [])
    // The shortcut above made a real directory: its numbers stream back in order.
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(try reader.isBlocked(1) && reader.isBlocked(1_999_998) && !reader.isBlocked(1_999_999))
  }

  @Test func formatProblemsAndTheLimitAreReportedTogether() throws {
    var bytes = try file(blocking: Limits.callKitMaximumEntriesPerLoad)
    let crafted = try CraftedFile(bytes)
    bytes[crafted.offset(of: .blockingData) + 9] ^= 1  // inside the first block's deflate stream
    let problems = Verifier.verify(bytes, options: .callKitChecks).problems
    #expect(problems.filter(\.isCallKitLimit).count == 1)
    #expect(problems.contains { !$0.isCallKitLimit && $0.error.section == "BDAT" })
  }
}
