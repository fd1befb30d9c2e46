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
      let block: ArraySlice<Int64>
      do throws(FormatError) {
        guard let next = try cursor.takeBlock() else { return }
        block = next.numbers
      } catch { throw .format(error) }
      do throws(E) {
        for number in block { try body(number) }
      } catch { throw .consumer(error) }
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
      let block: (numbers: ArraySlice<Int64>, labelIds: ArraySlice<UInt32>)
      do throws(FormatError) {
        guard let next = try cursor.takeBlock() else { return }
        block = next
      } catch { throw .format(error) }
      // Entries of a block often share a label (a company's lines): look it up once per run.
      var labelId: UInt32?
      var label = ""
      for (number, id) in zip(block.numbers, block.labelIds) {
        if id != labelId {
          do throws(FormatError) { label = try labelCache.label(Int(id)) } catch { throw .format(error) }
          labelId = id
        }
        do throws(E) { try body(number, label) } catch { throw .consumer(error) }
      }
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
