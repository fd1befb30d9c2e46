import Foundation
import Testing

// The service is built on Linux only (libmicrohttpd); so are its tests.
#if canImport(Glibc)
  import Glibc

  /// A `calldir serve` process on a loopback port the system chose, and `curl` to ask it.
  final class ServedProcess {
    let process: Process
    let port: Int
    private let errors: Pipe

    /// Starts `calldir serve --listen 127.0.0.1:0 ARGUMENTS` and reads its standard error until it
    /// says where it listens (or ends, which fails the test's `#require`).
    init(_ arguments: [String]) throws {
      process = Process()
      process.executableURL = URL(fileURLWithPath: CalldirExecutable.path)
      process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
      errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      var text = ""
      var found: Int?
      while found == nil {
        let chunk = errors.fileHandleForReading.availableData
        if chunk.isEmpty { break }  // the process ended without listening
        text += String(decoding: chunk, as: UTF8.self)
        if let range = text.range(of: "on http://127.0.0.1:"), let end = text[range.upperBound...].firstIndex(of: "\n") {
          found = Int(text[range.upperBound..<end])
        }
      }
      guard let found else {
        process.waitUntilExit()
        throw ServeTestError("calldir serve did not start: \(text)")
      }
      port = found
    }

    deinit {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
    }

    /// Sends SIGTERM and waits for the process to end.
    /// - Returns: its exit status and what it wrote on standard error after it started listening.
    func terminate() -> (status: Int32, errors: String) {
      kill(process.processIdentifier, SIGTERM)
      let rest = errors.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return (process.terminationStatus, String(decoding: rest, as: UTF8.self))
    }

    /// `curl -s` against this server: the status code and the body.
    func curl(_ path: String, _ options: [String] = [], body: String? = nil) throws -> (status: Int, body: String) {
      let curl = Process()
      curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
      var arguments = ["-s", "--max-time", "30", "-w", "\n%{http_code}"] + options
      if body != nil { arguments += ["--data-binary", "@-"] }
      curl.arguments = arguments + ["http://127.0.0.1:\(port)\(path)"]
      let output = Pipe()
      let input = Pipe()
      curl.standardOutput = output
      curl.standardInput = input
      try curl.run()
      try input.fileHandleForWriting.write(contentsOf: Data((body ?? "").utf8))
      try input.fileHandleForWriting.close()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      curl.waitUntilExit()
      guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
        throw ServeTestError("curl gave no status: \(text)")
      }
      // The answer's own final line feed is not part of what the tests compare.
      var body = text[..<newline]
      if body.hasSuffix("\n") { body = body.dropLast() }
      return (status, String(body))
    }

    /// The value of the metric line that starts with `series` (name and labels), if any.
    func metric(_ series: String) throws -> Double? { try metrics()[series] }

    /// Every series of one `/metrics` page (name and labels) with its value.
    func metrics() throws -> [String: Double] {
      var values: [String: Double] = [:]
      for line in try curl("/metrics").body.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " ") else { continue }
        values[String(line[..<space])] = Double(line[line.index(after: space)...])
      }
      return values
    }

    /// Asks `/metrics` until `series` reaches `value`, at most `attempts` times 50 ms apart: the
    /// server checks its files once a second.
    func waitForMetric(_ series: String, toReach value: Double, attempts: Int = 200) throws -> Double? {
      var seen: Double? = nil
      for _ in 0..<attempts {
        seen = try metric(series)
        if let seen, seen >= value { return seen }
        usleep(50_000)
      }
      return seen
    }
  }

  struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A raw HTTP/1.1 client over one loopback socket, for what curl cannot hold still: a request
  /// whose head is sent and acknowledged (`100 Continue`) before its body.
  final class RawConnection {
    let socket: Int32

    init(port: Int) throws {
      socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = UInt16(port).bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let connected = unsafe withUnsafePointer(to: &address) {
        unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          unsafe connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else { throw ServeTestError("cannot connect: \(errno)") }
    }

    deinit { close(socket) }

    func send(_ text: String) {
      let bytes = Array(text.utf8)
      var sent = 0
      while sent < bytes.count {
        let count = unsafe bytes[sent...].withUnsafeBytes {
          unsafe Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if count <= 0 { return }
        sent += count
      }
    }

    /// What has arrived already, without waiting.
    func readArrived() -> String {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = unsafe buffer.withUnsafeMutableBytes { unsafe recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    /// Reads until `marker` has arrived or the peer closes; returns what was read.
    func read(until marker: String? = nil) -> String {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = unsafe buffer.withUnsafeMutableBytes { unsafe recv(socket, $0.baseAddress, $0.count, 0) }
        if count <= 0 { break }
        received += buffer[0..<count]
        if let marker, String(decoding: received, as: UTF8.self).contains(marker) { break }
      }
      return String(decoding: received, as: UTF8.self)
    }
  }
#endif
