/// What is wrong with a directory file's bytes, and where.
///
/// Every check of the reader and the verifier throws or reports one of these. `offset` is the
/// byte offset in the file where the problem was found (the start of the field or block at fault),
/// so a message can point at the byte; `section` names the section it lies in, when there is one
/// (a directory's four-character type, known or not, or a changeset's part).
///
/// Only the bytes' faults are format errors. A file that cannot be read is a `SystemError`, a
/// well-formed file that a `TrustPolicy` refuses an `AuthenticityFailure`; opening a directory
/// from a path can meet all three, and throws an `OpenError` that says which.
///
///     do throws(FormatError) {
///       let reader = try CallDirectoryReader(bytes: directoryBytes)
///       print(try reader.isBlocked(33_612_345_678))
///     } catch {
///       print("damaged at byte \(error.offset) in \(error.section ?? "the file"): \(error.kind)")
///     }
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of problem. New kinds may be added in later versions.
  public enum Kind: Sendable, Equatable {
    /// A structure needs `needed` bytes but only `available` remain.
    case truncated(needed: Int, available: Int)
    /// The file does not start with the call directory magic.
    case badMagic
    /// The file's major version is not one this reader knows.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// The header's `fileLength` does not match the bytes present (a truncated or extended file).
    case fileLengthMismatch(declared: UInt64, actual: Int)
    /// A reserved field or flag holds a non-zero value.
    case nonzeroReserved(field: String)
    /// The header and section table checksum does not match.
    case headerChecksumMismatch(stored: UInt32, computed: UInt32)
    /// The section count is outside the allowed range.
    case badSectionCount(UInt32)
    /// The sections do not tile the file in table order.
    case sectionLayout(String)
    /// Two sections have the same type.
    case duplicateSection(String)
    /// A section that version 1 requires is absent.
    case missingSection(String)
    /// A section this reader does not know is marked required.
    case unknownRequiredSection(String)
    /// A section's bytes do not match its checksum.
    case sectionChecksumMismatch(stored: UInt32, computed: UInt32)
    /// A field holds a value its rule forbids.
    case invalidField(field: String, value: UInt64)
    /// An index does not describe its data section correctly.
    case malformedIndex(String)
    /// A block's bytes do not match its checksum.
    case blockChecksumMismatch(block: Int, stored: UInt32, computed: UInt32)
    /// A block uses a codec this reader does not know.
    case unknownCodec(UInt8)
    /// A block's payload is malformed.
    case malformedBlock(block: Int, reason: String)
    /// A deflate stream failed to inflate to exactly its declared size.
    case inflateFailed(block: Int, reason: String)
    /// A number lies outside `1 ... Int64.max - 1`.
    case numberOutOfRange(UInt64)
    /// Two consecutive numbers of one kind are not strictly ascending (out of order or duplicated).
    case notAscending(previous: Int64, next: Int64)
    /// An identification entry refers to a label id that the table does not have.
    case labelIdOutOfRange(id: UInt32, labelCount: Int)
    /// A label is empty or longer than 65,534 bytes.
    case badLabelLength(id: Int, length: Int)
    /// A label is not valid UTF-8.
    case invalidUTF8(id: Int)
    /// Labels are not strictly ascending in byte order (out of order or duplicated).
    case labelsNotAscending(id: Int)
    /// The file holds more entries, blocking and identification together, than CallKit accepts in
    /// one load (`CXErrorCodeCallDirectoryManagerError.maximumEntriesExceeded`). The file itself is
    /// well formed; only a CallKit load would refuse it.
    case maximumEntriesExceeded(count: Int, limit: Int)
  }

  /// What is wrong.
  public var kind: Kind
  /// The byte offset in the file where it was found; 0 when ``isPlaced`` is false.
  public var offset: Int
  /// The four-character type of the section it lies in, if any.
  public var section: String?
  /// Whether ``offset`` names a byte of the file. A problem of the file as a whole (a missing
  /// section, more entries than CallKit loads) has no byte to point at, and its message says none.
  public private(set) var isPlaced = true

  /// Makes an error of `kind` found at byte `offset` of the file.
  public init(_ kind: Kind, at offset: Int, section: String? = nil) {
    self.kind = kind
    self.offset = offset
    self.section = section
  }

  /// Makes an error of `kind` that belongs to the file as a whole rather than to one of its bytes.
  public init(unplaced kind: Kind) {
    self.init(kind, at: 0)
    isPlaced = false
  }

  /// A one-line message: what is wrong, then where (for a placed problem).
  public var description: String {
    guard isPlaced else { return kind.message }
    var place = "at byte \(offset)"
    if let section { place += " (section \(section))" }
    return "\(kind.message) \(place)"
  }
}

extension FormatError.Kind {
  /// The human-readable part of the message.
  public var message: String {
    switch self {
    case .truncated(let needed, let available):
      return "truncated: needed \(needed) bytes, \(available) available"
    case .badMagic: return "not a call directory file (bad magic)"
    case .unsupportedVersion(let major, let minor):
      return
        "unsupported format version \(major).\(minor) (this reader reads major versions \(FormatVersion.readable.lowerBound) to \(FormatVersion.readable.upperBound))"
    case .fileLengthMismatch(let declared, let actual):
      return "file length is \(actual) bytes but the header declares \(declared)"
    case .nonzeroReserved(let field): return "reserved field \(field) is not zero"
    case .headerChecksumMismatch(let stored, let computed):
      return "header checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
    case .badSectionCount(let count): return "section count \(count) is out of range"
    case .sectionLayout(let reason): return "bad section layout: \(reason)"
    case .duplicateSection(let type): return "duplicate section \(type)"
    case .missingSection(let type): return "missing required section \(type)"
    case .unknownRequiredSection(let type):
      return "unknown required section \(type) (a later format version's: a newer calldir reads the file)"
    case .sectionChecksumMismatch(let stored, let computed):
      return "section checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
    case .invalidField(let field, let value): return "invalid \(field): \(value)"
    case .malformedIndex(let reason): return "malformed index: \(reason)"
    case .blockChecksumMismatch(let block, let stored, let computed):
      return "block \(block) checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
    case .unknownCodec(let codec): return "unknown block codec \(codec)"
    case .malformedBlock(let block, let reason): return "block \(block) is malformed: \(reason)"
    case .inflateFailed(let block, let reason): return "block \(block) does not inflate: \(reason)"
    case .numberOutOfRange(let value): return "number \(value) is outside 1...\(Limits.maximumNumber)"
    case .notAscending(let previous, let next):
      return next == previous
        ? "duplicate entry +\(next)" : "entries out of order: +\(next) follows +\(previous)"
    case .labelIdOutOfRange(let id, let count): return "label id \(id) is out of range (the table has \(count))"
    case .badLabelLength(let id, let length):
      return "label \(id) is \(length) bytes (allowed: \(Limits.minimumLabelBytes)...\(Limits.maximumLabelBytes))"
    case .invalidUTF8(let id): return "label \(id) is not valid UTF-8"
    case .labelsNotAscending(let id): return "label \(id) is not after the label before it (out of order or duplicated)"
    case .maximumEntriesExceeded(let count, let limit):
      // A total past Int.max is given as its bound (ranges of both kinds can hold that many).
      let entries = count == Int.max ? "more than \(Int.max - 1)" : "\(count)"
      return "\(entries) entries, blocking and identification together, exceed CallKit's limit of \(limit) per load"
    }
  }
}

private func hex(_ value: UInt32) -> String {
  let digits = String(value, radix: 16)
  return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
