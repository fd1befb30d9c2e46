import CZlib
import CallDirectory
import Testing

/// Hostile inputs not covered by the verifier's crafted-file suites: compressed data that inflates
/// far past what its header declares (zip bombs), in a directory's blocks and in gzip inputs.
/// Each gets a typed error after at most the declared (capped) bytes, never the bomb's size.
@Suite struct ReliabilityHostileTests {
  /// A raw deflate stream (window bits -15, no header) of `count` zero bytes, made a mebibyte at a
  /// time so that building it needs no buffer of its size.
  static func bomb(inflating count: Int, gzip: Bool = false) -> [UInt8] {
    var stream = unsafe z_stream()
    let windowBits: Int32 = gzip ? 15 + 16 : -15
    let started = unsafe deflateInit2_(
      &stream, 9, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    precondition(started == Z_OK)
    defer { _ = unsafe deflateEnd(&stream) }
    let chunk = [UInt8](repeating: 0, count: 1 << 20)
    var output: [UInt8] = []
    var window = [UInt8](repeating: 0, count: 1 << 16)
    var left = count
    while true {
      let take = min(left, chunk.count)
      left -= take
      let flush = left == 0 ? Z_FINISH : Z_NO_FLUSH
      var status = Z_OK
      unsafe chunk.withUnsafeBytes { input in
        unsafe stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        unsafe stream.avail_in = uInt(take)
        repeat {
          unsafe window.withUnsafeMutableBytes { out in
            unsafe stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
            unsafe stream.avail_out = uInt(out.count)
            status = unsafe deflate(&stream, flush)
            unsafe output.append(contentsOf: out.prefix(out.count - Int(stream.avail_out)))
          }
        } while unsafe stream.avail_out == 0
      }
      if flush == Z_FINISH {
        precondition(status == Z_STREAM_END)
        return output
      }
    }
  }

  /// Replaces block `block` of the data section `data` (whose index is `index`, with records of
  /// `recordSize` bytes after a `headerSize`-byte header, each record's offset at byte 8) with a
  /// deflated block of the same header parameters whose stream is `stream` and whose declared
  /// payload is `declared`, moves the later blocks' offsets, and reseals every checksum.
  static func replace(
    _ file: inout CraftedFile, data: SectionType, index: SectionType, headerSize: Int, recordSize: Int,
    blocks: [Range<Int>], block: Int, declared: UInt32, stream: [UInt8]
  ) {
    let range = blocks[block]
    var bytes = file[data]
    var replacement = [BlockCodec.deflate.rawValue] + Array(bytes[(range.lowerBound + 1)..<(range.lowerBound + 4)])
    replacement.appendUInt32LE(declared)
    replacement += stream
    replacement.appendUInt32LE(CRC32.checksum(replacement))
    bytes.replaceSubrange(range, with: replacement)
    file[data] = bytes
    let shift = replacement.count - range.count
    for later in (block + 1)..<blocks.count {
      let field = headerSize + later * recordSize + 8
      file.patch(index, at: field, uint64: UInt64(Int(file[index].uint64LE(at: field)) + shift))
    }
  }

  /// A gigabyte of zeros deflates to about a megabyte: the tests use 16 MiB, 256 times the entry
  /// payload cap, which shows the same thing at a fraction of the cost. Made once for every test.
  static let bombSize = 16 << 20
  static let bombStream = bomb(inflating: bombSize)

  @Test func entryBlockThatInflatesFarPastItsCap() throws {
    var file = try CraftedFile(try VerifierSamples.smallFile())
    let stream = Self.bombStream
    #expect(stream.count < Self.bombSize / 500)
    Self.replace(
      &file, data: .blockingData, index: .blockingIndex, headerSize: FormatConstants.entryIndexHeaderSize,
      recordSize: FormatConstants.entryIndexRecordSize, blocks: file.blockRanges(.blocking), block: 0,
      declared: UInt32(FormatConstants.maximumEntryPayload), stream: stream)
    let bytes = file.bytes
    let report = Verifier.verify(bytes)
    let kinds = report.problems.map(\.error.kind)
    #expect(
      kinds.contains { if case .inflateFailed(0, let reason) = $0 { reason.contains("more than") } else { false } }, "\(kinds)")
    #expect(!kinds.contains { $0.isSectionChecksumMismatch })
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(Self.isInflationPastItsCap { try reader.isBlocked(VerifierSamples.blocking[0]) })
    #expect(Self.isInflationPastItsCap { try reader.forEachBlocking { _ in } })
    exerciseReader(bytes, probes: VerifierSamples.probes)
  }

  @Test(arguments: [false, true])
  func labelBlockThatInflatesFarPastItsCap(prefixCoded: Bool) throws {
    var file = try CraftedFile(try VerifierSamples.smallFile(prefixCoded: prefixCoded))
    Self.replace(
      &file, data: file.labelSection, index: .labelIndex, headerSize: FormatConstants.labelIndexHeaderSize,
      recordSize: FormatConstants.labelIndexRecordSize, blocks: file.labelBlockRanges(), block: 0,
      declared: UInt32(FormatConstants.maximumLabelPayload), stream: Self.bombStream)
    let bytes = file.bytes
    let kinds = Verifier.verify(bytes).problems.map(\.error.kind)
    #expect(kinds.contains { if case .inflateFailed = $0 { true } else { false } }, "\(kinds)")
    let reader = try CallDirectoryReader(bytes: bytes)
    #expect(Self.isInflationPastItsCap { try reader.label(id: 0) })
    exerciseReader(bytes, probes: VerifierSamples.probes)
  }

  /// Whether `read` throws the error of a block 0 whose stream inflates past its declared
  /// payload (the zip bomb stopped at its cap).
  static func isInflationPastItsCap(_ read: () throws -> some Any) -> Bool {
    guard case .inflateFailed(0, let reason)? = formatError(read)?.kind else { return false }
    return reason.contains("more than")
  }

  @Test(arguments: [Int.max, FormatConstants.maximumEntryPayload + 1, 1 << 32 + 1])
  func entryBlockDeclaringMoreThanTheCap(declared: Int) throws {
    var file = try CraftedFile(try VerifierSamples.smallFile())
    Self.replace(
      &file, data: .blockingData, index: .blockingIndex, headerSize: FormatConstants.entryIndexHeaderSize,
      recordSize: FormatConstants.entryIndexRecordSize, blocks: file.blockRanges(.blocking), block: 0,
      declared: UInt32(truncatingIfNeeded: declared), stream: Self.bomb(inflating: 1 << 20))
    let kinds = Verifier.verify(file.bytes).problems.map(\.error.kind)
    #expect(kinds.contains { $0.isMalformedBlock || { if case .inflateFailed = $0 { true } else { false } }($0) }, "\(kinds)")
    exerciseReader(file.bytes, probes: VerifierSamples.probes)
  }

  @Test func gzipInputThatInflatesPastItsLimit() throws {
    let bomb = Self.bomb(inflating: 4 << 20, gzip: true)
    #expect(Gzip.hasMagic(bomb))
    #expect(throws: Gzip.Failure.self) { try Gzip.inflate(bomb, limit: 1 << 20) }
    // Under the limit, the same stream inflates: the refusal above is the limit's doing.
    #expect(try Gzip.inflate(bomb, limit: 4 << 20).count == 4 << 20)
  }
}
