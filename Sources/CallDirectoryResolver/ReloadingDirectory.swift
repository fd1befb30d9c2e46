import CallDirectoryFormat
import CallDirectoryReader
import CallDirectorySystem
import CallDirectoryVerifier
import Dispatch
import Synchronization

/// A directory read from a path that is replaced on disk while it is served: each query gets the
/// version current when it starts, and a new version is picked up once its file is renamed into
/// place or rewritten (`Spec/RESOLUTION.md` section 5).
///
/// Each version is read into memory by default (``Storage/copy``): a file rewritten or cut short
/// in place (`cp` onto it, `curl -o`, a shell's `>`) changes nothing a query reads, and is picked
/// up as a new version. The staleness check compares the stamp of the file the path names (one
/// `stat`: device, inode, size, modification and change times) with that of the version served.
/// It runs at most once per `checkInterval`, started by the query that finds it due but run on a
/// thread of its own, so no query waits for it; or whenever ``refresh()`` is called. When the
/// path names a new file or a rewritten one, it is read and **verified whole**
/// (every checksum and every block, as `Verifier` does, and the trust policy), then swapped in;
/// queries that already hold the previous reader finish on it, and its bytes are released when
/// the last of them lets go. A replacement that cannot be opened, is damaged or is not trusted
/// is never served: the previous version keeps answering and the failure is reported once,
/// through `onReloadFailure` and the ``reloadFailure`` property. Since every served file passed
/// verification, its lookups skip the reader's first-use checks.
///
///     let spam = try ReloadingDirectory(path: "/var/lib/calldir/spam.calldir")
///     let reader = spam.current()          // for one query
///     print(try reader.isBlocked(12025550100))
///
/// Publish a new version by writing it beside the path and renaming it over the path (what
/// `calldir pack` and `DirectoryBuilder.write(to:)` do): the new version is served at the first
/// check after the rename, and no check reads a half-written file. A file rewritten in place may
/// be read half written; that copy fails verification, and the file is read again once its stamp
/// changes. With ``Storage/mapping`` never rewrite or truncate the served file in place: its
/// pages are mapped, so its queries would see the change, and a shortened file faults the
/// process.
///
/// Safe to share between threads.
public final class ReloadingDirectory: DirectoryProvider, Sendable {
  /// The path followed.
  public let path: String
  /// The least time between two automatic staleness checks, or `nil` when only ``refresh()``
  /// checks.
  public let checkInterval: Duration?

  /// The reader served now.
  private let served: Mutex<CallDirectoryReader>
  /// When the next automatic check is due, in `MonotonicClock` nanoseconds (`UInt64.max`: never).
  private let nextCheck: Atomic<UInt64>
  private let intervalNanoseconds: UInt64
  /// What checks remember, and the lock that makes them one at a time.
  private let checks: Mutex<CheckState>
  private let onReloadFailure: (@Sendable (ReloadingDirectory, OpenError) -> Void)?
  /// What every served version must satisfy.
  private let trust: TrustPolicy
  /// How each version's bytes are held.
  public let storage: Storage

  /// How a version's bytes are held while it is served.
  public enum Storage: Sendable {
    /// Read into memory, which verifying a version whole costs in reads anyway: writes to the
    /// file in place never reach a query. Memory: the file's size for each version held.
    case copy
    /// Mapped: the kernel's page cache holds the bytes, shared with other processes. The file
    /// must then be replaced by rename only.
    case mapping
  }

  private struct CheckState {
    /// The failure being reported: the stamp the path named (`nil` when `stat` failed), the
    /// error, and the failed file's bytes. A check that meets the same again says nothing new.
    var failure: (stamp: FileStamp?, error: OpenError, pinned: FileStorage?)?
    /// How many new versions were swapped in.
    var reloads = 0
    /// Whether the served version's stamp stands for its bytes (`FileStorage.stampIsSettled`);
    /// until it does, each check reads the file again and compares.
    var servedIsSettled: Bool
  }

