import CallDirectory
import CallKit
import Foundation
import Observation

/// The screen's state and actions: the extension's status from CallKit, updates through the
/// library's `ListUpdater`, and a reload after each change, repeated while a list over CallKit's
/// cap still has loads to go.
@MainActor @Observable final class BlocklistModel {
  enum Status: Equatable {
    case checking, enabled, disabled, unknown
    case failed(String)
  }

  private(set) var status = Status.checking
  /// The last update's outcome, in a line for the screen.
  private(set) var lastUpdate = ""
  private(set) var isUpdating = false

  private let settings: BlocklistSettings
  private let container: AppGroupContainer?

  init(settings: BlocklistSettings) {
    self.settings = settings
    container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: settings.appGroup)
      .map { AppGroupContainer(path: $0.path) }
  }

  /// Asks CallKit whether the user has turned the extension on (Settings > Phone > Call Blocking
  /// & Identification).
  func refreshStatus() async {
    do {
      switch try await CXCallDirectoryManager.sharedInstance.enabledStatusForExtension(
        withIdentifier: settings.extensionIdentifier)
      {
      case .enabled: status = .enabled
      case .disabled: status = .disabled
      default: status = .unknown
      }
    } catch {
      status = .failed("\(error)")
    }
  }

  /// Opens the settings page where the user turns the extension on.
  func openSettings() async {
    try? await CXCallDirectoryManager.sharedInstance.openSettings()
    await refreshStatus()
  }

  /// Downloads the provider's list, installs it if it is genuine and newer, and reloads.
  func update() async {
    guard let container else {
      lastUpdate = "no App Group container \(settings.appGroup)"
      return
    }
    isUpdating = true
    defer { isUpdating = false }
    do {
      let bytes = try await settings.download()
      let result = try ListUpdater(container: container, trustedKeys: settings.providerKeys).install(directory: bytes)
      lastUpdate = "installed list version \(container.installed()?.listVersion ?? 0)"
      if result.reloadNeeded { await reload(container) }
    } catch let error as UpdateError {
      // The lists installed before stay, and CallKit keeps what it holds.
      lastUpdate = "kept the installed list: \(error)"
    } catch {
      lastUpdate = "download failed: \(error)"
    }
  }

  /// Reloads the extension until CallKit holds the installed list: a list over the cap takes
  /// several loads, and a load that made no progress is not repeated.
  private func reload(_ container: AppGroupContainer) async {
    let updater = ListUpdater(container: container, trustedKeys: settings.providerKeys)
    while true {
      let before = container.holding()
      do {
        try await CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier: settings.extensionIdentifier)
      } catch {
        lastUpdate += "; the reload failed: \(error)"
        return
      }
      guard updater.reloadNeeded(since: before) else { return }
    }
  }
}
