// A stand-in for the part of Apple's CallKit that the samples use, with Apple's signatures, so
// that `swift build` compiles the samples on Linux, where CallKit does not exist. Nothing here
// runs: every body traps. Only Package.swift's Linux-only sample targets see this module; it is
// not part of any product. (The Call Directory API is iOS-only; its reference is Apple's CallKit
// documentation, CXCallDirectoryManager and CXCallDirectoryExtensionContext.)
@_exported import Foundation  // as the real module re-exports it

private func standIn() -> Never { fatalError("a stand-in for Apple's CallKit: the samples are compiled here, not run") }

/// A phone number as CallKit takes it: the digits of the full international number (iOS 10).
public typealias CXCallDirectoryPhoneNumber = Int64

/// An app extension's request context; in Apple's SDK this class is Foundation's.
open class NSExtensionContext: NSObject {
  open func completeRequest(returningItems items: [Any]?, completionHandler: ((Bool) -> Void)? = nil) { standIn() }
  open func cancelRequest(withError error: any Error) { standIn() }
}

/// The principal class of a Call Directory extension.
open class CXCallDirectoryProvider: NSObject {
  public override init() { super.init() }
  open func beginRequest(with context: CXCallDirectoryExtensionContext) { standIn() }
}

/// Told when CallKit could not take a load.
public protocol CXCallDirectoryExtensionContextDelegate: NSObjectProtocol {
  func requestFailed(for extensionContext: CXCallDirectoryExtensionContext, withError error: any Error)
}

/// The context of one load of a Call Directory extension.
open class CXCallDirectoryExtensionContext: NSExtensionContext {
  open weak var delegate: (any CXCallDirectoryExtensionContextDelegate)?
  open var isIncremental: Bool { standIn() }
  open func addBlockingEntry(withNextSequentialPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) { standIn() }
  open func removeBlockingEntry(withPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) { standIn() }
  open func removeAllBlockingEntries() { standIn() }
  open func addIdentificationEntry(withNextSequentialPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber, label: String) {
    standIn()
  }
  open func removeIdentificationEntry(withPhoneNumber phoneNumber: CXCallDirectoryPhoneNumber) { standIn() }
  open func removeAllIdentificationEntries() { standIn() }
  open func completeRequest(completionHandler completion: ((Bool) -> Void)? = nil) { standIn() }
}

/// Manages an app's Call Directory extensions.
open class CXCallDirectoryManager: NSObject, @unchecked Sendable {
  /// Whether the user has turned the extension on in Settings.
  public enum EnabledStatus: Int, Sendable {
    case unknown = 0
    case disabled = 1
    case enabled = 2
  }

  open class var sharedInstance: CXCallDirectoryManager { standIn() }
  open func reloadExtension(
    withIdentifier identifier: String, completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil
  ) {
    standIn()
  }
  open func reloadExtension(withIdentifier identifier: String) async throws { standIn() }
  open func getEnabledStatusForExtension(
    withIdentifier identifier: String, completionHandler completion: @escaping @Sendable (EnabledStatus, (any Error)?) -> Void
  ) { standIn() }
  open func enabledStatusForExtension(withIdentifier identifier: String) async throws -> EnabledStatus { standIn() }
  open func openSettings(completionHandler completion: (@Sendable ((any Error)?) -> Void)? = nil) { standIn() }
  open func openSettings() async throws { standIn() }
}

// Foundation's App Group API on Apple platforms, which swift-corelibs-foundation lacks; here so
// that the samples, which import CallKit anyway, compile unchanged.
extension FileManager {
  /// The shared container of an App Group the app's entitlements name, or `nil`.
  public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? { standIn() }
}