  /// Opens the directory at `path` and follows it.
  ///
  /// - Parameters:
  ///   - path: the directory file; replaced on disk by rename to publish a new version.
  ///   - checkInterval: the least time between two automatic staleness checks, each one `stat`
  ///     (about a microsecond) and, for a new file, its verification, run on a thread of its own
  ///     (the query that finds it due only hands it over); `nil` to check only when ``refresh()``
  ///     is called. One second by default.
  ///   - trust: what every version must satisfy (`CallDirectoryReader.check(_:)`): with trusted
  ///     keys a signature by one of them; with an installed version, a list version at least as
  ///     high. A replacement that fails keeps the served version and is reported like any other
  ///     failure. With trusted keys, each accepted version's list version becomes the installed
  ///     version, so a replacement with a lower one is refused as a rollback; without them a list
  ///     version is only what an unauthenticated file claims, and never raises the floor.
  ///   - storage: how each version's bytes are held: read into memory (the default), or mapped.
  ///   - onReloadFailure: called once for each replacement that cannot be served (and once when
  ///     the path stops naming a file), after the check that found it, outside any lock; on the
  ///     checking thread, which for an automatic check is not a query's.
  /// - Throws: `OpenError` when the file cannot be opened (`.system`), is damaged (`.format`: the
  ///   first problem verification found) or is not trusted (`.notAuthentic`).
  /// - Complexity: O(file size): the file is verified whole (about 10 ms for a million entries
  ///   here), and with trusted keys hashed once more for its signature.
  public init(
    path: String, checkInterval: Duration? = .seconds(1), trust: TrustPolicy = TrustPolicy(), storage: Storage = .copy,
    onReloadFailure: (@Sendable (_ directory: ReloadingDirectory, _ error: OpenError) -> Void)? = nil
  ) throws(OpenError) {
    self.path = path
    self.checkInterval = checkInterval
    self.onReloadFailure = onReloadFailure
    self.trust = trust
    self.storage = storage
    let bytes: FileStorage
    do { bytes = try Self.open(path, storage) } catch { throw .system(error) }
    let first: CallDirectoryReader
    do { first = try CallDirectoryReader(storage: bytes, path: path) } catch { throw .format(error) }
    try Self.admit(first, trust: trust)
    served = Mutex(first)
    checks = Mutex(CheckState(servedIsSettled: bytes.stampIsSettled))
    let interval = checkInterval.map(Self.nanoseconds) ?? .max
    intervalNanoseconds = interval
    nextCheck = Atomic(interval == .max ? .max : MonotonicClock.nanoseconds() &+ min(interval, .max / 2))
  }

  /// The reader to answer one query from; starts the staleness check on a thread of its own
  /// when it is due.
  ///
  /// - Complexity: a lock and a clock read; when a check is due, handing it to another thread.
  public func current() -> CallDirectoryReader {
    if intervalNanoseconds != .max {
      let due = nextCheck.load(ordering: .relaxed)
      let now = MonotonicClock.nanoseconds()
      // One thread claims the check; the others go on with the reader served now.
      if now >= due,
        nextCheck.compareExchange(expected: due, desired: now &+ min(intervalNanoseconds, .max / 2), ordering: .relaxed)
          .exchanged
      {
        // Verifying a replacement reads it whole: never on a query's time.
        DispatchQueue.global(qos: .utility).async { [self] in
          // A check that is running already (an explicit `refresh()`) is not waited for.
          let outcome = checks.withLockIfAvailable { state in check(&state) }
          if case .failed(let error)? = outcome { onReloadFailure?(self, error) }
        }
      }
    }
    return served.withLock { $0 }
  }

  /// Checks now whether the path names a new file or a rewritten one, and if so reads it,
  /// verifies it and serves it.
  ///
  /// Checks are one at a time: a call made while another runs waits for it, then checks again.
  /// - Returns: what the check did; `.failed` only the first time a failure is met.
  /// - Complexity: one `stat`; when the file was replaced, verifying the new one, O(its size).
  @discardableResult
  public func refresh() -> ReloadOutcome {
    let outcome = checks.withLock { state in check(&state) }
    if case .failed(let error) = outcome { onReloadFailure?(self, error) }
    return outcome
  }

  /// The failure of the latest replacement, if it could not be opened and none has opened since.
  public var reloadFailure: OpenError? { checks.withLock { $0.failure?.error } }

  /// How many new versions have been swapped in since the directory was opened.
  public var reloadCount: Int { checks.withLock { $0.reloads } }

  /// The identity of the file served now.
  public var servedIdentity: FileIdentity? { served.withLock { $0.fileIdentity } }

