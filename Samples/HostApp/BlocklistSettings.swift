import CallDirectory

/// What the app is configured with: the App Group, the extension, the provider.
struct BlocklistSettings: Sendable {
  /// The App Group both the app and the extension belong to.
  var appGroup: String
  /// The extension's bundle identifier, which CallKit's manager takes.
  var extensionIdentifier: String
  /// The provider's public keys: a download that none of them signed is never installed.
  var providerKeys: [PublicKey]
  /// Fetches the newest directory file from the provider (the app's networking).
  var download: @Sendable () async throws -> [UInt8]

  static let sample = BlocklistSettings(
    appGroup: "group.com.example.calldir", extensionIdentifier: "com.example.calldir.CallDirectory",
    providerKeys: [
      PublicKey(text: "calldir-ed25519-public-key 0000000000000000000000000000000000000000000000000000000000000000")!
    ],
    download: { throw DownloadUnavailable() })
}

/// The sample has no provider to download from.
struct DownloadUnavailable: Error, CustomStringConvertible {
  var description: String { "no provider is configured" }
}
