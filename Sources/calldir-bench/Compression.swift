import CZlib
import Foundation

/// A compressor program run on a file, the way a user would: `gzip -9 -n -c FILE > FILE.gz`.
struct ExternalCompressor {
  /// The name in tables ("gzip -9").
  let name: String
  /// The program, looked up on `PATH`.
  let program: String
  /// Its arguments before the input file.
  let arguments: [String]
  /// The suffix of the output file.
  let suffix: String

  /// `gzip -9 -n` (no name or time stamp in the header) and `xz -9`.
  static let standard = [
    ExternalCompressor(name: "gzip -9", program: "gzip", arguments: ["-9", "-n", "-c"], suffix: ".gz"),
    ExternalCompressor(name: "xz -9", program: "xz", arguments: ["-9", "-c"], suffix: ".xz"),
  ]

  /// What one compressor made of a file.
  struct Result {
    /// The compressor's name.
    let name: String
    /// The output file, when the program ran and succeeded.
    let output: String?
    /// The output's size in bytes.
    let bytes: Int?
    /// Wall-clock seconds from launch to exit.
    let seconds: Double
  }

  /// Runs every compressor on `path` at once (one core each) and waits for all of them.
  static func compress(_ path: String, with compressors: [ExternalCompressor]) -> [Result] {
    let start = monotonicNanoseconds()
    var processes: [Process?] = []
    for compressor in compressors {
      let output = path + compressor.suffix
      _ = FileManager.default.createFile(atPath: output, contents: nil)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [compressor.program] + compressor.arguments + [path]
      process.standardOutput = FileHandle(forWritingAtPath: output)
      process.standardError = FileHandle.nullDevice
      do {
        try process.run()
        processes.append(process)
      } catch {
        processes.append(nil)
      }
    }
    var ends = [UInt64?](repeating: nil, count: processes.count)
    while ends.indices.contains(where: { ends[$0] == nil && processes[$0]?.isRunning == true }) {
      for index in processes.indices where ends[index] == nil && processes[index]?.isRunning == false {
        ends[index] = monotonicNanoseconds()
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return compressors.indices.map { index in
      let end = ends[index] ?? monotonicNanoseconds()
      let seconds = Double(end &- start) / 1e9
      guard let process = processes[index], process.terminationStatus == 0 else {
        return Result(name: compressors[index].name, output: nil, bytes: nil, seconds: seconds)
      }
      let output = path + compressors[index].suffix
      return Result(name: compressors[index].name, output: output, bytes: Files.size(output), seconds: seconds)
    }
  }
}

/// Reading a gzip listing back with zlib: the least a reader of a compressed listing must do.
enum Gunzip {
  /// Inflates the gzip file `compressed` and counts its lines (LF bytes), or returns `nil` when
  /// the stream is damaged. Memory: one 256 KiB output buffer.
  static func lineCount(_ compressed: [UInt8]) -> Int? {
    var stream = unsafe z_stream()
    // windowBits 15 + 16: a gzip wrapper, 32 KiB window.
    guard unsafe inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      return nil
    }
    defer { _ = unsafe inflateEnd(&stream) }
    var buffer = [UInt8](repeating: 0, count: 1 << 18)
    var lines = 0
    let finished = unsafe compressed.withUnsafeBytes { source -> Bool in
      unsafe stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
      unsafe stream.avail_in = uInt(source.count)  // listings here are far below 4 GiB
      return unsafe buffer.withUnsafeMutableBytes { target -> Bool in
        while true {
          unsafe stream.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
          unsafe stream.avail_out = uInt(target.count)
          let status = unsafe inflate(&stream, Z_NO_FLUSH)
          let produced = target.count - Int(unsafe stream.avail_out)
          for index in 0..<produced where unsafe target[index] == 10 { lines += 1 }
          if status == Z_STREAM_END { return true }
          if status != Z_OK { return false }
        }
      }
    }
    return finished ? lines : nil
  }
}
