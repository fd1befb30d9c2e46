import CallDirectoryResolver
import Synchronization

/// The service's counters, shown at `/metrics` in Prometheus's text format: answers by reason,
/// callers that had no answer, requests by endpoint and status, reloads and reload failures by
/// directory, and a histogram of request latency.
///
/// Every figure is updated under one lock, once a request (a batch counts its answers first), so
/// the lock is held for a few additions.
///
///     let metrics = ServiceMetrics(directories: ["spam.calldir"])
///     metrics.recordAnswers([.blocked: 1])
///     print(metrics.render())
package final class ServiceMetrics: Sendable {
  /// The histogram's upper bounds, in seconds: 25 µs to 1 s.
  package static let latencyBounds: [Double] = [
    0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.1, 1,
  ]

  /// The names of the directories, in stack order.
  package let directories: [String]
  private let state: Mutex<State>

  private struct State {
    var answers: [Resolution.Reason: Int] = [:]
    var unanswered: [String: Int] = [:]
    var requests: [String: Int] = [:]
    var reloads: [Int]
    var reloadFailures: [Int]
    /// Per bucket (the last is +Inf), not cumulative: summed when rendered.
    var latency: [Int]
    var latencyNanoseconds: UInt64 = 0
    var latencyCount = 0
  }

  /// Counters at zero for a stack of `directories`.
  package init(directories: [String]) {
    self.directories = directories
    state = Mutex(
      State(
        reloads: Array(repeating: 0, count: directories.count), reloadFailures: Array(repeating: 0, count: directories.count),
        latency: Array(repeating: 0, count: Self.latencyBounds.count + 1)))
  }

  /// Adds answers, counted by reason. O(reasons).
  package func recordAnswers(_ counts: [Resolution.Reason: Int]) {
    state.withLock { state in
      for (reason, count) in counts { state.answers[reason, default: 0] += count }
    }
  }

  /// Adds callers that had no answer, counted by cause (`invalid_number`, `damaged_directory`).
  package func recordUnanswered(_ counts: [String: Int]) {
    state.withLock { state in
      for (cause, count) in counts { state.unanswered[cause, default: 0] += count }
    }
  }

  /// Counts one request to `endpoint` answered with `status`, which took `nanoseconds`.
  package func recordRequest(endpoint: String, status: Int, nanoseconds: UInt64) {
    let seconds = Double(nanoseconds) / 1e9
    let bucket = Self.latencyBounds.firstIndex { seconds <= $0 } ?? Self.latencyBounds.count
    state.withLock { state in
      state.requests["\(endpoint) \(status)", default: 0] += 1
      state.latency[bucket] += 1
      state.latencyNanoseconds &+= nanoseconds  // wraps after 584 years of requests
      state.latencyCount += 1
    }
  }

  /// Counts a reload (`failed: false`) or a refused replacement of directory `index`.
  package func recordReload(directory index: Int, failed: Bool) {
    state.withLock { state in
      guard state.reloads.indices.contains(index) else { return }
      if failed { state.reloadFailures[index] += 1 } else { state.reloads[index] += 1 }
    }
  }

  /// The answers given so far for `reason`.
  package func answers(_ reason: Resolution.Reason) -> Int { state.withLock { $0.answers[reason] ?? 0 } }

  /// Every figure in Prometheus's text exposition format (version 0.0.4).
  /// - Complexity: O(directories + endpoints + buckets).
  package func render() -> String {
    let state = state.withLock { $0 }
    var text = ""
    func family(_ name: String, _ type: String, _ help: String) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
    family("calldir_answers_total", "counter", "Callers answered, by action and the reason for it.")
    for reason in Resolution.Reason.allCases {
      text += "calldir_answers_total{action=\"\(reason.action.rawValue)\",reason=\"\(reason.rawValue)\"} "
      text += "\(state.answers[reason] ?? 0)\n"
    }
    family("calldir_unanswered_total", "counter", "Callers with no answer: not a number, or a damaged directory.")
    for cause in ["invalid_number", "damaged_directory"] {
      text += "calldir_unanswered_total{cause=\"\(cause)\"} \(state.unanswered[cause] ?? 0)\n"
    }
    family("calldir_http_requests_total", "counter", "HTTP requests, by endpoint and status code.")
    for key in state.requests.keys.sorted() {
      let parts = key.split(separator: " ")
      text += "calldir_http_requests_total{endpoint=\"\(Self.escaped(parts[0]))\",code=\"\(parts[1])\"} "
      text += "\(state.requests[key] ?? 0)\n"
    }
    family("calldir_reloads_total", "counter", "Replaced directory files verified and now served.")
    for (index, name) in directories.enumerated() {
      text += "calldir_reloads_total{directory=\"\(Self.escaped(name))\"} \(state.reloads[index])\n"
    }
    family("calldir_reload_failures_total", "counter", "Replacements refused; the previous version kept answering.")
    for (index, name) in directories.enumerated() {
      text += "calldir_reload_failures_total{directory=\"\(Self.escaped(name))\"} \(state.reloadFailures[index])\n"
    }
    family("calldir_http_request_duration_seconds", "histogram", "Time from a request's first line to its answer.")
    var cumulative = 0
    for (index, bound) in Self.latencyBounds.enumerated() {
      cumulative += state.latency[index]
      text += "calldir_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
    }
    cumulative += state.latency[Self.latencyBounds.count]
    text += "calldir_http_request_duration_seconds_bucket{le=\"+Inf\"} \(cumulative)\n"
    text += "calldir_http_request_duration_seconds_sum \(Double(state.latencyNanoseconds) / 1e9)\n"
    text += "calldir_http_request_duration_seconds_count \(state.latencyCount)\n"
    return text
  }

  /// A label value with `\`, `"` and line feeds escaped, as the format asks.
  private static func escaped(_ value: some StringProtocol) -> String {
    var text = ""
    for character in value {
      switch character {
      case "\\": text += "\\\\"
      case "\"": text += "\\\""
      case "\n": text += "\\n"
      default: text.append(character)
      }
    }
    return text
  }
}
