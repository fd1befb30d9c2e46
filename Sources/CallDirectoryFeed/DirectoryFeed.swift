import CallDirectoryFormat
import CallDirectoryReader

/// Feeds a directory to CallKit: every entry, each kind ascending, ranges expanded as they are
/// sent, in one load or split across several.
///
/// Memory is one block of the directory (the reader's streams decode one block at a time, and a
/// range is expanded number by number), so a directory of tens of millions of entries feeds within
/// an extension's few megabytes. Each block's checksum is checked before any of its numbers is
/// sent, but a damaged block found late stops a load half done: verify a downloaded file with
/// `Verifier.verify` before feeding it, so damage is found before any entry is sent.
///
///     let feed = DirectoryFeed(try CallDirectoryReader(path: path))
///     let plan = try feed.plan()           // before the first entry: does it fit one load?
///     print("\(plan.loadsNeeded) loads")
///     let cursor = try feed.feed(into: &sink, resumingFrom: stored)
///     // cursor == nil: done; else store it and feed the rest in the next incremental load
///     print(cursor == nil ? "done" : "more in the next load")
public struct DirectoryFeed: Sendable {
  /// The directory fed.
  public let directory: CallDirectoryReader
  /// The most additions one load sends.
  public let limit: Int

  /// A feed of `directory` in loads of at most CallKit's cap of additions
  /// (`Limits.callKitMaximumEntriesPerLoad`).
  /// - Complexity: O(1).
  public init(_ directory: CallDirectoryReader) {
    self.init(checked: directory, limit: Limits.callKitMaximumEntriesPerLoad)
  }

  /// A feed of `directory` in loads of at most `limit` additions.
  ///
  ///     let feed = try DirectoryFeed(reader, limit: 100_000)
  ///     print(try feed.plan().loadsNeeded)
  ///
  /// - Throws: `ConfigurationError` naming `limit` when it is below 1.
  /// - Complexity: O(1).
  public init(_ directory: CallDirectoryReader, limit: Int) throws(ConfigurationError) {
    guard limit > 0 else { throw ConfigurationError(parameter: "limit", value: "\(limit)", allowed: "1...\(Int.max)") }
    self.init(checked: directory, limit: limit)
  }

  private init(checked directory: CallDirectoryReader, limit: Int) {
    self.directory = directory
    self.limit = limit
  }

  /// A feed of the directory at `path`, opened only if `trust` accepts it: with trusted keys, a
  /// signature by one of them; with an installed version, a list version no older. An extension
  /// that feeds CallKit from a downloaded file should pin its provider's keys here, since a load
  /// it cannot undo would otherwise carry whatever the file says. Loads carry CallKit's cap of
  /// additions; for another, open the reader and give it to `init(_:limit:)`.
  /// - Throws: `OpenError`: the file cannot be read (`.system`), is malformed (`.format`) or is
  ///   not trusted (`.notAuthentic`).
  public init(path: String, trust: TrustPolicy) throws(OpenError) {
    self.init(try CallDirectoryReader(path: path, trust: trust))
  }

  /// The directory's fingerprint: a hash of its header and section table, which hold every
  /// section's checksum, so two directories with different entries have different fingerprints.
  /// - Complexity: O(sections).
  public var fingerprint: UInt64 { Fingerprint.of(directory.shape.header) }

  /// How many additions a full feed sends, ranges counted by their numbers, and whether they fit
  /// one load.
  /// - Throws: `FormatError` when a range section is damaged.
  /// - Complexity: O(r), the number of ranges; no entry or label block is read.
  public func plan() throws(FormatError) -> FeedPlan {
    var blocking = directory.blockingCount
    var identification = directory.identificationCount
    do throws(StreamError<Never>) {
      try directory.forEachBlockingRange { blocking = Saturating.add(blocking, Saturating.count($0)) }
      try directory.forEachIdentificationRangeLabelId { range, _ in
        identification = Saturating.add(identification, Saturating.count(range))
      }
    } catch {
      switch error {
      case .format(let format): throw format
      }
    }
    return FeedPlan(blockingAdditions: blocking, identificationAdditions: identification, limit: limit)
  }

  /// Feeds the whole directory in one load, refusing before the first entry when it does not fit.
  ///
  /// In an incremental load, the extension's earlier entries are removed first
  /// (`removeAllBlockingEntries`, `removeAllIdentificationEntries`).
  /// - Throws: `FeedError.overLimit` (nothing sent) when the plan does not fit; `.damaged` for a
  ///   damaged block; `.sink` for what the sink throws.
  /// - Complexity: O(n + r + numbers sent).
  @inlinable
  public func feedWhole<S: CallDirectorySink>(into sink: inout S) throws(FeedError<S.Failure>) {
    let plan: FeedPlan
    do throws(FormatError) { plan = try self.plan() } catch { throw .damaged(error) }
    guard plan.fits else { throw .overLimit(plan) }
    _ = try feed(into: &sink, resumingFrom: nil)
  }

  /// Feeds one load: at most `limit` additions, from `cursor` (or from the start), and returns
  /// where the next load resumes, or `nil` when everything has been sent.
  ///
  /// Without a cursor this is the first load of the work: a full load, or an incremental one
  /// that first removes everything. With a cursor the load must be incremental (a full load would
  /// discard what earlier loads sent) and it continues ascending from the cursor.
  /// - Parameters:
  ///   - sink: where the entries go.
  ///   - cursor: what an earlier load of this directory returned, or `nil` to start.
  /// - Returns: the cursor for the next load, or `nil` when done.
  /// - Throws: `FeedError.needsIncrementalLoad` or `.cursorMismatch` before anything is sent;
  ///   `.damaged` for a damaged block; `.sink` for what the sink throws.
  /// - Complexity: O(n + r) to reach the cursor, plus the numbers sent.
  @inlinable
  public func feed<S: CallDirectorySink>(
    into sink: inout S, resumingFrom cursor: FeedCursor? = nil
  ) throws(FeedError<S.Failure>) -> FeedCursor? {
    let fingerprint = self.fingerprint
    if let cursor {
      guard sink.isIncremental else { throw .needsIncrementalLoad }
      guard cursor.fingerprint == fingerprint, Limits.isValidNumber(cursor.next) else { throw .cursorMismatch(cursor) }
    } else if sink.isIncremental {
      do throws(S.Failure) {
        try sink.removeAllBlockingEntries()
        try sink.removeAllIdentificationEntries()
      } catch { throw .sink(error) }
    }
    var window = AdditionWindow(limit: limit, start: cursor, fingerprint: fingerprint)
    do throws(StreamError<AdditionWindow.Interruption<S.Failure>>) {
      if cursor?.kind != .identification {
        try directory.forEachBlockingRun { (run) throws(AdditionWindow.Interruption<S.Failure>) in
          try window.send(.blocking, run, label: nil, to: &sink)
        }
      }
      try directory.forEachIdentificationRun { (run, label) throws(AdditionWindow.Interruption<S.Failure>) in
        try window.send(.identification, run, label: label, to: &sink)
      }
    } catch {
      switch error {
      case .format(let format): throw .damaged(format)
      case .consumer(.full): return window.stop
      case .consumer(.failed(let failure)): throw failure
      }
    }
    return nil
  }
}
