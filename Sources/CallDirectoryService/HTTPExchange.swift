/// One HTTP request as the service reads it: the method, the path, the query as sent, the body.
package struct HTTPRequest: Sendable, Equatable {
  /// `GET`, `HEAD`, `POST`, as the client sent it.
  package var method: String
  /// The path, without the query (`/v1/resolve`).
  package var path: String
  /// The query after `?`, still percent-encoded; `nil` when the target has no `?`.
  package var query: String?
  /// The body, at most ``ServerLimits/maximumBodyBytes`` bytes.
  package var body: [UInt8]
  /// When the request line was read, in `MonotonicClock` nanoseconds (0 when unknown).
  package var receivedAt: UInt64 = 0

  /// A request.
  package init(method: String, path: String, query: String? = nil, body: [UInt8] = []) {
    self.method = method
    self.path = path
    self.query = query
    self.body = body
  }

  /// Splits a request target (`/v1/resolve?number=%2B33`) into its path and its query. A target
  /// in absolute form (`http://host/v1/resolve?...`, which RFC 9112 section 3.2.2 requires a
  /// server to accept, and which a client speaking through a proxy sends) is read without its
  /// scheme and authority.
  /// - Complexity: O(length).
  package init(method: String, target: String, body: [UInt8] = []) {
    let target = Self.originForm(of: target)
    if let mark = target.firstIndex(of: "?") {
      self.init(
        method: method, path: String(target[..<mark]), query: String(target[target.index(after: mark)...]), body: body)
    } else {
      self.init(method: method, path: target, body: body)
    }
  }

  /// `target` without the `http://host` or `https://host` it begins with (any case), from the
  /// path's `/` (`/` when the path is empty); other targets as they are.
  static func originForm(of target: String) -> String {
    let lowered = target.prefix(8).lowercased()
    guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else { return target }
    let authority = target.dropFirst(scheme.count)
    guard let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    return (authority[end] == "/" ? "" : "/") + authority[end...]
  }

  /// The value of the first query parameter `name`, percent-decoded; `nil` when the query does
  /// not name it.
  ///
  /// Unlike an HTML form's encoding, `+` stands for itself: a caller number starts with one, and
  /// PBXs put it in URLs as it is. A space is `%20`.
  ///
  ///     HTTPRequest(method: "GET", target: "/v1/resolve?number=+33%20612").queryValue("number")  // "+33 612"
  ///
  /// - Throws: ``QueryError`` for a `%` not followed by two hex digits, or bytes that are not UTF-8.
  /// - Complexity: O(length of the query).
  package func queryValue(_ name: String) throws(QueryError) -> String? {
    guard let query else { return nil }
    for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
      let key = pair.prefix { $0 != "=" }
      guard try Self.percentDecoded(key) == name else { continue }
      return try Self.percentDecoded(pair.dropFirst(key.count + (key.count < pair.count ? 1 : 0)))
    }
    return nil
  }

  /// `text` with each `%XX` replaced by its byte.
  private static func percentDecoded(_ text: Substring) throws(QueryError) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        throw QueryError("'%' not followed by two hex digits in the query")
      }
      bytes.append(high << 4 | low)  // two 4-bit values: at most 255
    }
    guard let decoded = String(validating: bytes, as: UTF8.self) else { throw QueryError("the query is not UTF-8") }
    return decoded
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}

/// A query that cannot be decoded.
package struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with it.
  package var description: String
  /// An error saying `description`.
  package init(_ description: String) { self.description = description }
}

/// One HTTP response: a status, a media type, a body and any further headers.
package struct HTTPResponse: Sendable, Equatable {
  /// The status code (200, 404).
  package var status: Int
  /// The `Content-Type` header.
  package var contentType: String
  /// The body.
  package var body: [UInt8]
  /// Further headers, in order (`Allow: GET, HEAD`).
  package var headers: [Header]

  /// One header line.
  package struct Header: Sendable, Equatable {
    /// Its name.
    package var name: String
    /// Its value.
    package var value: String

    /// A header `name: value`.
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// A response.
  package init(status: Int, contentType: String, body: [UInt8], headers: [Header] = []) {
    self.status = status
    self.contentType = contentType
    self.body = body
    self.headers = headers
  }

  /// A plain-text response: `text` and a newline.
  package static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
  }

  /// A JSON response: `json` and a newline.
  package static func json(_ status: Int, _ json: String) -> HTTPResponse {
    HTTPResponse(status: status, contentType: "application/json", body: Array((json + "\n").utf8))
  }
}
