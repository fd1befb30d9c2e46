import CallDirectory
import Foundation
import Testing

@Suite struct FeedMemoryTests {
  /// The resident anonymous memory of this process, in KiB, from /proc (Linux only).
  private func residentAnonymousKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("RssAnon:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
  }

  /// Six million numbers in two ranges stream through the feed one by one: the sink sees every
  /// one, and memory does not grow by the 48 MB the numbers would take as an array. (Ten million
  /// take three seconds in a debug build; the benchmark feeds larger lists in release.)
  @Test func largeRangeIsExpandedWithoutMaterialising() throws {
    let count: Int64 = 3_000_000
    var builder = DirectoryBuilder()
    try builder.block(1_000...(1_000 + count - 1))
    try builder.block(Limits.maximumNumber)
    try builder.identify(5...(5 + count - 1), label: "Range")
    let feed = try DirectoryFeed(try CallDirectoryReader(bytes: try builder.encoded()), limit: .max)
    #expect(try feed.plan().additions == Int(2 * count + 1))
    /// The growth of resident memory over one feed of every number, in KiB, or `nil` where
    /// /proc cannot say.
    func feedGrowth() throws -> Int? {
      var sink = RuleCheckingSink(cap: .max)
      sink.recording = false
      let before = residentAnonymousKiB()
      try feed.feedWhole(into: &sink)
      let after = residentAnonymousKiB()
      #expect(sink.additions == Int(2 * count + 1))
      #expect(sink.violations == [])
      guard let before, let after else { return nil }
      print("RssAnon before \(before) KiB, after \(after) KiB")
      return after - before
    }
    let bound = 32 * 1_024
    var growth = try feedGrowth()
    // Other tests run in this process at the same time, and their memory counts too: a growth
    // past the bound is measured once more, beside other tests by then (a feed that holds the
    // numbers it hands out grows by 48 MB each time it runs).
    if let first = growth, first >= bound { growth = try feedGrowth() }
    // A sanitizer's allocator keeps freed memory in quarantine, so under one the resident size
    // grows with what the tests running beside this one free: the bound says nothing there.
    let environment = ProcessInfo.processInfo.environment
    let sanitized = environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
    if let growth, !sanitized {
      #expect(growth < bound)
    }
  }
}
