#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic time in nanoseconds, from `clock_gettime(CLOCK_MONOTONIC)`.
///
/// Through the vDSO this costs about 20 ns, so it times single operations of a microsecond or
/// more, and batches of 64 operations of 50 ns or more, with under 1% of clock overhead.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  _ = unsafe clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// Whether this binary was built without optimisation (asserts run only in debug builds).
func isDebugBuild() -> Bool {
  var debug = false
  assert(
    {
      debug = true
      return true
    }())
  return debug
}

/// Folds every measured result into one value that the run prints at the end, so the optimiser
/// must keep each computation it would otherwise find unused.
final class Sink {
  /// The running fold of everything consumed.
  private(set) var value: UInt64 = 0

  /// Folds `result` in.
  @inline(never)
  func consume(_ result: Int) {
    value = (value ^ UInt64(bitPattern: Int64(result))) &* 0x100_0000_01B3
  }
}

/// Measurements of one quantity, with the summary statistics the tables print.
struct Samples {
  /// The values, in the order measured.
  private(set) var values: [Double] = []

  /// No values yet.
  init() {}

  /// Adds one value.
  mutating func append(_ value: Double) { values.append(value) }

  /// Adds many values.
  mutating func append(contentsOf more: [Double]) { values.append(contentsOf: more) }

  /// The arithmetic mean (0 when empty).
  var mean: Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

  /// The median.
  var median: Double { percentile(50) }

  /// The smallest value.
  var minimum: Double { values.min() ?? 0 }

  /// How many values exceed `limit`.
  func countAbove(_ limit: Double) -> Int { values.count { $0 > limit } }

  /// The `p`-th percentile (0 ... 100) by the nearest-rank method.
  func percentile(_ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }
}

/// How many untimed and timed runs a measurement takes.
struct Repetitions {
  /// Runs before timing starts: they fault in pages, fill caches and train branch predictors.
  var warmup: Int
  /// Timed runs.
  var samples: Int
  /// Seconds a measurement may take in all. A warm-up run slower than this is kept as the only
  /// sample, and timed runs stop once the budget is spent (after at least one).
  var budget: Double = 10
}

/// Runs `body` `repetitions.warmup` times untimed, then `repetitions.samples` times timed.
///
/// Warm-up runs are timed too, only to keep within the budget: when one of them alone exceeds
/// it, it becomes the single sample (the file and code are warm by then: an earlier step
/// touched them), so a pathologically slow operation still costs one run, not seven.
/// - Parameters:
///   - sink: receives each run's result, so the work cannot be optimised away.
///   - body: one run; returns a value derived from all of its work.
/// - Returns: the seconds each timed run took.
func measure(_ repetitions: Repetitions, sink: Sink, _ body: () throws -> Int) rethrows -> Samples {
  func timed() throws -> Double {
    let start = monotonicNanoseconds()
    let result = try body()
    let end = monotonicNanoseconds()
    sink.consume(result)
    return Double(end &- start) / 1e9
  }
  var samples = Samples()
  for _ in 0..<repetitions.warmup {
    let seconds = try timed()
    if seconds > repetitions.budget {
      samples.append(seconds)
      return samples
    }
  }
  var spent = 0.0
  while samples.values.count < repetitions.samples && (samples.values.isEmpty || spent < repetitions.budget) {
    let seconds = try timed()
    samples.append(seconds)
    spent += seconds
  }
  return samples
}
