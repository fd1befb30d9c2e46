#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The monotonic clock, for deciding when periodic work is due.
package enum MonotonicClock {
  /// Nanoseconds since an arbitrary fixed point, from `clock_gettime(CLOCK_MONOTONIC)`.
  ///
  /// Never goes backwards (unlike the wall clock, which may be set); about 20 ns through the vDSO.
  package static func nanoseconds() -> UInt64 {
    var time = timespec()
    _ = unsafe clock_gettime(CLOCK_MONOTONIC, &time)
    // tv_sec and tv_nsec are non-negative for CLOCK_MONOTONIC; a 64-bit count wraps after 584 years.
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }
}
