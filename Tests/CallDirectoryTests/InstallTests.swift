import CallDirectory
import Foundation
import Testing

/// `Samples/install.sh` into a temporary prefix under DESTDIR, with the binary this build made
/// (CI also installs the static release build): the files land where the script says, and the
/// installed binary, manual and completions work. The version is written in one place, which
/// `--version`, the manual and the newest release of `CHANGELOG.md` all show.
@Suite struct InstallTests {
  private static let root = SpecVectorTests.root

  @Test func installsIntoDestdirAndPrefixAndTheInstalledBinaryWorks() throws {
    let scratch = try ScratchDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["DESTDIR"] = scratch.path("stage")
    environment["PREFIX"] = "/opt/calldir"
    environment["CALLDIR_BINARY"] = CalldirExecutable.path
    let (status, said) = try runProcess(
      "/bin/bash", [Self.root.appendingPathComponent("Samples/install.sh").path], environment: environment)
    #expect(status == 0)
    let prefix = scratch.path("stage/opt/calldir")
    #expect(said == "installed calldir \(CallDirectoryRelease.version) into \(prefix)\n")
    for file in [
      "bin/calldir", "share/man/man1/calldir.1", "share/bash-completion/completions/calldir",
      "share/zsh/site-functions/_calldir", "share/fish/vendor_completions.d/calldir.fish",
    ] {
      let size = try FileManager.default.attributesOfItem(atPath: "\(prefix)/\(file)")[.size] as? Int
      #expect((size ?? 0) > 100, "\(file)")
    }
    #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/calldir"))

    let (_, version) = try runProcess("\(prefix)/bin/calldir", ["--version"])
    #expect(version.hasPrefix("calldir \(CallDirectoryRelease.version) (call directory format "))
    let manual = try String(contentsOfFile: "\(prefix)/share/man/man1/calldir.1", encoding: .utf8)
    #expect(manual.hasPrefix(".TH CALLDIR 1 \"\" \"calldir \(CallDirectoryRelease.version)\""))
  }

  @Test func theVersionIsTheNewestReleaseInTheChangelog() throws {
    let changelog = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
    let releases = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") && !$0.hasPrefix("## Unreleased") }
    let newest = try #require(releases.first)
    #expect(newest.hasPrefix("## \(CallDirectoryRelease.version) "), "\(newest)")
    let parts = CallDirectoryRelease.version.split(separator: ".")
    #expect(parts.count == 3 && parts.allSatisfy { UInt($0) != nil }, "semantic version")
  }
}
