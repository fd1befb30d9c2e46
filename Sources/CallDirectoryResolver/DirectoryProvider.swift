import CallDirectoryReader

/// Something that hands a resolver the directory to answer one query from.
///
/// A resolver asks each provider once per query and answers that query from the reader it got
/// (`Spec/RESOLUTION.md` section 5), so a provider may swap the reader it returns at any time:
/// a query that already holds the previous one finishes on it.
///
/// `CallDirectoryReader` is a provider of itself (a directory that never changes);
/// ``ReloadingDirectory`` follows a path that is replaced on disk.
///
///     let fixed = try CallDirectoryReader(path: "local.calldir", trust: TrustPolicy())
///     let followed = try ReloadingDirectory(path: "provider.calldir")
///     let resolver = try Resolver(sources: [
///       Resolver.Source(name: "provider", provider: followed),
///       Resolver.Source(name: "local", provider: fixed),
///     ])
///     print(fixed.current() === fixed)  // a reader provides itself
///     print(try resolver.resolve(12025550100).action)
public protocol DirectoryProvider: AnyObject, Sendable {
  /// The reader to answer one query from.
  ///
  /// Called on the query's path: it should cost no more than taking a lock, and must not throw
  /// (a provider that cannot reload keeps returning the reader it has).
  func current() -> CallDirectoryReader
}

extension CallDirectoryReader: DirectoryProvider {
  /// The reader itself: an opened directory never changes.
  /// - Complexity: O(1).
  public func current() -> CallDirectoryReader { self }
}
