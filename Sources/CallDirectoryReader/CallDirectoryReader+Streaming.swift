import CallDirectoryFormat

extension CallDirectoryReader {
  /// Calls `body` with every blocking number in ascending order.
  ///
  /// Each block's checksum is checked before any of its numbers is handed out, so a damaged file
  /// stops the stream at the damaged block instead of feeding wrong numbers. Memory: one block.
  /// - Throws: `FormatError` for a damaged block, or what `body` throws.
  /// - Complexity: O(n).
  public func forEachBlocking<E: Error>(_ body: (Int64) throws(E) -> Void) throws(StreamError<E>) {
    var cursor = EntryCursor(layout: layout, kind: .blocking)
    while true {
      let entry: EntryCursor.Entry?
      do throws(FormatError) { entry = try cursor.next() } catch { throw .format(error) }
      guard let entry else { return }
      do throws(E) { try body(entry.number) } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with every identification number and its label in ascending number order.
  ///
  /// Checksums are checked as in `forEachBlocking`. Memory: one entry block, plus the decoded label
  /// blocks the reader's label cache keeps (at most its budget, 2 MiB of label bytes by default).
  /// - Throws: `FormatError` for a damaged block or label, or what `body` throws.
  public func forEachIdentification<E: Error>(_ body: (Int64, String) throws(E) -> Void) throws(StreamError<E>) {
    var cursor = EntryCursor(layout: layout, kind: .identification)
    while true {
      let entry: EntryCursor.Entry
      let label: String
      do throws(FormatError) {
        guard let next = try cursor.next() else { return }
        entry = next
        label = try labelCache.label(Int(entry.labelId))
      } catch { throw .format(error) }
      do throws(E) { try body(entry.number, label) } catch { throw .consumer(error) }
    }
  }

  /// A cursor over `kind`'s entries, for callers that pull (merging two directories, feeding CallKit).
  public func cursor(_ kind: EntryKind) -> EntryCursor {
    EntryCursor(layout: layout, kind: kind, owner: self)
  }
}

/// Why a stream stopped: the file is damaged, or the consumer threw.
public enum StreamError<Consumer: Error>: Error {
  /// The file is damaged at the place the error names.
  case format(FormatError)
  /// The consumer's closure threw.
  case consumer(Consumer)
}
