import CallDirectoryChangeset
import CallDirectoryFeed
import CallDirectoryFeedChangeset
import CallDirectoryFormat
import CallDirectoryReader
import CallDirectoryVerifier

/// The extension's half: decides what one CallKit request needs and feeds it, from the files the
/// app installed in the container (`Spec/APPGROUP.md`, section 5).
///
/// In a full load it feeds the whole current directory (the previous generation when the current
/// one cannot be used). In an incremental load it does the least the state allows: nothing when
/// CallKit holds the current directory; resumes a split load; feeds the kept changeset when
/// CallKit holds its base; else removes everything and feeds the whole directory. A file is fed
/// only after it is opened under the trust policy and verified, so damage is found before the
/// first entry is sent. A load that could keep CallKit's entries (an incremental one) never
/// fails: when the files cannot be used it completes with no change, and the report says why.
/// Before sending, and again before completing, the loader records what CallKit will hold, so the
/// next load knows.
///
/// Memory: one block of the directory or changeset being fed, as for the feeds.
///
///     let loader = CallDirectoryLoader(container: container, trust: TrustPolicy(trustedKeys: keys))
///     var sink = CallKitSink(context)
///     switch loader.load(into: &sink) {
///     case .complete: context.completeRequest()
///     case .fail(let failure): context.cancelRequest(withError: failure)
///     }
public struct CallDirectoryLoader: Sendable {
  /// Where the files are.
  public let container: AppGroupContainer
  /// What a directory or changeset must satisfy to be fed (the provider's keys).
  public let trust: TrustPolicy
  /// The most additions one load sends.
  public let limit: Int

  /// A loader of `container`'s files, in loads of CallKit's cap (`Limits.callKitMaximumEntriesPerLoad`).
  /// - Complexity: O(1).
  public init(container: AppGroupContainer, trust: TrustPolicy) {
    self.container = container
    self.trust = trust
    limit = Limits.callKitMaximumEntriesPerLoad
  }

  /// A loader in loads of at most `limit` additions.
  /// - Throws: `ConfigurationError` naming `limit` when it is below 1.
  /// - Complexity: O(1).
  public init(container: AppGroupContainer, trust: TrustPolicy, limit: Int) throws(ConfigurationError) {
    guard limit > 0 else { throw ConfigurationError(parameter: "limit", value: "\(limit)", allowed: "1...\(Int.max)") }
    self.container = container
    self.trust = trust
    self.limit = limit
  }

  /// Serves one CallKit request: decides the work, feeds it into `sink`, records what CallKit
  /// will hold, and says whether to complete the request or fail it.
  /// - Parameter sink: the request's sink (`CallKitSink(context)`); its `isIncremental` is
  ///   CallKit's choice.
  /// - Returns: `.complete` with what was done, or, for a full load that has no usable list,
  ///   `.fail` with the reasons.
  /// - Complexity: O(file) to verify the file fed, plus the numbers sent.
  public func load<S: CallDirectorySink>(into sink: inout S) -> LoadOutcome {
    var counting = CountingSink(base: sink)
    defer { sink = counting.base }
    return sink.isIncremental ? incremental(into: &counting) : full(into: &counting)
  }

  /// A full load: the whole current directory, or the previous one.
  private func full<S: CallDirectorySink>(into sink: inout CountingSink<S>) -> LoadOutcome {
    let personal = container.personalList()
    guard let installed = container.installed() else {
      // The user's own list alone, over an empty directory.
      if !personal.isEmpty, let empty = EmptyDirectory.feed(limit: limit - personal.additions) {
        do { try container.record(.unknown) } catch {
          return .fail(LoadFailure(reason: "the state cannot be recorded: \(error)"))
        }
        return send(.whole, directory: empty, changes: nil, personal: personal, from: nil, into: &sink, note: nil)
      }
      // Nothing to feed; a load of nothing succeeds. Unrecorded, it still may when no record says
      // otherwise (the container not made yet, as when the extension is turned on before the app
      // first ran): an absent record is read as "unknown", and the next load replaces everything.
      do { try container.record(.nothing) } catch {
        guard container.holding() == .unknown else {
          return .fail(LoadFailure(reason: "no list is installed, and the state cannot be recorded: \(error)"))
        }
        return .complete(LoadReport(action: .nothing, note: "no list is installed (the state cannot be recorded: \(error))"))
      }
      return .complete(LoadReport(action: .nothing, note: "no list is installed"))
    }
    var reasons: [String] = []
    for generation in [installed.current, installed.previous].compactMap({ $0 }) {
      let directory: DirectoryFeed
      switch open(generation, personal: personal) {
      case .failure(let failure):
        reasons.append(failure.reason)
        continue
      case .success(let feed): directory = feed
      }
      // A full load keeps nothing whichever way it ends: failing it when the state cannot be
      // recorded loses nothing, while completing it would leave a record that lies.
      do { try container.record(.unknown) } catch {
        return .fail(LoadFailure(reason: "the state cannot be recorded: \(error)"))
      }
      return send(.whole, directory: directory, changes: nil, personal: personal, from: nil, into: &sink, note: reasons.first)
    }
    return .fail(LoadFailure(reason: "no installed list can be fed: " + reasons.joined(separator: "; ")))
  }

