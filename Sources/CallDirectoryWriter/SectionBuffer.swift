import CallDirectoryFormat
import CallDirectorySystem

/// A section's bytes while it is made: in memory, or in a spool file when the directory may be
/// larger than memory; its length and CRC-32 are kept as bytes arrive.
struct SectionBuffer {
  private var memory: [UInt8] = []
  private let spool: SpoolFile?
  /// Whether `checksum` is kept: not for a writer's scratch list, which no section copies.
  private let checksummed: Bool
  /// The CRC-32 of the bytes appended so far (of none when the buffer is not `checksummed`).
  private(set) var checksum = CRC32()
  /// The bytes appended so far.
  private(set) var count = 0

  /// An empty section kept in memory, or, when `directory` is given, in a spool file there.
  /// - Parameter checksummed: `false` for a scratch list: appending 12-byte records one by one,
  ///   a CRC-32 call each was a tenth of packing an identification list.
  init(spoolingIn directory: String?, checksummed: Bool = true) throws(WriterError) {
    self.checksummed = checksummed
    if let directory {
      do { spool = try SpoolFile(in: directory) } catch { throw .system(error) }
    } else {
      spool = nil
    }
  }

  /// Appends `bytes`.
  mutating func append(_ bytes: [UInt8]) throws(WriterError) {
    if checksummed { checksum.update(bytes) }
    try store(bytes)
  }

  /// Appends a block that ends in the checksum of its other bytes (`Block.encode`'s trailer).
  ///
  /// Such bytes sum to `CRC32.residue`, so the section's checksum follows without summing
  /// them a second time.
  mutating func append(block bytes: [UInt8]) throws(WriterError) {
    assert(CRC32.checksum(bytes) == CRC32.residue, "a block with its trailer")
    if checksummed { checksum.update(checksum: CRC32.residue, length: bytes.count) }
    try store(bytes)
  }

  private mutating func store(_ bytes: [UInt8]) throws(WriterError) {
    count += bytes.count
    if let spool {
      do { try spool.append(bytes) } catch { throw .system(error) }
    } else {
      memory.append(contentsOf: bytes)
    }
  }

  /// Hands the section's bytes to `sink`, in order, in pieces whose sizes are multiples of `chunk`
  /// but the last.
  func write(chunk: Int = 1 << 16, to sink: ([UInt8]) throws(WriterError) -> Void) throws(WriterError) {
    guard let spool else { return try sink(memory) }
    do { try spool.replay(chunk: chunk) { (piece) throws(WriterError) in try sink(piece) } } catch {
      switch error {
      case .system(let failure): throw .system(failure)
      case .producer(let failure): throw failure
      }
    }
  }
}
