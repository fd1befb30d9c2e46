#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension AtomicFile {
  /// The directory `path` lies in (`.` when it names none): where its temporary file goes, and a
  /// file system with room for spools of about its size.
  package static func directory(of path: String) -> String { split(path).0 }

  /// The directory for scratch files that belong to no target: `$TMPDIR`, else `/tmp`.
  package static var scratchDirectory: String {
    guard let value = unsafe getenv("TMPDIR"), unsafe value.pointee != 0 else { return "/tmp" }
    return unsafe String(cString: value)
  }
}
