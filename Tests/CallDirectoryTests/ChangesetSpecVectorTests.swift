import CallDirectory
import CallDirectoryFormat
import Foundation
import Testing

@testable import CallDirectoryChangeset

/// The changeset vectors of `Spec/vectors/changesets/` (`Spec/CHANGESET.md`, section 12): the
/// directories are what their listings pack to, diff of them gives the committed changeset byte
/// for byte, it lists `changes.txt`, and patch gives NEW back.
///
/// Set `CALLDIR_WRITE_VECTORS=1` to rewrite the binary files after a deliberate, specified change.
@Suite struct ChangesetSpecVectorTests {
  static let directory = SpecVectorTests.vectors.appendingPathComponent("changesets")

  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  static func packed(_ listing: String) throws -> [UInt8] {
    try SpecVectorTests.pack(listing: try bytes(listing), entriesPerBlock: 512)
  }

  @Test func vectorsMatch() throws {
    let old = try Self.packed("old.csv")
    let new = try Self.packed("new.csv")
    let diff = try Changeset.diff(old: CallDirectoryReader(bytes: old), new: CallDirectoryReader(bytes: new))
    if ProcessInfo.processInfo.environment["CALLDIR_WRITE_VECTORS"] == "1" {
      for (name, contents) in [("old.calldir", old), ("new.calldir", new), ("changes.cdchanges", diff)] {
        try Data(contents).write(to: Self.directory.appendingPathComponent(name))
      }
    }
    #expect(try Self.bytes("old.calldir") == old)
    #expect(try Self.bytes("new.calldir") == new)
    #expect(try Self.bytes("changes.cdchanges") == diff)
    try signedVectorMatches(diff)
    let changes = try ChangesetReader(path: Self.directory.appendingPathComponent("changes.cdchanges").path)
    let expected = String(decoding: try Self.bytes("changes.txt"), as: UTF8.self)
    #expect(try ChangesetListing.read(changes).text == expected)
    #expect(try Changeset.patched(old: CallDirectoryReader(bytes: old), changes: changes) == new)
  }

  /// RFC 8032 section 7.1 test 1's key, which signs `changes-signed.cdchanges`.
  static let vectorKey = SigningKey(seed: Hex.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!)!

  /// `changes-signed.cdchanges` is `changes.cdchanges` signed with `vectorKey` (section 12): Ed25519
  /// signs deterministically, so the bytes are fixed where libsodium signs; CryptoKit signs with
  /// fresh randomness, so there only the signature is checked.
  func signedVectorMatches(_ unsigned: [UInt8]) throws {
    let signed = try ChangesetSigner.sign(unsigned, key: Self.vectorKey)
    if ProcessInfo.processInfo.environment["CALLDIR_WRITE_VECTORS"] == "1" {
      try Data(signed).write(to: Self.directory.appendingPathComponent("changes-signed.cdchanges"))
    }
    let stored = try Self.bytes("changes-signed.cdchanges")
    #if canImport(CryptoKit)
      #expect(stored.count == signed.count)
    #else
      #expect(stored == signed)
    #endif
    let reader = try ChangesetReader(bytes: stored)
    #expect(try reader.check(TrustPolicy(trustedKeys: [Self.vectorKey.publicKey])) == Self.vectorKey.publicKey)
    #expect(try ChangesetListing.read(reader).text == String(decoding: try Self.bytes("changes.txt"), as: UTF8.self))
  }

  /// The `xxd` dumps in `CHANGESET.md` section 12 are the vectors' bytes: the whole worked example,
  /// and the signed one's last 108 bytes (its trailer).
  @Test(arguments: [("changes.cdchanges", nil), ("changes-signed.cdchanges", 108)] as [(String, Int?)])
  func specDumpMatchesTheVector(_ name: String, _ suffix: Int?) throws {
    let spec = try String(contentsOf: SpecVectorTests.root.appendingPathComponent("Spec/CHANGESET.md"), encoding: .utf8)
    let marker = try #require(spec.range(of: "<!-- xxd \(suffix == nil ? "" : "-s -\(suffix!) ")\(name) -->"))
    let start = marker
    let end = try #require(spec.range(of: "<!-- end xxd -->", range: marker.upperBound..<spec.endIndex))
    var dumped: [UInt8] = []
    for line in spec[start.upperBound..<end.lowerBound].split(separator: "\n") {
      // `00000010: 9801 0000 ...  text`: the groups of hex after the offset, before two spaces.
      guard let colon = line.firstIndex(of: ":"), Int(line[..<colon], radix: 16) != nil else { continue }
      let hex = line[line.index(after: colon)...].components(separatedBy: "  ").first(where: { !$0.isEmpty }) ?? ""
      for group in hex.split(separator: " ") {
        var digits = Substring(group)
        while digits.count >= 2, let byte = UInt8(digits.prefix(2), radix: 16) {
          dumped.append(byte)
          digits = digits.dropFirst(2)
        }
      }
    }
    let file = try Self.bytes(name)
    #expect(dumped == Array(file.suffix(suffix ?? file.count)))
  }

  /// The signature messages' domain texts, as `FORMAT.md` section 16.2 and `CHANGESET.md` section
  /// 4.2 state them (`the N ASCII bytes `TEXT``, then one zero byte), are the ones the code signs.
  @Test(arguments: [
    ("Spec/FORMAT.md", SignedDirectoryBytes.domain), ("Spec/CHANGESET.md", ChangesetReader.signatureDomain),
  ])
  func signatureDomainTextIsTheSpecs(_ file: String, _ domain: [UInt8]) throws {
    let spec = try String(contentsOf: SpecVectorTests.root.appendingPathComponent(file), encoding: .utf8)
    let match = try #require(spec.firstMatch(of: /the (\d+)\s+ASCII bytes `([^`]+)`,? (followed by )?one zero byte/))
    let text = Array(String(match.output.2).utf8)
    #expect(Int(match.output.1) == text.count)
    #expect(domain == text + [0])
  }
}
