import CallDirectoryFormat
import CallDirectorySystem

extension CallDirectoryReader {
  /// Maps the file at `path` and calls `body` with all of its bytes, unchecked.
  ///
  /// This is for tools that must look inside files the reader refuses to open (the verifier
  /// reports every damaged section, not only the header's first problem). The view is valid only
  /// during `body`: the mapping is released when it returns.
  ///
  /// - Parameters:
  ///   - path: the file to map.
  ///   - body: what to do with the bytes.
  /// - Returns: what `body` returns.
  /// - Throws: `SystemError` when the file cannot be opened or mapped.
  /// - Complexity: O(1) plus `body`: pages are read as `body` touches them.
  package static func withMappedBytes<R>(path: String, _ body: (ByteView) -> R) throws(SystemError) -> R {
    let storage = try FileStorage(mapping: path)
    return body(storage.view)
  }
}
