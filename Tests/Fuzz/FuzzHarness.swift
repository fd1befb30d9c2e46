import CallDirectory

/// One fuzzing harness: a function from arbitrary bytes to nothing that must never trap, hang or
/// allocate without bound, and that checks what it can of the answer.
///
/// Each harness also states an oracle where one is cheap: a file the verifier accepts must stream
/// without an error, a number the parser accepts must parse back to itself, and so on. A broken
/// oracle stops the run with `fatalError`, which libFuzzer reports as a crash with its input.
enum FuzzHarness: String, CaseIterable {
  /// `CallDirectoryReader(bytes:)`, then lookups and both streams.
  case reader
  /// `Verifier.verify(_:)`; a file it accepts must open and stream cleanly.
  case verifier
  /// The listing, identify-CSV, block-list, TSV and JSON Lines parsers, and `CSVReader`.
  case listing
  /// `PhoneNumberParser.parse` and `parseEntry`, under a country code chosen by the first byte.
  case number
  /// `ChangesetReader(bytes:)`, then every list of runs.
  case changeset
  /// `ResolveService.respond`: a request target and body, as `calldir serve` hands them over.
  case service

  /// Runs the harness over one input.
  func run(_ bytes: [UInt8]) {
    switch self {
    case .reader: FuzzReader.run(bytes)
    case .verifier: FuzzVerifier.run(bytes)
    case .listing: FuzzListing.run(bytes)
    case .number: FuzzNumber.run(bytes)
    case .changeset: FuzzChangeset.run(bytes)
    case .service: FuzzService.run(bytes)
    }
  }
}

/// Thrown by a harness's stream body to stop after enough entries: a tiny input may describe a
/// range of billions of numbers, and expanding it is the caller's choice, not a finding.
struct EnoughEntries: Error {}

/// The most entries a harness takes from one stream.
let entriesPerStream = 20_000

/// Copies of `bytes` with one bit changed each, for the differential oracles: eight bits spread
/// over the input from a place it picks (its CRC), so that a corpus reaches every part of a file.
func oneBitChanges(_ bytes: [UInt8]) -> [(bit: Int, bytes: [UInt8])] {
  let bits = bytes.count * 8
  guard bits > 0 else { return [] }
  let start = Int(CRC32.checksum(bytes) % UInt32(truncatingIfNeeded: bits))
  return (0..<8).map { step in
    let bit = (start + step * (bits / 8 + 1)) % bits
    var damaged = bytes
    damaged[bit / 8] ^= 1 << UInt8(bit % 8)
    return (bit, damaged)
  }
}
