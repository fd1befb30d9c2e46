import CallDirectory
import CallDirectoryAppGroup
import CallDirectoryCallKitModel
import Foundation

// What the documentation examples use without declaring it: each example stands for a few lines of
// a program that has these at hand. Examples are compiled, never run, so none of these is ever
// evaluated.

private func given<T>() -> T { fatalError("documentation examples are compiled, not run") }

// Files and bytes.
var path: String { given() }
var groupURL: URL { given() }
var directoryBytes: [UInt8] { given() }
var changesetBytes: [UInt8] { given() }
var gzipBytes: [UInt8] { given() }
// A text input: a listing, a block list.
var bytes: [UInt8] { given() }
var downloaded: [UInt8] { given() }
var extensionID: String { given() }

// Keys and trust.
var providerKey: PublicKey { given() }
var keys: [PublicKey] { given() }
var signingKey: SigningKey { given() }
var publicKeyFileText: String { given() }
var policy: TrustPolicy { given() }
var installedVersion: UInt64 { given() }

// What a program has opened.
var reader: CallDirectoryReader { given() }
var changeset: ChangesetReader { given() }
var resolver: Resolver { given() }
var container: AppGroupContainer { given() }
var updater: ListUpdater { given() }
var loader: CallDirectoryLoader { given() }
var installed: InstalledLists { given() }
var report: VerificationReport { given() }
var cursor: FeedCursor { given() }
var stored: FeedCursor? { given() }
var number: Int64 { given() }
var label: String { given() }
// CallKit's store, as the tests' model of it (an extension has CallKit's context instead).
nonisolated(unsafe) var store: CallKitModel = given()
nonisolated(unsafe) var sink: CallKitModelLoad = given()

// What the DocC articles' snippets take as given.
var listing: [UInt8] { given() }
var ascendingNumbers: [Int64] { given() }
var bundledPublicKeyText: String { given() }
var current: CallDirectoryReader { given() }
var changes: ChangesetReader { given() }
var next: String { given() }
var changesPath: String { given() }
var appGroup: String { given() }
var providerKeys: [PublicKey] { given() }
nonisolated(unsafe) var lastInstalled: UInt64? = nil
