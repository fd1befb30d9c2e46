import CallDirectoryCrypto
import CallDirectoryFormat
import CallDirectoryWriter

/// Signs changesets (`Spec/CHANGESET.md`, section 4.2): sets the header's signed flag (version 3)
/// and appends a 108-byte trailer, the layout of a directory's `SIGN` section whose signature
/// covers every byte before it, then a CRC-32 of those 104 bytes. Signing a signed changeset
/// replaces its signature.
///
///     let signed = try ChangesetSigner.sign(changesetBytes, key: signingKey)
///     let reader = try ChangesetReader(bytes: signed)
///     let signer = try reader.check(TrustPolicy(trustedKeys: [signingKey.publicKey]))
///     print("signed by \(signer?.id ?? "nobody")")
public enum ChangesetSigner {
  /// `changeset` signed by `key`.
  ///
  /// A signature vouches for the bytes: the changeset is read whole first (every block's CRC,
  /// encoding and runs), and a damaged one is refused.
  /// - Throws: `ChangesetError.format` when `changeset` is not a well-formed changeset.
  /// - Complexity: O(size): one copy, one pass over every block and one SHA-256 pass.
  public static func sign(_ changeset: [UInt8], key: SigningKey) throws(ChangesetError) -> [UInt8] {
    let reader = try ChangesetReader(bytes: changeset)
    try reader.checkBlocks()
    var header = reader.header
    let wasSigned = header.flags & ChangesetLayout.signedFlag != 0
    header.flags |= ChangesetLayout.signedFlag
    var signed = header.encoded
    signed.append(
      contentsOf: changeset[ChangesetLayout.headerSize..<(changeset.count - (wasSigned ? ChangesetLayout.trailerSize : 0))])
    // The trailer's first 40 bytes (algorithm, reserved, key) are signed too; the 64 of the signature follow.
    signed.append(contentsOf: SignatureSection(publicKey: key.publicKey, signature: []).encoded)
    let message = ChangesetReader.signatureDomain + SHA256Digest.hash(signed)
    let trailer = SignatureSection(publicKey: key.publicKey, signature: key.sign(message)).encoded
    signed.append(contentsOf: trailer.suffix(from: SignatureSection.signatureOffset))
    signed.appendUInt32LE(CRC32.checksum(trailer))
    return signed
  }
}
