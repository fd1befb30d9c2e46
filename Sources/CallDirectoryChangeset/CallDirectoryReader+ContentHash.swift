import CallDirectoryCrypto
import CallDirectoryFormat
import CallDirectoryReader

extension CallDirectoryReader {
  /// The SHA-256 of the file's bytes, 32 bytes: the name a changeset gives its base and result.
  ///
  /// - Complexity: O(file size); it reads the whole mapping once.
  public var contentHash: [UInt8] { unsafe layout.file.withUnsafeBytes { unsafe SHA256Digest.hash($0) } }
}
