// calldir-fuzz: the fuzzing harnesses of the reader, the verifier, the text parsers, the
// changeset reader and the HTTP service's requests.
//
//   calldir-fuzz HARNESS FILE|DIRECTORY...     replays inputs (the plain build; what tests and CI use)
//   calldir-fuzz HARNESS [libFuzzer flags] CORPUS...   fuzzes (the build made by .ci/fuzz)
//
// HARNESS is one of: reader, verifier, listing, number, changeset, service. Where it is not the first
// argument, CALLDIR_FUZZ_HARNESS names it: libFuzzer's -jobs starts copies of the program with
// its own flags only.
import CallDirectorySystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = CommandLine.arguments
let named = arguments.count >= 2 ? FuzzHarness(rawValue: arguments[1]) : nil
if named != nil { arguments.remove(at: 1) }
let fromEnvironment = unsafe getenv("CALLDIR_FUZZ_HARNESS").flatMap { unsafe FuzzHarness(rawValue: String(cString: $0)) }
guard let harness = named ?? fromEnvironment else {
  let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: "|")
  FuzzOutput.error("usage: calldir-fuzz \(names) FILE|DIRECTORY...")
  exit(2)
}

#if CALLDIR_LIBFUZZER
  exit(runLibFuzzer(harness, arguments: arguments))
#else
  exit(FuzzReplay.replay(harness, paths: Array(arguments.dropFirst())))
#endif
