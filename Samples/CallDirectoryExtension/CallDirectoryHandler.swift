// The principal class of an Xcode Call Directory extension target, feeding CallKit from a call
// directory file in the App Group container. Link the `CallDirectory` and `CallDirectoryCallKit`
// library products; put the group below in both the app's and the extension's entitlements.
import CallDirectory
import CallDirectoryCallKit
import CallKit
import Foundation

final class CallDirectoryHandler: CXCallDirectoryProvider {
  /// The App Group both the app and the extension belong to.
  static let appGroup = "group.com.example.calldir"
  /// The directory the app publishes into the group's container (atomically: write, then rename).
  static let fileName = "list.calldir"
  /// The changeset the app last applied, kept until the extension has fed it.
  static let changesName = "list.calldirchanges"
  /// The provider's public keys (`calldir keygen` writes them), shipped inside the app: a file
  /// no trusted key signed is refused before anything reaches CallKit. Two during a key rotation.
  /// Replace the placeholder with the line of your provider.pub.
  static let providerKeys: [PublicKey] = [
    PublicKey(text: "calldir-ed25519-public-key 0000000000000000000000000000000000000000000000000000000000000000")!
  ]

  /// Keys in the group's user defaults, shared with the app.
  enum Key {
    /// The JSON `FeedCursor` of a load that was split, and what it belongs to ("directory" or "changes").
    static let cursor = "calldir.feed.cursor"
    static let cursorSource = "calldir.feed.cursorSource"
    /// The fingerprint of the directory CallKit holds in full.
    static let fed = "calldir.feed.fedFingerprint"
    /// The fingerprint of the directory the stored changeset applies to (set by the app).
    static let changesBase = "calldir.feed.changesBase"
  }

  enum HandlerError: Error {
    case noContainer
    case damaged(String)
  }

  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    context.delegate = self
    do {
      try load(into: context)
      context.completeRequest()
    } catch {
      // Nothing invalid was sent (the feed checks every entry first); cancelling tells iOS the
      // load did not complete, and the next load starts over.
      UserDefaults(suiteName: Self.appGroup)?.removeObject(forKey: Key.cursor)
      context.cancelRequest(withError: error)
    }
  }

  private func load(into context: CXCallDirectoryExtensionContext) throws {
    guard
      let defaults = UserDefaults(suiteName: Self.appGroup),
      let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroup)
    else { throw HandlerError.noContainer }
    let path = container.appendingPathComponent(Self.fileName).path

    // Verify first: damage is then found before any entry is sent, not half-way through a load.
    // The reader is verified, not the path: what is fed is what was checked, even if the app
    // renames a new version into place meanwhile.
    let reader = try CallDirectoryReader(path: path, trust: TrustPolicy(trustedKeys: Self.providerKeys))
    let report = Verifier.verify(reader)
    guard report.isValid else { throw HandlerError.damaged("\(report.problems.count) problems in \(path)") }
    let directory = DirectoryFeed(reader)
    let fingerprint = directory.fingerprint

    var sink = CallKitSink(context)
    let next: FeedCursor?
    let source: String
    let stored = defaults.data(forKey: Key.cursor).flatMap { try? JSONDecoder().decode(FeedCursor.self, from: $0) }
    let resuming = context.isIncremental && stored?.fingerprint == fingerprint ? stored : nil
    let changesPath = container.appendingPathComponent(Self.changesName).path

    let resumeSource = resuming == nil ? nil : defaults.string(forKey: Key.cursorSource)
    let held = defaults.string(forKey: Key.fed)
    if context.isIncremental, resuming == nil, held == String(fingerprint) {
      return  // CallKit already holds this directory
    }
    let changesApply =
      context.isIncremental && FileManager.default.fileExists(atPath: changesPath)
      && (resumeSource == "changes" || (resuming == nil && held != nil && defaults.string(forKey: Key.changesBase) == held))
    var changes: ChangeFeed<ChangesetReader>?
    if changesApply {
      let changeset = try ChangesetReader(path: changesPath)
      try changeset.check(TrustPolicy(trustedKeys: Self.providerKeys))
      let feed = ChangeFeed(changeset, fingerprint: fingerprint)
      // All removals go in the change's first load; one that removes more than a load may is
      // sent as the whole directory instead.
      if try resuming != nil || feed.plan().removals <= feed.removalLimit { changes = feed }
    }
    if let changes {
      // CallKit holds the changeset's base: send only the change (removals, then additions).
      next = try changes.feed(into: &sink, resumingFrom: resuming)
      source = "changes"
    } else {
      // A full load, or an incremental one without a usable change: the whole directory (in an
      // incremental load the feed first removes everything). `plan()` says before the first
      // entry whether it fits one load; when it does not, the feed stops at the cap.
      let plan = try directory.plan()
      if !plan.fits { NSLog("calldir: \(plan.additions) entries, \(plan.loadsNeeded) loads") }
      next = try directory.feed(into: &sink, resumingFrom: resumeSource == "directory" ? resuming : nil)
      source = "directory"
    }

    if let next {
      // Stopped at CallKit's 2,000,000: the app sees the cursor when reloadExtension completes
      // and asks for another (incremental) load, which resumes here, ascending.
      defaults.set(try JSONEncoder().encode(next), forKey: Key.cursor)
      defaults.set(source, forKey: Key.cursorSource)
      defaults.removeObject(forKey: Key.fed)
    } else {
      defaults.removeObject(forKey: Key.cursor)
      defaults.set(String(fingerprint), forKey: Key.fed)
    }
  }
}

extension CallDirectoryHandler: CXCallDirectoryExtensionContextDelegate {
  func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error) {
    // iOS discarded the extension's entries: the next load must start over with the whole file.
    let defaults = UserDefaults(suiteName: Self.appGroup)
    defaults?.removeObject(forKey: Key.cursor)
    defaults?.removeObject(forKey: Key.fed)
  }
}