  /// An incremental load: the least the state allows, never a failure.
  private func incremental<S: CallDirectorySink>(into sink: inout CountingSink<S>) -> LoadOutcome {
    let personal = container.personalList()
    let installed = container.installed()
    let directory: DirectoryFeed
    if let installed {
      switch open(installed.current, personal: personal) {
      case .failure(let failure):
        return .complete(LoadReport(action: .nothing, note: failure.reason + ": CallKit's entries are kept"))
      case .success(let feed): directory = feed
      }
    } else if !personal.isEmpty || container.fedPersonalList().map({ !$0.isEmpty }) == true,
      let empty = EmptyDirectory.feed(limit: limit - personal.additions)
    {
      // No provider's list: the user's own, over an empty directory.
      directory = empty
    } else {
      return .complete(LoadReport(action: .nothing, note: "no list is installed: CallKit's entries are kept"))
    }
    // What CallKit is to hold: the directory merged with the user's own list.
    let fingerprint = personal.merged(with: directory.fingerprint)
    let held = container.holding()
    if held == .directory(fingerprint: fingerprint) { return .complete(LoadReport(action: .nothing)) }
    // The user's list as CallKit was fed it, when what CallKit holds says which it was.
    let fed = container.fedPersonalList() ?? PersonalList()
    do { try container.record(.unknown) } catch {
      return .complete(LoadReport(action: .nothing, note: "the state cannot be recorded (\(error)): CallKit's entries are kept"))
    }
    // The most specific work first; one refused before it sent anything gives way to the next,
    // and replacing everything is always possible.
    switch held {
    case .split(fingerprint, false, let cursor):
      if let outcome = attempt(.resumed(fromChanges: false), directory, nil, personal, cursor, &sink) { return outcome }
    case .split(fingerprint, true, let cursor):
      if let installed, let changes = changeFeed(installed, directory.fingerprint),
        let outcome = attempt(.resumed(fromChanges: true), directory, changes, personal, cursor, &sink)
      {
        return outcome
      }
    case .directory(let base) where base == fed.merged(with: directory.fingerprint) && fed != personal:
      // Only the user's list changed: the numbers it names, and no others, when a load takes them.
      if let outcome = sendPersonalChanges(directory, from: fed, to: personal, into: &sink) { return outcome }
    case .directory(let base)
    where fed == personal && installed?.previous.map({ base == personal.merged(with: $0.fingerprint) }) == true:
      if let installed, let changes = changeFeed(installed, directory.fingerprint),
        let outcome = attempt(.changes, directory, changes, personal, nil, &sink)
      {
        return outcome
      }
    default: break
    }
    return send(.replaced, directory: directory, changes: nil, personal: personal, from: nil, into: &sink, note: nil)
  }

  /// Sends the work, or returns `nil` when it was refused before anything was sent.
  private func attempt<S: CallDirectorySink>(
    _ action: LoadAction, _ directory: DirectoryFeed, _ changes: ChangeFeed<ChangesetReader>?, _ personal: PersonalList,
    _ cursor: FeedCursor?, _ sink: inout CountingSink<S>
  ) -> LoadOutcome? {
    let outcome = send(action, directory: directory, changes: changes, personal: personal, from: cursor, into: &sink, note: nil)
    if case .complete(let report) = outcome, report.note != nil, sink.calls == 0 { return nil }
    return outcome
  }

