import CallDirectoryFormat

extension CallDirectoryReader {
  /// Calls `body` with every blocking number in ascending order.
  ///
  /// Each block's checksum is checked before any of its numbers is handed out, so a damaged file
  /// stops the stream at the damaged block instead of feeding wrong numbers. Memory: one block.
  /// - Throws: `FormatError` for a damaged block, or what `body` throws.
  /// - Complexity: O(n).
  @inlinable @inline(__always)  // the caller's closure inlines into the loop: no call an entry
  public func forEachBlocking<E: Error>(_ body: (Int64) throws(E) -> Void) throws(StreamError<E>) {
    try forEachBlock(.blocking) { (numbers, _) throws(StreamError<E>) in
      do throws(E) {
        for number in numbers { try body(number) }
      } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with every identification number and its label in ascending number order.
  ///
  /// Checksums are checked as in `forEachBlocking`; the label blocks are decoded and checked
  /// first, in order, into the reader's label cache (up to its budget, 5 MiB of memory by
  /// default, however long the labels), so a damaged label block stops the stream before its
  /// first entry. Memory: one entry block and that cache, which the stream reads in place; for a
  /// table over the budget, a table of the labels last handed out besides (at most 65,536 slots,
  /// about 1.4 MiB, and labels costing 2 MiB: `Spec/FORMAT.md` section 13.1).
  /// - Throws: `FormatError` for a damaged block or label, or what `body` throws.
  /// - Complexity: O(n), plus decoding each label block once while the cache holds them.
  @inlinable @inline(__always)  // as `forEachBlocking`; a label the consumer only reads costs no reference count
  public func forEachIdentification<E: Error>(_ body: (Int64, String) throws(E) -> Void) throws(StreamError<E>) {
    var recent: RecentLabels
    do throws(FormatError) { recent = try RecentLabels(labelCount: labelCount, cache: labelCache) } catch { throw .format(error) }
    try forEachBlock(.identification) { (numbers, labelIds) throws(StreamError<E>) in
      for (number, id) in zip(numbers, labelIds) {
        let slot: Int
        do throws(FormatError) { slot = try recent.slot(for: id, from: labelCache) } catch { throw .format(error) }
        do throws(E) { try body(number, recent[slot]) } catch { throw .consumer(error) }
      }
    }
  }

  /// Calls `body` with every identification number and its label id in ascending number order:
  /// the stream for consumers that keep labels by id (a database's label table, a resolver's
  /// map), which makes no String an entry. `label(id:)` gives an id's text.
  ///
  /// Checksums are checked as in `forEachBlocking`, and every id is below `labelCount`; the label
  /// blocks themselves are not read (`Verifier` checks them). Memory: one entry block.
  /// - Throws: `FormatError` for a damaged block, or what `body` throws.
  /// - Complexity: O(n).
  @inlinable @inline(__always)  // as `forEachBlocking`
  public func forEachIdentificationLabelId<E: Error>(_ body: (Int64, UInt32) throws(E) -> Void) throws(StreamError<E>) {
    try forEachBlock(.identification) { (numbers, labelIds) throws(StreamError<E>) in
      do throws(E) {
        for (number, id) in zip(numbers, labelIds) { try body(number, id) }
      } catch { throw .consumer(error) }
    }
  }

  /// Calls `body` with each block of `kind`, checked, in order: its numbers and (for
  /// identification) label ids.
  @inlinable @inline(__always)
  func forEachBlock<E: Error>(
    _ kind: EntryKind, _ body: (ArraySlice<Int64>, ArraySlice<UInt32>) throws(StreamError<E>) -> Void
  ) throws(StreamError<E>) {
    var cursor = cursor(kind)
    try streaming { () throws(StreamError<E>) in
      while true {
        let block: (numbers: ArraySlice<Int64>, labelIds: ArraySlice<UInt32>)
        do throws(FormatError) {
          guard let next = try cursor.takeBlock() else { return }
          block = next
        } catch { throw .format(error) }
        try body(block.numbers, block.labelIds)
      }
    }
  }

  /// A cursor over `kind`'s entries, for callers that pull (merging two directories, feeding CallKit).
  public func cursor(_ kind: EntryKind) -> EntryCursor {
    EntryCursor(reader: self, kind: kind)
  }
}

/// Why a stream stopped: the file is damaged, or the consumer threw.
///
///     var writer = DirectoryBuilder()
///     do throws(StreamError<WriterError>) {
///       try reader.forEachBlocking { (number) throws(WriterError) in try writer.block(number) }
///     } catch {
///       switch error {
///       case .format(let damage): print("the directory is damaged: \(damage)")
///       case .consumer(let refused): print("the writer refused: \(refused)")
///       }
///     }
public enum StreamError<Consumer: Error>: Error {
  /// The file is damaged at the place the error names.
  case format(FormatError)
  /// The consumer's closure threw.
  case consumer(Consumer)
}

extension StreamError: CustomStringConvertible {
  /// The wrapped error's description: the damage and its place, or what the consumer threw.
  public var description: String {
    switch self {
    case .format(let error): error.description
    case .consumer(let error): String(describing: error)
    }
  }
}
