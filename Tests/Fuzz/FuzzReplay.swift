import CallDirectorySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a harness over saved inputs: files, and every regular file in the directories given.
enum FuzzReplay {
  /// The exit status: 0 when every input ran (a finding traps instead), 1 when an input could not be read.
  static func replay(_ harness: FuzzHarness, paths: [String]) -> Int32 {
    var count = 0
    var failures = 0
    for path in paths {
      for file in files(at: path) {
        do {
          let descriptor = try FileDescriptor.openForReading(file)
          let bytes = try descriptor.closeAfter { () throws(SystemError) in try descriptor.readAll() }
          harness.run(bytes)
          count += 1
        } catch {
          FuzzOutput.error("calldir-fuzz: \(error)")
          failures += 1
        }
      }
    }
    FuzzOutput.line("\(harness.rawValue): \(count) inputs replayed")
    return failures == 0 ? 0 : 1
  }

  /// `path` itself, or the regular files directly inside it when it is a directory, sorted.
  static func files(at path: String) -> [String] {
    guard let directory = unsafe opendir(path) else { return [path] }
    defer { unsafe closedir(directory) }
    var names: [String] = []
    while let entry = unsafe readdir(directory) {
      // Read in place, up to the NUL: a record is only as long as its name (`d_reclen`).
      let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
      let name = unsafe String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
      if name == "." || name == ".." { continue }
      var status = stat()
      let full = path + "/" + name
      if unsafe stat(full, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG { names.append(full) }
    }
    return names.sorted()
  }
}

/// Writes lines to standard output and standard error.
enum FuzzOutput {
  static func line(_ text: String) { print(text) }
  static func error(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    try? FileDescriptor.standardError.writeAll(bytes)
  }
}
