import CallDirectory

/// The verifier harness.
enum FuzzVerifier {
  static func run(_ bytes: [UInt8]) {
    let report = Verifier.verify(bytes)
    _ = report.problems.map(\.description)
    guard report.isValid else { return }
    // A verified file is one the reader may trust: it opens, and both streams end without an error.
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(bytes: bytes) } catch {
      fatalError("the verifier accepted a file the reader refuses: \(error)")
    }
    var taken = 0
    do {
      try reader.forEachBlockingRun { (_) throws(EnoughEntries) in
        taken += 1
        if taken >= entriesPerStream { throw EnoughEntries() }
      }
    } catch {
      if case .consumer = error {} else { fatalError("a verified file fails to stream: \(error)") }
    }
    taken = 0
    do {
      try reader.forEachIdentificationRun { (_, _) throws(EnoughEntries) in
        taken += 1
        if taken >= entriesPerStream { throw EnoughEntries() }
      }
    } catch {
      if case .consumer = error {} else { fatalError("a verified file fails to stream: \(error)") }
    }
    guard reader.blockingCount == report.blockingCount, reader.identificationCount == report.identificationCount else {
      fatalError("the verifier and the reader count differently")
    }
  }
}
