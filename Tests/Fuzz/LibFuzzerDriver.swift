// The libFuzzer entry, compiled only into the fuzzing build (`.ci/fuzz` passes -DCALLDIR_LIBFUZZER
// and links libFuzzer's no-main runtime), so that a plain `swift build` needs no sanitizer.
#if CALLDIR_LIBFUZZER
  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// libFuzzer's driver: parses its flags from `argv` and calls `callback` with each input.
  @_silgen_name("LLVMFuzzerRunDriver")
  func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  /// The harness the driver's callback runs; set once before the driver starts.
  nonisolated(unsafe) var fuzzedHarness = FuzzHarness.reader

  /// The driver's copy of the command line; global so that it stays reachable until the driver exits.
  nonisolated(unsafe) var driverArguments: [UnsafeMutablePointer<CChar>?] = unsafe []

  /// Hands control to libFuzzer with `arguments` (the program name first, the harness name removed).
  func runLibFuzzer(_ harness: FuzzHarness, arguments: [String]) -> Int32 {
    unsafe fuzzedHarness = harness
    unsafe driverArguments = unsafe arguments.map { unsafe strdup($0) } + [nil]
    var argc = CInt(arguments.count)
    return unsafe driverArguments.withUnsafeMutableBufferPointer { buffer in
      var argv = buffer.baseAddress
      return unsafe llvmFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = unsafe data.map { unsafe Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        unsafe fuzzedHarness.run(bytes)
        return 0
      }
    }
  }
#endif
