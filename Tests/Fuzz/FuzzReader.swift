import CallDirectory

/// The reader and lookup harness.
enum FuzzReader {
  static func run(_ bytes: [UInt8]) {
    guard let reader = try? CallDirectoryReader(bytes: bytes) else { return }
    _ = (reader.blockingCount, reader.identificationCount, reader.labelCount, reader.version)
    // Numbers taken from the input itself reach the blocks it describes more often than fixed ones.
    var probes: [Int64] = [0, 1, -1, Int64.max, Int64.min, 12_025_550_100]
    var index = 0
    while index + 8 <= bytes.count && probes.count < 32 {
      var value: Int64 = 0
      for byte in bytes[index..<index + 8].reversed() { value = value << 8 | Int64(byte) }
      probes.append(value)
      index += 8
    }
    for number in probes {
      _ = try? reader.isBlocked(number)
      _ = try? reader.label(for: number)
      _ = try? reader.lookup(number)
    }
    var taken = 0
    var streamed: [Int64] = []
    _ = try? reader.forEachBlockingRun { (numbers) throws(EnoughEntries) in
      taken += 1
      if streamed.count < 16 { streamed.append(numbers.lowerBound) }
      if taken >= entriesPerStream { throw EnoughEntries() }
    }
    taken = 0
    _ = try? reader.forEachIdentificationRun { (_, label) throws(EnoughEntries) in
      taken += 1
      precondition(!label.isEmpty, "an identification run came with an empty label")
      if taken >= entriesPerStream { throw EnoughEntries() }
    }
    _ = try? reader.forEachBlockingRange { (_) throws(EnoughEntries) in
      taken += 1
      if taken >= 2 * entriesPerStream { throw EnoughEntries() }
    }
    _ = try? reader.forEachIdentificationRange { (_, _) throws(EnoughEntries) in
      taken += 1
      if taken >= 3 * entriesPerStream { throw EnoughEntries() }
    }
    for kind in EntryKind.allCases {
      var cursor = reader.cursor(kind)
      for _ in 0..<64 { if (try? cursor.next()) == nil { break } }
    }
    for id in [0, 1, reader.labelCount - 1, reader.labelCount, Int(UInt32.max)] { _ = try? reader.label(id: id) }
    guard Verifier.verify(bytes).isValid else { return }
    // What a clean file streams, a lookup finds.
    for number in streamed {
      guard (try? reader.isBlocked(number)) == true else {
        fatalError("a valid file streams \(number) but isBlocked(\(number)) is not true")
      }
    }
    differential(bytes, probes: probes + streamed)
  }

  /// The differential oracle: a valid file with one bit changed answers every probe as the valid
  /// file does, or throws; never a different answer. Eight bits, spread over the file from a
  /// place the input picks, each changed in a copy of its own.
  static func differential(_ bytes: [UInt8], probes: [Int64]) {
    guard let original = try? CallDirectoryReader(bytes: bytes) else { return }
    let truth = probes.map { try? original.lookup($0) }
    for (bit, damaged) in oneBitChanges(bytes) {
      guard let reader = try? CallDirectoryReader(bytes: damaged) else { continue }
      for (number, expected) in zip(probes, truth) {
        guard let answer = try? reader.lookup(number) else { continue }
        guard answer == expected else {
          fatalError("bit \(bit) changed: lookup(\(number)) answered \(answer), the valid file \(String(describing: expected))")
        }
      }
    }
  }
}
