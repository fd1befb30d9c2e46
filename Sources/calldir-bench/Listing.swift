import CallDirectory
import CallDirectorySystem
import Foundation

/// The sorted text listing `calldir unpack` writes, the size peer of the binary file.
///
/// A `kind,number,label` header, then one row per entry in ascending number order, blocking
/// entries first, numbers in E.164 with a `+`, fields quoted as RFC 4180 says (a field holding a
/// comma, quote, CR or LF is quoted and its quotes doubled); rows end with LF.
///
///     kind,number,label
///     block,+12025550100,
///     identify,+12025550123,"Bank, Springfield"
enum Listing {
  /// The listing of `dataset` as UTF-8 bytes.
  static func csv(_ dataset: Dataset) -> [UInt8] {
    var text: [UInt8] = Array("kind,number,label\n".utf8)
    text.reserveCapacity(dataset.count * 24)
    let kind = Array(dataset.kind.rawValue.utf8)
    for (entry, number) in dataset.numbers.enumerated() {
      text.append(contentsOf: kind)
      text.append(contentsOf: ",+".utf8)
      text.append(contentsOf: String(number).utf8)
      text.append(UInt8(ascii: ","))
      if dataset.kind == .identification { appendField(dataset.labels[Int(dataset.labelIndices[entry])], to: &text) }
      text.append(UInt8(ascii: "\n"))
    }
    return text
  }

  /// Appends `field`, quoted when it holds a comma, a quote, CR or LF.
  static func appendField(_ field: String, to text: inout [UInt8]) {
    let needsQuotes = field.utf8.contains {
      $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13
    }
    guard needsQuotes else {
      text.append(contentsOf: field.utf8)
      return
    }
    text.append(UInt8(ascii: "\""))
    for byte in field.utf8 {
      if byte == UInt8(ascii: "\"") { text.append(byte) }
      text.append(byte)
    }
    text.append(UInt8(ascii: "\""))
  }
}

/// File helpers for the benchmark's scratch directory.
enum Files {
  /// Writes `bytes` to `path`, replacing it.
  static func write(_ bytes: [UInt8], to path: String) throws(BenchError) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw .io("cannot write \(path)") }
  }

  /// The bytes of the file at `path`.
  static func read(_ path: String) throws(BenchError) -> [UInt8] {
    do {
      let file = try FileDescriptor.openForReading(path)
      return try file.closeAfter { () throws(SystemError) in try file.readAll() }
    } catch {
      throw .io("cannot read \(path): \(error.message)")
    }
  }

  /// The size of the file at `path`, or `nil` when there is none.
  static func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
  }

  /// A new empty directory under the system's temporary directory.
  static func makeScratchDirectory() throws(BenchError) -> String {
    let path = NSTemporaryDirectory() + "calldir-bench-\(ProcessInfo.processInfo.processIdentifier)"
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw .io("cannot create \(path): \(error)")
    }
    return path
  }

  /// Removes `path` and everything in it.
  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
  }
}