  /// Feeds the directory or the changes from `cursor`, then records what CallKit will hold.
  /// A feed that stops part-way completes the load: what was sent stays, the record says
  /// `.unknown`, and the next load replaces everything.
  private func send<S: CallDirectorySink>(
    _ action: LoadAction, directory: DirectoryFeed, changes: ChangeFeed<ChangesetReader>?, personal: PersonalList,
    from cursor: FeedCursor?, into sink: inout CountingSink<S>, note: String?
  ) -> LoadOutcome {
    let fingerprint = personal.merged(with: directory.fingerprint)
    // The user's list goes with it; recorded first, so that a record naming the merge never
    // names a list the file does not hold (a crash between leaves `.unknown`).
    if personal != container.fedPersonalList() ?? PersonalList() {
      do { try container.recordFed(personal) } catch {
        // A full load keeps nothing of CallKit's: completing it having sent nothing would empty
        // CallKit while saying its entries are kept.
        guard sink.isIncremental else { return .fail(LoadFailure(reason: "the state cannot be recorded: \(error)")) }
        return .complete(
          LoadReport(action: .nothing, note: "the state cannot be recorded (\(error)): CallKit's entries are kept"))
      }
    }
    var overlay = PersonalOverlay(sink, personal: personal, injecting: changes == nil, from: cursor)
    defer { sink = overlay.base }
    let next: FeedCursor?
    do throws(FeedError<S.Failure>) {
      if let changes {
        next = try changes.feed(into: &overlay, resumingFrom: cursor)
      } else {
        next = try directory.feed(into: &overlay, resumingFrom: cursor)
      }
      do throws(S.Failure) { try overlay.finish(at: next) } catch { throw .sink(error) }
    } catch {
      return .complete(
        LoadReport(
          action: action, additions: overlay.base.additions, removals: overlay.base.removals, moreLoadsNeeded: true,
          note: "the feed stopped: \(error)"))
    }
    // If this record cannot be written, `.unknown` stays, which is safe: the next load replaces.
    let held = next.map { CallKitHolding.split(fingerprint: fingerprint, fromChanges: changes != nil, cursor: $0) }
    try? container.record(held ?? .directory(fingerprint: fingerprint))
    return .complete(
      LoadReport(
        action: action, additions: overlay.base.additions, removals: overlay.base.removals, moreLoadsNeeded: next != nil,
        note: note))
  }

  /// The directory of `generation`, opened under the trust policy and verified.
  private func open(_ generation: InstalledLists.Generation, personal: PersonalList) -> Result<DirectoryFeed, LoadFailure> {
    // The user's blocks and labels go in the same loads: the directory's feed leaves room.
    let room = limit - personal.additions
    guard room > 0 else {
      return .failure(LoadFailure(reason: "the user's own list has more entries than a load takes (\(limit))"))
    }
    let path = container.listPath(generation.number)
    let reader: CallDirectoryReader
    do { reader = try CallDirectoryReader(path: path, trust: trust) } catch {
      return .failure(LoadFailure(reason: "\(path): \(error)"))
    }
    let report = Verifier.verify(reader)
    guard report.isValid else {
      return .failure(LoadFailure(reason: "\(path): damaged, \(report.problems.first.map { "\($0)" } ?? "not valid")"))
    }
    // A cap validated by the initialiser: this cannot throw.
    guard let feed = try? DirectoryFeed(reader, limit: room) else { return .failure(LoadFailure(reason: "bad limit")) }
    return .success(feed)
  }

  /// The kept changeset as a feed, when it turns the previous generation into the directory of
  /// `fingerprint` and is trusted.
  private func changeFeed(_ installed: InstalledLists, _ fingerprint: UInt64) -> ChangeFeed<ChangesetReader>? {
    guard installed.hasChanges, installed.current.fingerprint == fingerprint,
      let changeset = try? ChangesetReader(path: container.changesPath(installed.current.number)),
      (try? changeset.check(trust)) != nil
    else { return nil }
    return try? ChangeFeed(changeset, limit: limit, removalLimit: limit)
  }
}
