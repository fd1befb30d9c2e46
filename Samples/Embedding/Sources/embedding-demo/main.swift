// Packs a directory from data in this file, then reads it the ways an embedding program does:
// point lookups, streaming, and resolving callers across a stack. Every answer is checked; a
// wrong one prints what differed and exits 1, so CI fails when the library's behaviour moves.
import CallDirectory
import CallDirectoryCallKit  // the extension's product resolves and builds here too

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts wrong answers, so that every mismatch is reported, not only the first.
final class Checker {
  var mismatches = 0

  /// Prints `label: actual`, and a mismatch line when `actual` is not `expected`.
  func callAsFunction<T: Equatable>(_ label: String, _ actual: T, _ expected: T) {
    print("\(label): \(actual)")
    if actual != expected {
      print("MISMATCH \(label): expected \(expected)")
      mismatches += 1
    }
  }
}
let check = Checker()

// The provider's list: spam singles, a premium-rate range, and caller-ID labels.
let spam: [Int64] = [12025550100, 12025550101, 442079460958]
let premiumRange: ClosedRange<Int64> = 33_899_000_000...33_899_000_999
let callerID: [(Int64, String)] = [(12025550123, "Acme Support"), (81355550100, "Tokyo Office")]
// The user's contacts: an allow list that overrides the spam list.
let contacts: [(Int64, String)] = [(12025550101, "Mum")]

do {
  var builder = DirectoryBuilder()
  for number in spam { try builder.block(number) }
  try builder.block(premiumRange)
  for (number, label) in callerID { try builder.identify(number, label: label) }
  let directory = try CallDirectoryReader(bytes: try builder.encoded())

  var contactsBuilder = DirectoryBuilder()
  for (number, label) in contacts { try contactsBuilder.identify(number, label: label) }
  let contactsDirectory = try CallDirectoryReader(bytes: try contactsBuilder.encoded())

  // Point lookups: O(log n), ranges included.
  check("blocked +12025550100", try directory.isBlocked(12025550100), true)
  check("blocked +33899000500 (range)", try directory.isBlocked(33_899_000_500), true)
  check("blocked +33899001000 (past the range)", try directory.isBlocked(33_899_001_000), false)
  check("label +12025550123", try directory.label(for: 12025550123), "Acme Support")
  check("label +12025550199", try directory.label(for: 12025550199), nil)

  // Streaming: every run in ascending order, one block in memory.
  var blockingRuns: [ClosedRange<Int64>] = []
  try directory.forEachBlockingRun { blockingRuns.append($0) }
  check(
    "blocking runs", blockingRuns,
    [12025550100...12025550100, 12025550101...12025550101, premiumRange, 442079460958...442079460958])
  var labels: [String] = []
  try directory.forEachIdentificationRun { _, label in labels.append(label) }
  check("identification labels", labels, ["Acme Support", "Tokyo Office"])

  // Resolving callers as people write them, across the contacts and the provider's list.
  let resolver = try Resolver(
    sources: [
      .init(name: "contacts", role: .allowList, provider: contactsDirectory),
      .init(name: "provider", provider: directory),
    ],
    defaultCountryCode: 1)
  let spamCall = try resolver.resolve(caller: "(202) 555-0100")
  check("resolve (202) 555-0100", spamCall.action, .block)
  let mum = try resolver.resolve(caller: "+1 202 555 0101")
  check("resolve +1 202 555 0101", mum.action, .allow)
  check("resolve +1 202 555 0101 label", mum.label, "Mum")
  let support = try resolver.resolve(caller: "tel:+1-202-555-0123")
  check("resolve tel:+1-202-555-0123", support.action, .identify)
  check("resolve tel:+1-202-555-0123 label", support.label, "Acme Support")
  check("resolve 911", try resolver.resolve(caller: "911").action, .allow)

  // Packing a listing as `calldir pack` does, each label lent from the text: the same file as
  // the builder's above.
  let listing = Array(
    """
    kind,number,label
    block,+12025550100
    block,+12025550101
    block,+442079460958
    block,+33899000000..+33899000999
    identify,+12025550123,Acme Support
    identify,+81355550100,Tokyo Office

    """.utf8)
  var packer = DirectoryBuilder()
  try ListingParser.forEachEntry(bytes: listing, file: "listing.csv", parser: .formatDomain) {
    (entry, label) throws(ListingError) in
    do throws(WriterError) {
      switch entry.kind {
      case .blocking: try packer.block(entry.numbers)
      case .identification: try packer.identify(entry.numbers, utf8: label)
      case .exception: try packer.allow(entry.numbers)
      }
    } catch {
      throw ListingError(file: "listing.csv", line: entry.line, message: error.description)
    }
  }
  check("listing packs to the same file", try packer.encoded() == builder.encoded(), true)

  // A service serving a file that a publisher replaces: the identity it serves is the file's.
  let path = "/tmp/embedding-demo-\(getpid()).calldir"
  defer { _ = unsafe unlink(path) }
  try builder.write(to: path)
  let live = try ReloadingDirectory(path: path, checkInterval: .seconds(1))
  check("served file is the one at the path", live.servedIdentity == (try FileIdentity(path: path)), true)
  check("served file has an inode", (live.servedIdentity?.inode ?? 0) > 0, true)
  check("served file blocks +12025550100", try live.current().isBlocked(12025550100), true)
} catch {
  print("error: \(error)")
  check.mismatches += 1
}

if check.mismatches > 0 {
  print("embedding-demo: \(check.mismatches) mismatches")
  exit(1)
}
print("embedding-demo: ok")
