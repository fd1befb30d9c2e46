/// Where the service listens: an IPv4 or IPv6 address and a port, loopback unless told otherwise.
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The address as digits (`127.0.0.1`, `::1`).
  package var host: String
  /// The port; 0 asks the system for a free one.
  package var port: UInt16

  /// The default: IPv4 loopback, port 8053.
  package static let loopback = ListenAddress(host: "127.0.0.1", port: 8053)

  /// An address.
  package init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Reads `ADDR:PORT`, `[IPV6]:PORT`, `localhost:PORT` or a bare `PORT` (on loopback).
  ///
  ///     try ListenAddress(parsing: "[::1]:8053").host   // "::1"
  ///
  /// - Throws: ``QueryError`` naming what is wrong (the address itself is checked when bound).
  /// - Complexity: O(length).
  package init(parsing text: String) throws(QueryError) {
    var host = Self.loopback.host
    var portText = Substring(text)
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
        throw QueryError("'\(text)' is not [IPV6]:PORT")
      }
      host = String(text[text.index(after: text.startIndex)..<close])
      portText = text[text.index(close, offsetBy: 2)...]
    } else if let colon = text.lastIndex(of: ":") {
      guard text.firstIndex(of: ":") == colon else { throw QueryError("write an IPv6 address in brackets: [\(text)]") }
      host = String(text[..<colon])
      portText = text[text.index(after: colon)...]
    }
    if host == "localhost" { host = Self.loopback.host }
    guard !host.isEmpty else { throw QueryError("'\(text)' has no address before the port") }
    guard let port = UInt16(portText) else { throw QueryError("'\(portText)' is not a port (0 to 65535)") }
    self.init(host: host, port: port)
  }

  /// Whether the address is IPv6.
  package var isIPv6: Bool { host.contains(":") }

  /// `127.0.0.1:8053` or `[::1]:8053`.
  package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
