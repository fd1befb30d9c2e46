// The principal class of an Xcode Call Directory extension target. Link the `CallDirectory` and
// `CallDirectoryCallKit` library products; put the group below in both the app's and the
// extension's entitlements. The app installs lists with `ListUpdater` into the same container.
import CallDirectory
import CallDirectoryCallKit
import CallKit
import Foundation

final class CallDirectoryHandler: CXCallDirectoryProvider {
  /// The App Group both the app and the extension belong to.
  static let appGroup = "group.com.example.calldir"
  /// The provider's public keys (`calldir keygen` writes them), shipped inside the app: a file no
  /// trusted key signed is never fed. Two during a key rotation. Replace the placeholder with the
  /// line of your provider.pub.
  static let providerKeys: [PublicKey] = [
    PublicKey(text: "calldir-ed25519-public-key 0000000000000000000000000000000000000000000000000000000000000000")!
  ]

  override func beginRequest(with context: CXCallDirectoryExtensionContext) {
    guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: Self.appGroup) else {
      context.cancelRequest(withError: LoadFailure(reason: "no App Group container \(Self.appGroup)"))
      return
    }
    // The loader decides (full, nothing, resume, changeset, replace), feeds only verified files,
    // and records what CallKit will hold; it fails only a full load with no usable list.
    let loader = CallDirectoryLoader(
      container: AppGroupContainer(path: url.path), trust: TrustPolicy(trustedKeys: Self.providerKeys))
    var sink = CallKitSink(context)
    switch loader.load(into: &sink) {
    case .complete: context.completeRequest()
    case .fail(let failure): context.cancelRequest(withError: failure)
    }
  }
}
