import CallDirectorySystem

/// The descriptor of a file opened for reading, owned by one value and closed with it.
///
/// Kept apart from `LineReader` so that the owner with a `deinit` holds no array: the reader's
/// buffers live beside it, and only this descriptor needs closing however the reader ends (at
/// the input's end, on an error in a line, or dropped early).
struct InputFile: ~Copyable {
  /// The open descriptor; `nil` for an input that is not a file, and once closed.
  private(set) var descriptor: FileDescriptor?

  init(_ descriptor: FileDescriptor?) {
    self.descriptor = descriptor
  }

  /// Closes the file now, once; later calls do nothing.
  /// - Throws: `SystemError` from `close`.
  mutating func close() throws(SystemError) {
    guard let descriptor else { return }
    self.descriptor = nil
    try descriptor.close()
  }

  deinit {
    try? descriptor?.close()
  }
}
