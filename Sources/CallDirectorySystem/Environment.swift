#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's environment variables.
package enum Environment {
  /// The value of variable `name`, or `nil` when it is not set.
  package static func value(_ name: String) -> String? {
    guard let value = unsafe getenv(name) else { return nil }
    return unsafe String(cString: value)
  }
}
