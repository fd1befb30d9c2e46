import CallDirectory
import CallDirectorySystem

/// Key files: reading public and private keys for the commands that sign and check.
enum Keys {
  /// The public key in the file at `path` (a `.pub` file, or 64 hex digits).
  static func publicKey(_ path: String) throws(CommandFailure) -> PublicKey {
    let text = String(decoding: try keyFile(path), as: UTF8.self)
    guard let key = PublicKey(text: text) else {
      throw CommandFailure("\(path): not a public key (expected one line: calldir-ed25519-public-key HEX)")
    }
    return key
  }

  /// The public keys in `paths`, each with the path it came from for messages.
  static func trusted(_ paths: [String]) throws(CommandFailure) -> [(PublicKey, String)] {
    var keys: [(PublicKey, String)] = []
    for path in paths { keys.append((try publicKey(path), path)) }
    return keys
  }

  /// The private key in the file at `path` (a `.key` file from `calldir keygen`).
  static func signingKey(_ path: String) throws(CommandFailure) -> SigningKey {
    let text = String(decoding: try keyFile(path), as: UTF8.self)
    guard let key = SigningKey(text: text) else {
      throw CommandFailure("\(path): not a private key (expected one line: calldir-ed25519-secret-key HEX)")
    }
    return key
  }

  /// The bytes of the key file at `path`: a regular file of at most
  /// `Inputs.maximumKeyFileBytes`, so that a device, a FIFO or a huge file is refused at once.
  private static func keyFile(_ path: String) throws(CommandFailure) -> [UInt8] {
    try Inputs.readRegularFile(path, limit: Inputs.maximumKeyFileBytes, role: "a key file")
  }

  /// `key` described with the file that holds it, for messages: `key 0123abcd… (provider.pub)`.
  static func describe(_ key: PublicKey, among trusted: [(PublicKey, String)]) -> String {
    let file = trusted.first { $0.0 == key }?.1
    return "key \(key.id)" + (file.map { " (\($0))" } ?? "")
  }
}

/// `calldir keygen`: writes a new key pair, the private key readable by its owner only.
struct Keygen {
  let output: String
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let key = SigningKey.generate()
    let secretPath = output + ".key"
    let publicPath = output + ".pub"
    // Created exclusively: an existing key is never overwritten, so a key in use cannot be lost.
    // The private key just made is removed again when the public one cannot be created, so that
    // a refused keygen leaves nothing that makes the next try fail.
    try write(key.fileText, to: secretPath, mode: 0o600)
    do { try write(key.publicKey.fileText, to: publicPath, mode: 0o644) } catch {
      try? FileDescriptor.remove(secretPath)
      throw error
    }
    do {
      try console.print("wrote \(secretPath) (private: keep it secret) and \(publicPath) (public: give it to consumers)")
      try console.print("key id \(key.publicKey.id)")
    } catch {
      throw CommandFailure("cannot write: \(error.message)")
    }
    return CLI.ExitCode.success
  }

  /// Creates `path` holding `text`; when the write fails after the file was made (a full
  /// disk), the file is removed again, so that no empty key is left to make the retry fail.
  private func write(_ text: String, to path: String, mode: UInt32) throws(CommandFailure) {
    let file: FileDescriptor
    do { file = try FileDescriptor.createExclusive(path, mode: .init(mode)) } catch {
      throw CommandFailure("\(path): cannot create: \(error.message)")
    }
    do throws(SystemError) {
      try file.closeAfter { () throws(SystemError) in
        try file.writeAll(Array(text.utf8))
        try file.sync()
      }
    } catch {
      try? FileDescriptor.remove(path)
      throw CommandFailure("\(path): cannot write: \(error.message)")
    }
  }
}

/// `calldir sign`: signs a directory or a changeset (told apart by their magic), atomically.
struct Sign {
  let file: String
  let key: String
  let output: String?
  let console: Console

