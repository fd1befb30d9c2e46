import CallDirectorySystem

/// A progress line on standard error for long work: entries done, the rate and, when the total is
/// known, the time left. Shown only when standard error is a terminal and `--quiet` is not given,
/// redrawn at most five times a second, and cleared when the work ends, so that piped runs and
/// scripts see nothing of it.
final class ProgressLine {
  private let console: Console
  private let label: String
  private let total: Int?
  private let enabled: Bool
  private let start = MonotonicClock.nanoseconds()
  private var done = 0
  private var nextCheck = 0
  /// The first line waits a fifth of a second too: a rate over the first entry means nothing,
  /// and work shorter than that draws no line at all.
  private lazy var lastDraw: UInt64 = start
  private var drawn = false

  init(console: Console, label: String, total: Int? = nil, quiet: Bool) {
    self.console = console
    self.label = label
    self.total = total
    enabled = console.errorIsTerminal && !quiet
  }

  /// Counts `count` more entries done; redraws when a fifth of a second has passed. The count
  /// saturates: a range can count for 9 x 10^18 entries, and two such overflow an `Int`.
  func advance(by count: Int = 1) {
    done = Self.saturatingSum(done, count)
    // Reading the clock costs more than counting: look at it every few thousand entries only.
    guard enabled, done >= nextCheck else { return }
    nextCheck = Self.saturatingSum(done, 8192)
    let now = MonotonicClock.nanoseconds()
    guard now - lastDraw >= 200_000_000 else { return }
    lastDraw = now
    drawn = true
    console.writeError("\r\u{1B}[K" + Self.text(label: label, done: done, total: total, seconds: Double(now - start) / 1e9))
  }

  static func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }

  /// Clears the line, if one was drawn.
  func finish() {
    if drawn { console.writeError("\r\u{1B}[K") }
  }

  /// `label: 1,234,567 entries, 2.1 M/s, 3 s left`.
  static func text(label: String, done: Int, total: Int?, seconds: Double) -> String {
    let rate = seconds > 0 ? Double(done) / seconds : 0
    var text = "\(label): \(grouped(done))"
    if let total { text += " of \(grouped(total))" }
    text += " entries, " + (rate >= 1e6 ? "\(Int(rate / 1e5) / 10).\(Int(rate / 1e5) % 10) M/s" : "\(Int(rate / 1e3)) k/s")
    if let total, rate > 0, total > done { text += ", \(Int((Double(total - done) / rate).rounded(.up))) s left" }
    return text
  }

  /// `value` with two decimals, for summaries.
  static func twoDecimals(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
  }

  /// `in 1.25 s`: the time since `start`, for final summaries.
  static func seconds(since start: UInt64) -> String {
    let hundredths = (MonotonicClock.nanoseconds() - start) / 10_000_000
    return "in \(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
  }

  private static func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
