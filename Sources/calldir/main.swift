import CallDirectoryCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Each argument as its bytes: `CommandLine.arguments` would have replaced bytes that are not
// UTF-8, which the tool refuses instead (`CLI.main(bytes:console:)`).
let arguments = (1..<Int(CommandLine.argc)).map { index in
  unsafe CommandLine.unsafeArgv[index].map { unsafe Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
    .map { $0.map { UInt8(bitPattern: $0) } } ?? []
}
exit(CLI.main(bytes: arguments, console: .standard()))
