import SwiftUI

/// The management screen: the extension's status, Settings, and the provider's list.
struct BlocklistView: View {
  @State var model: BlocklistModel

  var body: some View {
    NavigationStack {
      List {
        Section("Call blocking") {
          Text(statusText)
          if model.status != .enabled {
            Button("Open Settings") { Task { await model.openSettings() } }
          }
        }
        Section("Provider's list") {
          Text(model.lastUpdate.isEmpty ? "not updated yet" : model.lastUpdate)
          Button("Update now") { Task { await model.update() } }
            .disabled(model.isUpdating)
        }
      }
      .navigationTitle("Call Blocking")
      .task { await model.refreshStatus() }
    }
  }

  private var statusText: String {
    switch model.status {
    case .checking: "Checking…"
    case .enabled: "On: calls are blocked and identified"
    case .disabled: "Off: turn it on in Settings > Phone > Call Blocking & Identification"
    case .unknown: "Unknown"
    case .failed(let message): "Could not ask: \(message)"
    }
  }
}
