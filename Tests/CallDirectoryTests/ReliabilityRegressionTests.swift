import CallDirectory
import Testing

/// Bugs that the sanitizers or the fuzzers found, each replayed in the plain build where possible.
@Suite struct ReliabilityRegressionTests {
  /// `CallDirectoryReader.cursor(_:)` once returned a cursor that pointed into the reader's bytes
  /// without keeping the reader alive: `try CallDirectoryReader(...).cursor(.blocking)` read freed
  /// memory (AddressSanitizer: heap-use-after-free in `EntryIndex.blockRange`). With a mapped file
  /// the bytes are unmapped when the reader goes, so the old code crashed here in any build.
  @Test func aCursorKeepsItsReaderAlive() throws {
    let scratch = try ScratchDirectory()
    let path = scratch.path("cursor.calldir")
    let numbers = (0..<5_000).map { 12_025_550_000 + Int64($0) * 7 }
    var builder = DirectoryBuilder()
    for number in numbers { try builder.block(number) }
    try builder.write(to: path)
    var cursor = try CallDirectoryReader(path: path).cursor(.blocking)
    // Churn the heap and the mappings a little so that freed memory would be reused.
    for _ in 0..<8 { _ = try CallDirectoryReader(path: path).blockingCount }
    var seen: [Int64] = []
    while let entry = try cursor.next() { seen.append(entry.number) }
    #expect(seen == numbers)
  }
}
