import CallDirectorySystem

extension Inputs {
  /// Refuses an output that is the input file itself: the same file (device and inode), whatever
  /// the names say (`./list.calldir`, a hard link, a symbolic link to it).
  ///
  /// Writing it would replace the input with the command's output when the write is renamed
  /// into place. Standard input and output are never the same file as a path.
  /// - Throws: `CommandFailure` naming both.
  static func refuseReplacingInput(_ input: String, with output: String) throws(CommandFailure) {
    guard input != "-", output != "-", let inputFile = try? FileIdentity(path: input),
      let outputFile = try? FileIdentity(path: output), inputFile == outputFile
    else { return }
    throw CommandFailure("\(output): is the input \(input); writing it would replace the input (give another -o)")
  }
}
