// swift-tools-version: 6.2
// calldir: the call directory file format and its Swift toolkit.
//
// Dependencies point one way; each target lists exactly the modules its files import.
//   Leaves: Crypto (SHA-256 and Ed25519 over plain bytes: libsodium or CryptoKit), System (POSIX
//   calls), and Format (constants, section parsers, codecs, errors; zlib, and CProcessor for the
//   prefetch hint and POPCNT).
//   Format, Crypto, System <- Writer, Reader
//   Reader <- Verifier (+ System), Lookup, Feed
//   Listing (number normaliser, CSV, gzip): Format, System
//   Resolver: Reader, Lookup, Verifier, Listing, System
//   Changeset (diff and patch): Reader, Writer, Crypto, System
//   Feed <- CallKit, CallKitModel (test support); Feed, Changeset <- FeedChangeset
//   Reader, Writer, Lookup, Verifier, Changeset, FeedChangeset, System <- AppGroup (the app's updater, the extension's loader)
//   everything above <- CallDirectory (the umbrella) <- CLI <- calldir
//   Resolver, Listing, System <- Service (the HTTP service, over libmicrohttpd) <- CLI
import PackageDescription

// Swift 6, warnings as errors: what an embedder's code is compiled with (the documentation examples).
let swift6: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .treatAllWarnings(as: .error),
  .enableUpcomingFeature("MemberImportVisibility"),
]
// The package's own code also marks every unsafe construct, and declares how long its byte views
// live (`@_lifetime`): a view of a file's bytes is `~Escapable`, so the compiler, not a comment,
// keeps it inside the life of the reader that mapped them. Lifetime annotations are still an
// experimental feature of Swift 6.2 and 6.3, one the language's steering group has undertaken not
// to break without two releases' notice; the standard library's `Span` is built on it.
let strict: [SwiftSetting] = swift6 + [.strictMemorySafety(), .enableExperimentalFeature("Lifetimes")]

// The iOS samples (Samples/CallDirectoryExtension, Samples/HostApp) are Xcode sources: on Apple
// platforms they are built in an app's project, against the real CallKit and SwiftUI. On Linux,
// stand-ins with Apple's signatures (Samples/StandIns) let `swift build` compile them, so that a
// sample that stops compiling fails CI. The stand-ins are in no product; the one thing they
// reach is CallDirectoryCallKit's adapter, which is then compiled on Linux too, over the
// stand-in CallKit (it has nothing to call there, and says so by trapping).
#if os(Linux)
  let callKitStandIn: [Target.Dependency] = ["CallKit"]
  let samples: [Target] = [
    .target(name: "CallKit", path: "Samples/StandIns/CallKit", swiftSettings: swift6),
    .target(name: "SwiftUI", path: "Samples/StandIns/SwiftUI", swiftSettings: swift6),
    .target(
      name: "CallDirectoryExtensionSample", dependencies: ["CallDirectory", "CallDirectoryCallKit", "CallKit"],
      path: "Samples/CallDirectoryExtension", exclude: ["README.md"], swiftSettings: swift6),
    .target(
      name: "HostAppSample", dependencies: ["CallDirectory", "CallKit", "SwiftUI"], path: "Samples/HostApp",
      exclude: ["README.md"], swiftSettings: swift6),
  ]
#else
  let callKitStandIn: [Target.Dependency] = []
  let samples: [Target] = []
#endif

