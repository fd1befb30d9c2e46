// Where CallKit exists, the feed's sink over a Call Directory extension's context; elsewhere this
// module is empty, so the package builds the same everywhere.
#if canImport(CallKit)
  import CallKit
  import CallDirectoryFeed

  /// A `CXCallDirectoryExtensionContext` as a feed's sink: every call goes straight to CallKit.
  ///
  /// The feed makes only calls CallKit accepts, so a load it sends cannot fail for its entries.
  ///
  ///     var sink = CallKitSink(context)
  ///     let cursor = try DirectoryFeed(directory).feed(into: &sink, resumingFrom: stored)
  ///     context.completeRequest()
  public struct CallKitSink: CallDirectorySink {
    /// The context of the request being served.
    public let context: CXCallDirectoryExtensionContext

    /// A sink over `context`.
    /// - Complexity: O(1).
    public init(_ context: CXCallDirectoryExtensionContext) { self.context = context }

    /// Whether CallKit asked for an incremental load (`context.isIncremental`).
    public var isIncremental: Bool { context.isIncremental }

    /// `addBlockingEntry(withNextSequentialPhoneNumber:)`.
    /// - Complexity: O(1) here; CallKit's cost is its own.
    public func addBlockingEntry(_ number: Int64) {
      context.addBlockingEntry(withNextSequentialPhoneNumber: number)
    }

    /// `addIdentificationEntry(withNextSequentialPhoneNumber:label:)`.
    /// - Complexity: O(1) here.
    public func addIdentificationEntry(_ number: Int64, label: String) {
      context.addIdentificationEntry(withNextSequentialPhoneNumber: number, label: label)
    }

    /// `removeBlockingEntry(withPhoneNumber:)`.
    /// - Complexity: O(1) here.
    public func removeBlockingEntry(_ number: Int64) {
      context.removeBlockingEntry(withPhoneNumber: number)
    }

    /// `removeIdentificationEntry(withPhoneNumber:)`.
    /// - Complexity: O(1) here.
    public func removeIdentificationEntry(_ number: Int64) {
      context.removeIdentificationEntry(withPhoneNumber: number)
    }

    /// `removeAllBlockingEntries()`.
    /// - Complexity: O(1) here.
    public func removeAllBlockingEntries() { context.removeAllBlockingEntries() }

    /// `removeAllIdentificationEntries()`.
    /// - Complexity: O(1) here.
    public func removeAllIdentificationEntries() { context.removeAllIdentificationEntries() }
  }
#endif
