import CallDirectoryCrypto
import CallDirectoryFormat
import CallDirectoryWriter

/// Signs changesets (`Spec/CHANGESET.md`, section 4.2): sets the header's signed flag (version 2)
/// and appends a 104-byte trailer, the layout of a directory's `SIGN` section, whose signature
/// covers every byte before it. Signing a signed changeset replaces its signature.
public enum ChangesetSigner {
  /// `changeset` signed by `key`.
  /// - Throws: `ChangesetError.format` when `changeset` is not a well-formed changeset.
  /// - Complexity: O(size): one copy and one SHA-256 pass.
  public static func sign(_ changeset: [UInt8], key: SigningKey) throws(ChangesetError) -> [UInt8] {
    let reader = try ChangesetReader(bytes: changeset)
    var header = reader.header
    let wasSigned = header.flags & ChangesetLayout.signedFlag != 0
    header.flags |= ChangesetLayout.signedFlag
    var signed = header.encoded
    signed.append(contentsOf: changeset[ChangesetLayout.headerSize..<(changeset.count - (wasSigned ? SignatureSection.size : 0))])
    // The trailer's first 40 bytes (algorithm, reserved, key) are signed too; the 64 of the signature follow.
    signed.append(contentsOf: SignatureSection(publicKey: key.publicKey, signature: []).encoded)
    let message = ChangesetReader.signatureDomain + SHA256Digest.hash(signed)
    signed.append(contentsOf: key.sign(message))
    return signed
  }
}
