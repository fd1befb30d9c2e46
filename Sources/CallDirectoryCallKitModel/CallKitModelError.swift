import CallDirectoryFormat

/// Why the model of CallKit refused a load: the codes of CallKit's
/// `CXErrorCodeCallDirectoryManagerError` that a load can meet, plus the two rules of this
/// project that CallKit reports with no code of its own.
///
/// Every one of them fails the load, and a failed load deletes every entry of the extension.
///
///     var store = CallKitModel()
///     var load = try store.beginLoad()
///     try load.addBlockingEntry(14_155_550_199)
///     do throws(CallKitModelError) {
///         try load.addBlockingEntry(14_155_550_100)
///         try store.complete(load)
///     } catch .entriesOutOfOrder(let kind, let previous, let number) {
///         print("\(kind): \(number) after \(previous)")
///     } catch {
///         print("CallKit would fail the load: \(error)")
///     }
public enum CallKitModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// An addition not above the previous one of its kind in this load (`.entriesOutOfOrder`).
  case entriesOutOfOrder(kind: EntryKind, previous: Int64, number: Int64)
  /// An addition equal to the previous one of its kind in this load, or of a number the store
  /// already holds in an incremental load (`.duplicateEntries`).
  case duplicateEntries(kind: EntryKind, number: Int64)
  /// More additions in one load than the cap, both kinds together (`.maximumEntriesExceeded`).
  case maximumEntriesExceeded(cap: Int)
  /// A removal in a full load (`.unexpectedIncrementalRemoval`).
  case unexpectedIncrementalRemoval(kind: EntryKind)
  /// The user turned the extension off in Settings (`.extensionDisabled`).
  case extensionDisabled
  /// A load was asked for while another was running (`.currentlyLoading`).
  case currentlyLoading
  /// The extension was killed, or its load abandoned, before it completed (`.loadingInterrupted`).
  case loadingInterrupted
  /// The extension cancelled the request (`cancelRequest(withError:)`); the text is its reason.
  case cancelled(String)
  /// A label empty or over 65,534 UTF-8 bytes: a rule of this project; CallKit fails the load
  /// without a code of its own.
  case invalidLabel(number: Int64, bytes: Int)
  /// A number outside `1 ... Int64.max - 1`: a rule of this project, as for labels.
  case numberOutOfRange(kind: EntryKind, number: Int64)

  /// One line for a test's failure message.
  public var description: String {
    switch self {
    case .entriesOutOfOrder(let kind, let previous, let number):
      "\(kind.rawValue) +\(number) added after +\(previous): entries out of order"
    case .duplicateEntries(let kind, let number): "\(kind.rawValue) +\(number) added twice: duplicate entries"
    case .maximumEntriesExceeded(let cap): "more than \(cap) additions in one load"
    case .unexpectedIncrementalRemoval(let kind): "a \(kind.rawValue) removal in a full load"
    case .extensionDisabled: "the extension is disabled"
    case .currentlyLoading: "a load is already running"
    case .loadingInterrupted: "the load was interrupted before it completed"
    case .cancelled(let reason): "the extension cancelled the load: \(reason)"
    case .invalidLabel(let number, let bytes): "the label of +\(number) has \(bytes) UTF-8 bytes, not 1 to 65,534"
    case .numberOutOfRange(let kind, let number): "\(kind.rawValue) number \(number) is outside 1 ... Int64.max - 1"
    }
  }
}
