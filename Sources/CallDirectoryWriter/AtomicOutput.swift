import CallDirectorySystem

/// Writes the pieces that `produce` hands its sink to `path` atomically: to a temporary file
/// beside it, flushed, then renamed over `path`. On any failure `path` is left as it was and the
/// temporary file removed. The writers' `write(to:)` all stream through it, so no file is held
/// whole in memory on its way to disk.
/// - Throws: what `produce` throws, or `WriterError.system` for file errors.
func writeAtomically(
  to path: String, _ produce: (_ sink: ([UInt8]) throws(WriterError) -> Void) throws(WriterError) -> Void
) throws(WriterError) {
  do throws(AtomicWriteError<WriterError>) {
    // `produce` does not escape: it is called here, inside the write, and nowhere else.
    try withoutActuallyEscaping(produce) { (produce) throws(AtomicWriteError<WriterError>) in
      try AtomicFile.write(to: path) { (sink: ([UInt8]) throws(SystemError) -> Void) throws(WriterError) in
        try produce { (piece) throws(WriterError) in
          do throws(SystemError) { try sink(piece) } catch { throw .system(error) }
        }
      }
    }
  } catch {
    switch error {
    case .system(let failure): throw .system(failure)
    case .producer(let failure): throw failure
    }
  }
}
