import CallDirectory
import SwiftUI

/// The management screen: the extension's status, Settings, the provider's list, and the user's
/// own blocked and allowed numbers and labels.
struct BlocklistView: View {
  @State var model: BlocklistModel
  @State private var typedNumber = ""
  @State private var typedLabel = ""

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
        Section("My numbers") {
          ForEach(model.personal.blocked, id: \.self) { number in Text("Blocked +\(number)") }
            .onDelete { offsets in forget(offsets, of: model.personal.blocked) }
          ForEach(model.personal.allowed, id: \.self) { number in Text("Allowed +\(number)") }
            .onDelete { offsets in forget(offsets, of: model.personal.allowed) }
          ForEach(model.personal.labelled, id: \.number) { entry in Text("+\(entry.number): \(entry.label)") }
            .onDelete { offsets in forget(offsets, of: model.personal.labelled.map(\.number)) }
          TextField("+1 202 555 0100", text: $typedNumber)
          TextField("Label", text: $typedLabel)
          HStack {
            Button("Block") { Task { await model.block(typedNumber) } }
            Button("Allow") { Task { await model.allow(typedNumber) } }
            Button("Label") { Task { await model.setLabel(typedLabel, for: typedNumber) } }
          }
          if !model.editError.isEmpty { Text(model.editError) }
        }
      }
      .navigationTitle("Call Blocking")
      .task { await model.refreshStatus() }
    }
  }

  private func forget(_ offsets: IndexSet, of numbers: [Int64]) {
    let chosen = offsets.map { numbers[$0] }
    Task { for number in chosen { await model.forget(number) } }
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