  func run() throws(CommandFailure) -> Int32 {
    let signingKey = try Keys.signingKey(key)
    // A FIFO would hang the read and a device would never end: only files and standard input.
    if file != "-" { try Inputs.requireRegularFile(file, role: "the file to sign") }
    let target = output ?? file
    if file != "-", FileDescriptor.isRegularFile(file), try !isChangeset() {
      // A directory file is mapped and signed into the output as it is copied: no copy of it in
      // memory, whatever its size (the target replaces it atomically when it is the same file).
      // It is read twice, to hash and to copy: a file written to in place meanwhile gives a
      // signature that does not verify (publishing by rename, as calldir does, is safe). Pipes
      // and devices are read whole, as standard input is.
      try signMappedDirectory(with: signingKey, to: target)
    } else {
      let bytes =
        file == "-" ? try Inputs.readDirectoryInput(console: console, orChangeset: true) : try Inputs.read(file, console: console)
      let signed: [UInt8]
      if bytes.starts(with: Inputs.changesetMagic) {
        do throws(ChangesetError) { signed = try ChangesetSigner.sign(bytes, key: signingKey) } catch {
          throw CommandFailure("\(Inputs.displayName(file)): \(error)")
        }
      } else {
        do throws(FormatError) {
          try Self.checkValid(Verifier.verify(bytes))
          signed = try DirectorySigner.sign(bytes, key: signingKey)
        } catch {
          throw CommandFailure("\(Inputs.displayName(file)): \(error)")
        }
      }
      try Inputs.write(signed, to: target, console: console)
    }
    console.summary("signed \(Inputs.outputName(target)) with key \(signingKey.publicKey.id)")
    return CLI.ExitCode.success
  }

  /// A signature vouches for the bytes: a directory that does not verify is not signed, and the
  /// first problem is the error.
  private static func checkValid(_ report: VerificationReport) throws(FormatError) {
    if let problem = report.problems.first(where: { !$0.isCallKitLimit }) { throw problem.error }
  }

  /// Whether `file` starts as a changeset does (a short read: the rest is not loaded).
  private func isChangeset() throws(CommandFailure) -> Bool {
    do {
      let descriptor = try FileDescriptor.openForReading(file)
      return try descriptor.closeAfter { () throws(SystemError) in
        var head = [UInt8](repeating: 0, count: Inputs.changesetMagic.count)
        let read = try unsafe head.withUnsafeMutableBytes { raw in
          Result { () throws(SystemError) in try unsafe descriptor.read(into: raw, at: 0) }
        }.get()
        return read == head.count && head == Inputs.changesetMagic
      }
    } catch {
      throw CommandFailure("\(Inputs.displayName(file)): cannot read: \(error.message)")
    }
  }

  /// Signs the directory at `file`, mapped, into `target`.
  private func signMappedDirectory(with signingKey: SigningKey, to target: String) throws(CommandFailure) {
    try Inputs.write(to: target, console: console) { (sink) throws(CommandFailure) in
      // The signer's sink cannot throw: the first write failure is kept and the rest skipped.
      var failure: CommandFailure?
      let signed: Result<Void, FormatError>
      do throws(SystemError) {
        signed = try CallDirectoryReader.withMappedBytes(path: file) { view in
          Result { () throws(FormatError) in
            try Self.checkValid(Verifier.verify(view))
            try DirectorySigner.sign(view, key: signingKey) { piece in
              guard failure == nil else { return }
              do throws(SystemError) { try sink(piece) } catch {
                failure = CommandFailure("\(Inputs.outputName(target)): cannot write: \(error.message)")
              }
            }
          }
        }
      } catch {
        throw CommandFailure("\(file): cannot open: \(error.message)")
      }
      if let failure { throw failure }
      do throws(FormatError) { try signed.get() } catch { throw CommandFailure("\(Inputs.displayName(file)): \(error)") }
    }
  }
}
