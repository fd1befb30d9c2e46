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
  /// The user's own blocks and labels, merged into what CallKit is fed.
  private(set) var personal = PersonalList()
  /// Why the last edit of the user's list was refused, if it was.
  private(set) var editError = ""
  /// The last update's outcome, in a line for the screen.
  private(set) var lastUpdate = ""
  private(set) var isUpdating = false

  private let settings: BlocklistSettings
  private let container: AppGroupContainer?

  init(settings: BlocklistSettings) {
    self.settings = settings
    container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: settings.appGroup)
      .map { AppGroupContainer(path: $0.path) }
    personal = container?.personalList() ?? PersonalList()
  }

  /// Blocks the number the user typed (`+44 20 7946 0958`, or national digits of `region`).
  func block(_ text: String, region: String = "US") async {
    await edit(text, region: region) { (list, number) throws(PersonalListError) in try list.block(number) }
  }

  /// Lets the number the user typed ring whatever the provider's list says.
  func allow(_ text: String, region: String = "US") async {
    await edit(text, region: region) { (list, number) throws(PersonalListError) in try list.allow(number) }
  }

  /// Shows `label` when the number the user typed calls.
  func setLabel(_ label: String, for text: String, region: String = "US") async {
    await edit(text, region: region) { (list, number) throws(PersonalListError) in try list.setLabel(label, for: number) }
  }

  /// Takes the user's own entries for `number` away: the provider's list decides again.
  func forget(_ number: Int64) async {
    var list = personal
    list.unlist(number)
    try? list.setLabel(nil, for: number)
    await save(list)
  }

  private func edit(
    _ text: String, region: String, _ change: (inout PersonalList, Int64) throws(PersonalListError) -> Void
  ) async {
    do {
      let number = try PhoneNumberParser(defaultRegion: region).parse(text)
      var list = personal
      try change(&list, number)
      await save(list)
    } catch {
      editError = "\(error)"
    }
  }

  /// Saves the user's list and reloads: the extension sends CallKit the numbers that changed.
  private func save(_ list: PersonalList) async {
    guard let container else { return }
    do {
      try container.save(list)
      personal = list
      editError = ""
      await reload(container)
    } catch {
      editError = "not saved: \(error)"
    }
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
