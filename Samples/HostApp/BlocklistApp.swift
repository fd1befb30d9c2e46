// The host app of the Call Directory extension sample: one screen that shows whether the user has
// turned call blocking on, opens Settings, updates the provider's list and edits the user's own
// numbers. In an Xcode app target this struct carries `@main`; the package compiles it on Linux
// against stand-ins, where it is not an executable.
import SwiftUI

struct BlocklistApp: App {
  var body: some Scene {
    WindowGroup {
      BlocklistView(model: BlocklistModel(settings: .sample))
    }
  }
}