let package = Package(
  name: "calldir",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    // The umbrella and the modules it re-exports: listed, so that the API breakage check
    // (.ci/api-breakage) reads each module's public API, which the umbrella's own module does not declare.
    .library(
      name: "CallDirectory",
      targets: [
        "CallDirectory", "CallDirectoryFormat", "CallDirectoryWriter", "CallDirectoryReader", "CallDirectoryVerifier",
        "CallDirectoryLookup", "CallDirectoryListing", "CallDirectoryResolver", "CallDirectoryChangeset", "CallDirectoryFeed",
        "CallDirectoryFeedChangeset", "CallDirectoryAppGroup",
      ]),
    // For a Call Directory extension: the feed's sink over CallKit's context (empty elsewhere).
    .library(name: "CallDirectoryCallKit", targets: ["CallDirectoryCallKit"]),
    // For tests of an extension, on any platform: a model of CallKit's Call Directory store.
    .library(name: "CallDirectoryCallKitModel", targets: ["CallDirectoryCallKitModel"]),
    .executable(name: "calldir", targets: ["calldir"]),
  ],
  targets: [
    // zlib from the system (Debian: zlib1g-dev; Apple platforms: the SDK).
    .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
    // What the processor offers that baseline Swift code cannot ask for: the prefetch hint that
    // lookups use to overlap their reads of a block, and POPCNT and BMI2 for the search inside one.
    .systemLibrary(name: "CProcessor", path: "Sources/CProcessor"),
    .target(name: "CallDirectoryFormat", dependencies: ["CZlib", "CProcessor"], swiftSettings: strict),
    // libsodium from the system (Debian: libsodium-dev), for SHA-256 where CryptoKit is absent.
    .systemLibrary(name: "CSodium", path: "Sources/CSodium", providers: [.apt(["libsodium-dev"])]),
    // SHA-256 and Ed25519 behind one small interface: libsodium on Linux, CryptoKit on Apple platforms.
    .target(
      name: "CallDirectoryCrypto",
      dependencies: [.target(name: "CSodium", condition: .when(platforms: [.linux, .android]))],
      swiftSettings: strict),
    // Thin typed wrappers over the POSIX calls (open, mmap, fsync, rename).
    .target(name: "CallDirectorySystem", swiftSettings: strict),
    .target(
      name: "CallDirectoryWriter", dependencies: ["CallDirectoryFormat", "CallDirectoryCrypto", "CallDirectorySystem"],
      swiftSettings: strict),
    .target(
      name: "CallDirectoryReader",
      dependencies: ["CallDirectoryFormat", "CallDirectoryCrypto", "CallDirectorySystem", "CProcessor"],
      swiftSettings: strict),
    .target(
      name: "CallDirectoryVerifier", dependencies: ["CallDirectoryFormat", "CallDirectoryReader", "CallDirectorySystem"],
      swiftSettings: strict),
    .target(
      name: "CallDirectoryLookup", dependencies: ["CallDirectoryFormat", "CallDirectoryReader", "CProcessor"],
      swiftSettings: strict),
    .target(
      name: "CallDirectoryListing", dependencies: ["CallDirectoryFormat", "CallDirectorySystem", "CZlib"], swiftSettings: strict),
    // Answers incoming calls across a stack of directories, following files replaced on disk.
    .target(
      name: "CallDirectoryResolver",
      dependencies: [
        "CallDirectoryFormat", "CallDirectoryReader", "CallDirectoryLookup", "CallDirectoryVerifier", "CallDirectoryListing",
        "CallDirectorySystem",
      ],
      swiftSettings: strict),
    // Changesets between two versions of a directory: diff and patch.
    .target(
      name: "CallDirectoryChangeset",
      dependencies: [
        "CallDirectoryFormat", "CallDirectoryCrypto", "CallDirectoryReader", "CallDirectoryWriter", "CallDirectorySystem",
      ],
      swiftSettings: strict),
    // Feeds a directory or a changeset to CallKit within CallKit's rules and per-load cap.
    .target(
      name: "CallDirectoryFeed", dependencies: ["CallDirectoryFormat", "CallDirectoryReader"], swiftSettings: strict),
    // The feed's adapter to CXCallDirectoryExtensionContext: empty where CallKit does not exist.
    .target(name: "CallDirectoryCallKit", dependencies: ["CallDirectoryFeed"] + callKitStandIn, swiftSettings: strict),
    // Both halves of an iOS app in its App Group container: the app's updater and the extension's loader.
    .target(
      name: "CallDirectoryAppGroup",
      dependencies: [
        "CallDirectoryFormat", "CallDirectoryReader", "CallDirectoryWriter", "CallDirectoryLookup", "CallDirectoryVerifier",
        "CallDirectoryChangeset", "CallDirectoryFeed", "CallDirectoryFeedChangeset", "CallDirectorySystem",
      ],
      swiftSettings: strict),
    // A model of CallKit's Call Directory store, refusing what CallKit refuses: test support, kept
    // out of the umbrella so that no app ships it, and a sink like the adapter above.
    .target(
      name: "CallDirectoryCallKitModel", dependencies: ["CallDirectoryFeed", "CallDirectoryFormat"], swiftSettings: strict),
    // Makes a changeset a feed's change source; apart so that neither module depends on the other.
    .target(
      name: "CallDirectoryFeedChangeset", dependencies: ["CallDirectoryFeed", "CallDirectoryChangeset"],
      swiftSettings: strict),
    .target(
      name: "CallDirectory",
      dependencies: [
        "CallDirectoryFormat", "CallDirectoryWriter", "CallDirectoryReader", "CallDirectoryVerifier",
        "CallDirectoryLookup", "CallDirectoryListing", "CallDirectoryResolver", "CallDirectoryChangeset", "CallDirectoryFeed",
        "CallDirectoryFeedChangeset", "CallDirectoryAppGroup", "CallDirectorySystem",
      ],
      swiftSettings: strict),
    // GNU libmicrohttpd from the system (Debian: libmicrohttpd-dev), for `calldir serve` only: an
    // HTTP/1.1 server library that parses requests and bounds connections, so no parser is written here.
    .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
    // The call-time HTTP service over a resolver; outside the umbrella, so that no library user links an HTTP server.
    .target(
      name: "CallDirectoryService",
      dependencies: [
        "CallDirectoryResolver", "CallDirectoryListing", "CallDirectorySystem",
        .target(name: "CMicroHTTPD", condition: .when(platforms: [.linux])),
      ],
      swiftSettings: strict),
    .target(
      name: "CallDirectoryCLI", dependencies: ["CallDirectory", "CallDirectoryService", "CallDirectorySystem"],
      swiftSettings: strict),
    .executableTarget(name: "calldir", dependencies: ["CallDirectoryCLI"], swiftSettings: strict),
    // SQLite from the system (Debian: libsqlite3-dev): a peer the benchmark measures, used by nothing else.
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .executableTarget(
      name: "calldir-bench", dependencies: ["CallDirectory", "CallDirectorySystem", "CZlib", "CSQLite", "CProcessor"],
      swiftSettings: strict),
    // The fuzzing harnesses: a replay tool in the plain build, libFuzzer's driver in .ci/fuzz's build.
    .executableTarget(
      name: "calldir-fuzz", dependencies: ["CallDirectory", "CallDirectoryService", "CallDirectorySystem"], path: "Tests/Fuzz",
      exclude: ["Corpus", "README.md"], swiftSettings: strict),
    .testTarget(
      name: "CallDirectoryTests",
      dependencies: [
        "CallDirectory", "CallDirectoryAppGroup", "CallDirectoryCallKitModel", "CallDirectoryChangeset", "CallDirectoryCLI",
        "CallDirectoryCrypto", "CallDirectoryFormat", "CallDirectoryListing", "CallDirectoryReader", "CallDirectoryService",
        "CallDirectorySystem", "CallDirectoryWriter", "CZlib",
      ],
      swiftSettings: strict),
    // The doc comments' examples, compiled (never run) so that none outlives an API change
    // (.ci/doc-examples writes Examples.swift from Sources/).
    .testTarget(
      name: "DocumentationExamples",
      dependencies: ["CallDirectory", "CallDirectoryAppGroup", "CallDirectoryCallKit", "CallDirectoryCallKitModel"],
      swiftSettings: swift6),
  ] + samples
)
