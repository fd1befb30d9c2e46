import CallDirectory
import Foundation

/// The format error `body` throws, directly or as a stream's; `nil` when it throws another error
/// or none: for tests that name the error they expect.
func formatError(_ body: () throws -> some Any) -> FormatError? {
  do {
    _ = try body()
    return nil
  } catch let error as FormatError {
    return error
  } catch let error as StreamError<Never> {
    if case .format(let error) = error { return error }
    return nil
  } catch {
    return nil
  }
}

/// SplitMix64: a small seeded generator, so every random test prints its seed and can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `count` distinct numbers of `first ..< first + span`, ascending, drawn with seed `seed`.
  static func distinctNumbers(_ count: Int, from first: Int64, span: Int64, seed: UInt64) -> [Int64] {
    var random = SeededGenerator(seed: seed)
    var set = Set<Int64>()
    while set.count < count { set.insert(first + Int64.random(in: 0..<span, using: &random)) }
    return set.sorted()
  }
}

/// A directory's contents as plain values, for comparing what went in with what came out.
struct Contents: Equatable, CustomStringConvertible {
  var blocking: [Int64] = []
  var identification: [(Int64, String)] = []

  static func == (a: Contents, b: Contents) -> Bool {
    a.blocking == b.blocking && a.identification.elementsEqual(b.identification) { $0.0 == $1.0 && $0.1 == $1.1 }
  }

  var description: String { "\(blocking.count) blocking, \(identification.count) identification" }

  /// The file bytes of these contents.
  func encoded(options: DirectoryBuilder.Options = .init()) throws -> [UInt8] {
    var builder = DirectoryBuilder(options: options)
    for number in blocking { try builder.block(number) }
    for (number, label) in identification { try builder.identify(number, label: label) }
    return try builder.encoded()
  }

  /// Everything a reader streams out.
  static func read(_ reader: CallDirectoryReader) throws -> Contents {
    var contents = Contents()
    try reader.forEachBlocking { contents.blocking.append($0) }
    try reader.forEachIdentification { contents.identification.append(($0, $1)) }
    return contents
  }

  /// Sorted, duplicate-free contents (what a directory of these entries must give back).
  var canonical: Contents {
    var result = Contents()
    result.blocking = Array(Set(blocking)).sorted()
    var seen: [Int64: String] = [:]
    for (number, label) in identification { seen[number] = label }
    result.identification = seen.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    return result
  }
}

/// Runs `program` with `arguments` and `environment` (this process's when `nil`) to its end.
/// - Returns: its exit status and standard output (standard error is left to the test's).
func runProcess(
  _ program: String, _ arguments: [String], environment: [String: String]? = nil
) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return (process.terminationStatus, output)
}
