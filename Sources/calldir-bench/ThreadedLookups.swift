import Dispatch
import Synchronization

/// Lookups a second of one peer shared by several threads: each thread looks up every query,
/// starting at its own offset so that the threads do not walk the same numbers in step.
enum ThreadedLookups {
  /// Million lookups a second of `peer` on `threads` threads, the median of `rounds` timed runs
  /// after one warm-up.
  static func rate<Peer: LookupPeer & Sendable>(
    _ peer: Peer, _ queries: [Int64], threads: Int, rounds: Int = 5, sink: Sink
  ) -> Double {
    var rates = Samples()
    for round in 0...rounds {
      let checksum = Atomic<Int>(0)
      let start = monotonicNanoseconds()
      DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var sum = 0
        var index = thread * queries.count / threads
        for _ in 0..<queries.count {
          sum &+= peer.find(queries[index])
          index &+= 1
          if index == queries.count { index = 0 }
        }
        checksum.add(sum, ordering: .relaxed)
      }
      let elapsed = Double(monotonicNanoseconds() &- start)
      sink.consume(checksum.load(ordering: .relaxed))
      if round > 0 { rates.append(Double(queries.count * threads) / elapsed * 1_000) }
    }
    return rates.median
  }
}
