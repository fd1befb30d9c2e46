#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension ListenAddress {
  /// Calls `body` with the address as a `sockaddr_in` or `sockaddr_in6`, valid during the call.
  /// - Throws: ``ServerError`` when the host is not an IP address written as digits.
  func withSocketAddress<Result>(
    _ body: (UnsafePointer<sockaddr>) throws(ServerError) -> Result
  ) throws(ServerError) -> Result {
    if isIPv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = port.bigEndian
      guard unsafe inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
        throw ServerError("'\(host)' is not an IPv6 address")
      }
      return try unsafe withUnsafePointer(to: &address) { (pointer) throws(ServerError) in
        try unsafe pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (rebound) throws(ServerError) in
          try unsafe body(rebound)
        }
      }
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard unsafe inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      throw ServerError("'\(host)' is not an IPv4 address (write IPv6 in brackets, [::1]:PORT)")
    }
    return try unsafe withUnsafePointer(to: &address) { (pointer) throws(ServerError) in
      try unsafe pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (rebound) throws(ServerError) in
        try unsafe body(rebound)
      }
    }
  }
}
