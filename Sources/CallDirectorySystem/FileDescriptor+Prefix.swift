extension FileDescriptor {
  /// The first `count` bytes from the current position, fewer when the file ends sooner: enough
  /// to tell a file's kind by its magic without reading the rest.
  /// - Complexity: O(`count`).
  package func readPrefix(_ count: Int) throws(SystemError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: max(0, count))
    var filled = 0
    while filled < bytes.count {
      let result = unsafe bytes.withUnsafeMutableBytes { raw in
        Result { () throws(SystemError) in try unsafe read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) }
      }
      let got = try result.get()
      if got == 0 { break }
      filled += got
    }
    return Array(bytes.prefix(filled))
  }
}
