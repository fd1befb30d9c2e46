/// An Ed25519 public key: 32 bytes, named in messages by its key id.
///
///     guard let key = PublicKey(text: publicKeyFileText) else { return }
///     print("trusting key \(key.id)")
///     let reader = try CallDirectoryReader(path: "list.calldir", trust: TrustPolicy(trustedKeys: [key]))
///     print(reader.listVersion)
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
  /// The key's 32 bytes.
  public let bytes: [UInt8]

  /// The key of `bytes` (32 of them for a usable key; others never match a signature).
  public init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The key's first 8 bytes in hex: enough to tell a provider's keys apart in messages.
  public var id: String { Hex.string(bytes.prefix(8)) }

  public var description: String { id }

  /// The text a public key file holds: `calldir-ed25519-public-key HEX`, one line.
  public var fileText: String { KeyText.publicPrefix + " " + Hex.string(bytes[...]) + "\n" }

  /// Parses a public key file's text, or the key as 64 hex digits alone.
  /// - Returns: `nil` when the text is neither.
  public init?(text: String) {
    guard let bytes = KeyText.parse(text, prefix: KeyText.publicPrefix) else { return nil }
    self.bytes = bytes
  }
}

/// What a consumer requires of a directory or changeset before it trusts it.
///
///     let policy = TrustPolicy(trustedKeys: [providerKey], installedVersion: installedVersion)
///     let reader = try CallDirectoryReader(path: "list.calldir", trust: policy)
///     print(reader.listVersion)
public struct TrustPolicy: Sendable, Equatable {
  /// The keys whose signatures are accepted (several, for key rotation). Empty: signatures are not
  /// required, and an unsigned file is accepted.
  public var trustedKeys: [PublicKey]
  /// The list version already installed: a directory with a lower version is refused as a
  /// rollback. `nil`: any version is accepted.
  public var installedVersion: UInt64?

  /// A policy requiring a signature by one of `trustedKeys` (when there are any) and a list version
  /// of at least `installedVersion` (when given).
  public init(trustedKeys: [PublicKey] = [], installedVersion: UInt64? = nil) {
    self.trustedKeys = trustedKeys
    self.installedVersion = installedVersion
  }

  /// Whether a signature is required.
  public var requiresSignature: Bool { !trustedKeys.isEmpty }
}

/// Why a well-formed file is not trusted: thrown by the trust checks of directories and
/// changesets. It names no place in the file: authenticity is a property of the whole file.
///
///     do throws(AuthenticityFailure) {
///       _ = try reader.check(TrustPolicy(trustedKeys: [providerKey], installedVersion: 41))
///     } catch {
///       switch error {
///       case .rolledBack(let installed, let offered): print("keep \(installed), refuse \(offered)")
///       default: print("not trusted: \(error)")
///       }
///     }
public enum AuthenticityFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// Trusted keys were given and the file has no signature.
  case unsigned
  /// The file is signed by a key that is not trusted.
  case unknownKey(PublicKey)
  /// The signature does not verify: the file was changed after it was signed, or the signature
  /// was made for another file.
  case badSignature(PublicKey)
  /// The list version is lower than the one installed.
  case rolledBack(installed: UInt64, offered: UInt64)

  public var description: String {
    switch self {
    case .unsigned: return "the file is not signed, and a signature by a trusted key is required"
    case .unknownKey(let key): return "signed by key \(key.id), which is not a trusted key"
    case .badSignature(let key):
      return "the signature by key \(key.id) does not verify: the file was changed or the signature belongs to another file"
    case .rolledBack(let installed, let offered):
      return "list version \(offered) is older than the installed version \(installed) (a rollback)"
    }
  }
}

/// The text forms of key files.
package enum KeyText {
  package static let publicPrefix = "calldir-ed25519-public-key"
  package static let secretPrefix = "calldir-ed25519-secret-key"

  /// The 32 bytes of `text`: `PREFIX HEX` on its first line, or 64 hex digits alone.
  package static func parse(_ text: String, prefix: String) -> [UInt8]? {
    // The first line, empty or not, ended by LF, CR LF or CR: Swift reads CR LF as one character,
    // equal to neither of the other two.
    let line =
      text.split(maxSplits: 1, omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
      .first.map(String.init) ?? ""
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    let digits: Substring
    switch fields.count {
    case 1: digits = fields[0]
    case 2 where fields[0] == prefix: digits = fields[1]
    default: return nil
    }
    guard let bytes = Hex.bytes(digits), bytes.count == 32 else { return nil }
    return bytes
  }
}

/// Lowercase hexadecimal.
package enum Hex {
  package static func string(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of an even number of hex digits, or `nil`.
  package static func bytes(_ text: Substring) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count % 2 == 0 else { return nil }
    func value(_ c: UInt8) -> UInt8? {
      switch c {
      case 0x30...0x39: c - 0x30
      case 0x61...0x66: c - 0x61 + 10
      case 0x41...0x46: c - 0x41 + 10
      default: nil
      }
    }
    var bytes: [UInt8] = []
    var index = 0
    while index < utf8.count {
      guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }
}
