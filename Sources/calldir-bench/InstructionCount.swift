import CallDirectory
import Foundation

/// Instructions per lookup, counted by Valgrind's callgrind where it is installed: exact, and the
/// same on any machine, where times depend on the machine and its load.
///
/// The count is taken in a child process, this executable run as
/// `calldir-bench --instructions-child PEER DIRECTORY NUMBERS QUERIES` under
/// `valgrind --tool=callgrind --toggle-collect=*countedLookups*`: the child builds its peer and
/// looks every query up once uncounted (so a reader's first-use checks are done), then once
/// inside `countedLookups`, the only function whose instructions are collected. The loop's own
/// few instructions a lookup are in every peer's count alike.
enum InstructionCount {
  /// The peers a child can count.
  enum Peer: String, CaseIterable {
    /// `CallDirectoryReader.isBlocked(_:)`.
    case calldir
    /// `CallDirectoryReader.labelId(for:)`.
    case calldirLabelId = "calldir-label-id"
    /// `CallDirectoryReader.label(for:)`.
    case calldirLabel = "calldir-label"
    /// Binary search over a sorted `[Int64]`.
    case array
    /// The Eytzinger array with prefetch.
    case eytzinger
  }

  /// Valgrind's path, or `nil` when it is not installed.
  static let valgrind: String? = {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return directories.map { "\($0)/valgrind" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Instructions per lookup of each of `peers` over `queries`, against the directory at
  /// `directory` and the same numbers ascending in `numbers` (raw little-endian `Int64`s), or
  /// `nil` for each when Valgrind is absent or the child fails.
  static func count(
    _ peers: [Peer], directory: String, numbers: String, queries: [Int64], scratch: String
  ) -> [Double?] {
    guard let valgrind, !queries.isEmpty else { return peers.map { _ in nil } }
    let queryPath = scratch + "/instruction-queries.i64"
    do { try MappedSortedFile.write(queries, to: queryPath) } catch { return peers.map { _ in nil } }
    defer { try? FileManager.default.removeItem(atPath: queryPath) }
    return peers.map { peer in
      let output = scratch + "/callgrind.\(peer.rawValue).out"
      defer { try? FileManager.default.removeItem(atPath: output) }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: valgrind)
      process.arguments = [
        "--tool=callgrind", "--callgrind-out-file=\(output)", "--toggle-collect=*countedLookups*",
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
        "--instructions-child", peer.rawValue, directory, numbers, queryPath,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      do { try process.run() } catch { return nil }
      process.waitUntilExit()
      guard process.terminationStatus == 0, let text = try? String(contentsOfFile: output, encoding: .utf8),
        let totals = text.split(separator: "\n").last(where: { $0.hasPrefix("totals:") }),
        let instructions = Double(totals.dropFirst("totals:".count).trimmingCharacters(in: .whitespaces))
      else { return nil }
      return instructions / Double(queries.count)
    }
  }

  /// The child's side: builds the peer named by `arguments[0]` and looks the queries up twice,
  /// the second time counted. Exit code 0, or 2 when the arguments or files are not usable.
  static func main(_ arguments: [String]) -> Int32 {
    guard arguments.count == 4, let peer = Peer(rawValue: arguments[0]) else { return 2 }
    do {
      let queries = try MappedSortedFile.load(arguments[3])
      let reader = try CallDirectoryReader(path: arguments[1])
      let numbers = peer == .array || peer == .eytzinger ? try MappedSortedFile.load(arguments[2]) : []
      let sink = Sink()
      switch peer {
      case .calldir: sink.consume(twice(BlockedLookup(reader: reader), queries))
      case .calldirLabelId: sink.consume(twice(LabelIdLookup(reader: reader), queries))
      case .calldirLabel: sink.consume(twice(LabelLookup(reader: reader), queries))
      case .array:
        sink.consume(twice(SortedArrayPeer(numbers: numbers, labelIndices: [], labels: []), queries))
      case .eytzinger: sink.consume(twice(EytzingerPeer(sorted: numbers), queries))
      }
      return 0
    } catch {
      return 2
    }
  }

  /// One uncounted pass over `queries`, then the counted one. The uncounted pass goes backwards,
  /// so that the optimizer cannot fold it into a call of the counted function.
  private static func twice<P: LookupPeer>(_ peer: P, _ queries: [Int64]) -> Int {
    var checksum = 0
    for query in queries.reversed() { checksum &+= peer.find(query) }
    return checksum &+ countedLookups(peer, queries)
  }

  /// The function whose instructions callgrind collects: every query looked up once.
  @inline(never)
  private static func countedLookups<P: LookupPeer>(_ peer: P, _ queries: [Int64]) -> Int {
    var checksum = 0
    for query in queries { checksum &+= peer.find(query) }
    return checksum
  }
}
