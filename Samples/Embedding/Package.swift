// swift-tools-version: 6.2
// A program that embeds the calldir library, as an app or a service would: it depends on the
// repository by path, so CI building it proves the library's public API still serves that use.
import PackageDescription

let package = Package(
  name: "embedding-demo",
  dependencies: [
    // The repository itself; named, so the product resolves whatever the checkout's folder is called.
    .package(name: "calldir", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "embedding-demo",
      dependencies: [
        .product(name: "CallDirectory", package: "calldir"),
        // What a Call Directory extension links besides; empty where CallKit does not exist.
        .product(name: "CallDirectoryCallKit", package: "calldir"),
      ],
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .strictMemorySafety(),
        .treatAllWarnings(as: .error),
        .enableUpcomingFeature("MemberImportVisibility"),
      ])
  ]
)