  /// One check, under the `checks` lock.
  private func check(_ state: inout CheckState) -> ReloadOutcome {
    let stamp: FileStamp
    do { stamp = try FileStamp(path: path) } catch {
      return failed(&state, stamp: nil, .system(error))
    }
    let servedStamp = served.withLock { $0.fileStamp }
    if stamp == servedStamp && state.servedIsSettled {
      state.failure = nil  // the path names the served version again (a failed stat has passed)
      return .unchanged
    }
    // A version that failed to parse fails again: its bytes are those its stamp stands for. A
    // system failure (too many open files, say) may pass, so it is retried.
    if Self.isKnownBad(stamp, state) { return .unchanged }
    // Opened first: the file opened may be newer than the one `stat` saw, and a failure is
    // recorded under the stamp of the version that failed, not of the one `stat` saw.
    let storage: FileStorage
    do { storage = try Self.open(path, self.storage) } catch {
      return failed(&state, stamp: stamp, .system(error))
    }
    let opened = storage.stamp ?? stamp
    // Compared outside the lock, which every query takes: O(file size), never on a query's time.
    if opened == servedStamp, state.servedIsSettled || served.withLock({ $0 }).hasSameBytes(as: storage) {
      state.failure = nil
      state.servedIsSettled = storage.stampIsSettled
      return .unchanged
    }
    if Self.isKnownBad(opened, state) { return .unchanged }
    let reader: CallDirectoryReader
    do throws(OpenError) {
      do { reader = try CallDirectoryReader(storage: storage, path: path) } catch { throw .format(error) }
      var policy = trust
      // No rollback: once an authenticated version is served, an older list version is refused.
      // An unauthenticated one proves nothing, so its claim never raises the floor.
      if trust.requiresSignature {
        policy.installedVersion = max(policy.installedVersion ?? 0, served.withLock { $0.listVersion })
      }
      try Self.admit(reader, trust: policy)
    } catch {
      return failed(&state, stamp: opened, error, pinned: storage)
    }
    served.withLock { $0 = reader }
    state.failure = nil
    state.servedIsSettled = storage.stampIsSettled
    state.reloads += 1
    return .reloaded(opened.identity)
  }

  /// The bytes of the file at `path`, held as `storage` says.
  private static func open(_ path: String, _ storage: Storage) throws(SystemError) -> FileStorage {
    switch storage {
    case .copy: try FileStorage(reading: path)
    case .mapping: try FileStorage(mapping: path)
    }
  }

  /// Refuses a version that is not trusted or not valid in every byte (the trust check first: an
  /// untrusted file's damage is beside the point); `Verifier` marks a valid one's reader verified.
  /// - Throws: `OpenError`: the trust failure, or the first problem verification found.
  private static func admit(_ reader: CallDirectoryReader, trust: TrustPolicy) throws(OpenError) {
    do { try reader.check(trust) } catch { throw .notAuthentic(error) }
    var options = VerificationOptions()
    options.maximumProblems = 1
    let report = Verifier.verify(reader, options: options)
    if let problem = report.problems.first { throw .format(problem.error) }
  }

  /// Records a failure; `.failed` when it is new, `.unchanged` when it was already reported.
  ///
  /// `pinned` is the failed file's bytes, kept while the failure is remembered: a mapping, or a
  /// copy's open descriptor, holds the file's inode, so no new file can take its number while
  /// the stamp stands for it.
  private func failed(
    _ state: inout CheckState, stamp: FileStamp?, _ error: OpenError, pinned: FileStorage? = nil
  ) -> ReloadOutcome {
    if let failure = state.failure, failure.stamp == stamp, failure.error == error { return .unchanged }
    state.failure = (stamp, error, pinned.flatMap { $0.view.count > 0 ? $0 : nil })  // an empty file pins nothing
    return .failed(error)
  }

  /// Whether `stamp` is the version whose failure is remembered, so reading it again is useless.
  /// Only a pinned file with a settled stamp counts: an unpinned one (a system failure, which may
  /// pass, or an empty file) may since have been unlinked and its inode number given to a new
  /// file, and an unsettled stamp may stand for other bytes since.
  private static func isKnownBad(_ stamp: FileStamp, _ state: CheckState) -> Bool {
    guard let failure = state.failure, let pinned = failure.pinned, pinned.stampIsSettled else { return false }
    return failure.stamp == stamp
  }

  /// `duration` in whole nanoseconds, 0 for a negative one, saturating at `UInt64.max - 1`.
  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    // Both components carry the duration's sign.
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    let fraction = UInt64(attoseconds / 1_000_000_000)
    guard !overflow, whole < UInt64.max - 1 - fraction else { return UInt64.max - 1 }
    return whole + fraction  // checked just above
  }
}
