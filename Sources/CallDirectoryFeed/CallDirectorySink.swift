/// Where a feed sends entries: the calls of CallKit's `CXCallDirectoryExtensionContext`.
///
/// The CallKit adapter (module `CallDirectoryCallKit`) conforms the real context; tests conform a
/// sink that checks CallKit's rules on every call. The feed only ever makes calls CallKit accepts
/// (additions strictly ascending per kind, every number at least 1, labels of 1 to 65,534 UTF-8
/// bytes, removals only when `isIncremental`, at most the load's limit of additions), so a sink
/// need not check them; `Failure` lets a sink stop the load (a counting sink uses `Never`).
///
///     struct Counter: CallDirectorySink {
///       var count = 0
///       var isIncremental: Bool { false }
///       mutating func addBlockingEntry(_ number: Int64) { count += 1 }
///       mutating func addIdentificationEntry(_ number: Int64, label: String) { count += 1 }
///       mutating func removeBlockingEntry(_ number: Int64) {}
///       mutating func removeIdentificationEntry(_ number: Int64) {}
///       mutating func removeAllBlockingEntries() {}
///       mutating func removeAllIdentificationEntries() {}
///     }
///     var counter = Counter()
///     try DirectoryFeed(reader).feedWhole(into: &counter)
///     print("\(counter.count) additions")
public protocol CallDirectorySink {
  /// What the sink's calls throw; `Never` for a sink that cannot fail.
  associatedtype Failure: Error = Never

  /// Whether this load is incremental: removals are allowed and earlier entries are kept.
  var isIncremental: Bool { get }

  /// Adds a number to block (`addBlockingEntry(withNextSequentialPhoneNumber:)`).
  /// - Throws: `Failure` to stop the load.
  mutating func addBlockingEntry(_ number: Int64) throws(Failure)

  /// Adds a number to identify with `label` (`addIdentificationEntry(withNextSequentialPhoneNumber:label:)`).
  /// - Throws: `Failure` to stop the load.
  mutating func addIdentificationEntry(_ number: Int64, label: String) throws(Failure)

  /// Removes a blocked number (`removeBlockingEntry(withPhoneNumber:)`); incremental loads only.
  /// - Throws: `Failure` to stop the load.
  mutating func removeBlockingEntry(_ number: Int64) throws(Failure)

  /// Removes an identified number (`removeIdentificationEntry(withPhoneNumber:)`); incremental loads only.
  /// - Throws: `Failure` to stop the load.
  mutating func removeIdentificationEntry(_ number: Int64) throws(Failure)

  /// Removes every blocked number (`removeAllBlockingEntries()`); incremental loads only.
  /// - Throws: `Failure` to stop the load.
  mutating func removeAllBlockingEntries() throws(Failure)

  /// Removes every identified number (`removeAllIdentificationEntries()`); incremental loads only.
  /// - Throws: `Failure` to stop the load.
  mutating func removeAllIdentificationEntries() throws(Failure)
}
