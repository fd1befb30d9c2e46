/// The toolkit's release: the one place its version is written. `calldir --version` shows it,
/// the manual page carries it, and a test holds it to the newest release in `CHANGELOG.md`.
///
///     print("calldir \(CallDirectoryRelease.version)")  // calldir 0.1.0
public enum CallDirectoryRelease {
  /// The semantic version of this release (`MAJOR.MINOR.PATCH`): the library's public API and the
  /// command line's options and output follow semantic versioning; the file formats have their
  /// own versions (`FormatVersion`, `Spec/FORMAT.md` section 11).
  public static let version = "0.1.0"
}
