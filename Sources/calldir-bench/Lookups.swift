/// Lookup latency of one contender: the batch means and the overall mean.
///
/// Lookups are timed in batches (64 by default): the clock is read before and after each batch
/// and the difference divided by the batch size. A clock read costs about 20 ns, so timing single
/// 50 ns lookups would mostly measure the clock. The percentiles are therefore those of batch
/// means, which hide the spread inside a batch (a 64-lookup mean is never as slow as the slowest
/// lookup in it).
struct LookupTiming {
  /// Nanoseconds per lookup of each timed batch.
  var batchMeans = Samples()
  /// Nanoseconds over every timed lookup.
  var totalNanoseconds: UInt64 = 0
  /// Lookups timed.
  var lookups = 0

  /// Mean nanoseconds per lookup.
  var mean: Double { lookups == 0 ? .nan : Double(totalNanoseconds) / Double(lookups) }
}

/// A contender in a lookup comparison: a name and one timed pass over the queries.
struct LookupContender {
  /// The name in tables.
  let name: String
  /// One pass over the queries, adding to the timing (or to a scratch one during warm-up).
  let pass: (inout LookupTiming, Sink) -> Void

  /// A contender that looks up every element of `queries` with `peer`, in batches of `batch`.
  init<Peer: LookupPeer>(_ name: String, _ peer: Peer, queries: [Int64], batch: Int) {
    self.name = name
    pass = { timing, sink in timeLookups(peer, queries, batch: batch, into: &timing, sink: sink) }
  }

  /// Times the contenders in interleaved rounds (every contender's round 1, then every
  /// contender's round 2, ...) so that drift in the machine's state reaches all of them alike.
  static func compare(_ contenders: [LookupContender], _ repetitions: Repetitions, sink: Sink) -> [LookupTiming] {
    var scratch = LookupTiming()
    for _ in 0..<repetitions.warmup {
      for contender in contenders { contender.pass(&scratch, sink) }
    }
    var timings = [LookupTiming](repeating: LookupTiming(), count: contenders.count)
    for _ in 0..<repetitions.samples {
      for (index, contender) in contenders.enumerated() { contender.pass(&timings[index], sink) }
    }
    return timings
  }
}

/// Looks up every query with `peer` in batches of `batch`, timing each batch.
///
/// Generic so that each peer's `find` is specialised and inlined here: the loop costs the same
/// for every contender.
func timeLookups<Peer: LookupPeer>(
  _ peer: Peer, _ queries: [Int64], batch: Int, into timing: inout LookupTiming, sink: Sink
) {
  var checksum = 0
  var start = 0
  while start < queries.count {
    let end = min(start + batch, queries.count)
    let before = monotonicNanoseconds()
    for index in start..<end { checksum &+= peer.find(queries[index]) }
    let after = monotonicNanoseconds()
    let elapsed = after &- before
    timing.totalNanoseconds &+= elapsed
    timing.lookups += end - start
    timing.batchMeans.append(Double(elapsed) / Double(end - start))
    start = end
  }
  sink.consume(checksum)
}
