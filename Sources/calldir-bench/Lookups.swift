/// Lookup latency of one contender: batch means, single-lookup times and the overall mean.
///
/// Lookups are timed two ways. In batches (16 by default), the clock is read before and after
/// each batch and the difference divided by the batch size: a clock read costs about 20 ns, which
/// a 16-lookup batch spreads to about 1.3 ns a lookup, but the percentiles of batch means hide the
/// spread inside a batch (a mean of 16 is never as slow as the slowest lookup in it). Singly, each
/// lookup between its own two clock reads: the tail is seen as it is, with one clock read
/// (`clockOverhead`, reported with the tables) added to every value.
struct LookupTiming {
  /// Nanoseconds per lookup of each timed batch.
  var batchMeans = Samples()
  /// Nanoseconds of each lookup timed alone, the clock's own cost included.
  var singles = Samples()
  /// Nanoseconds per lookup of each timed batch of chained lookups (`timeChainedLookups`): a
  /// lookup's latency, where `batchMeans` lets the processor overlap one lookup with the next.
  var chainedMeans = Samples()
  /// Nanoseconds over every lookup timed in batches.
  var totalNanoseconds: UInt64 = 0
  /// Lookups timed in batches.
  var lookups = 0

  /// Mean nanoseconds per lookup (of the batched passes).
  var mean: Double { lookups == 0 ? .nan : Double(totalNanoseconds) / Double(lookups) }
}

/// The median cost of reading the clock, in nanoseconds: two reads back to back, many times.
func clockOverhead() -> Double {
  var samples = Samples()
  for _ in 0..<100_000 {
    let before = monotonicNanoseconds()
    let after = monotonicNanoseconds()
    samples.append(Double(after &- before))
  }
  return samples.median
}

/// A contender in a lookup comparison: a name and one timed pass over the queries.
struct LookupContender {
  /// The name in tables.
  let name: String
  /// One pass over the queries, adding to the timing (or to a scratch one during warm-up).
  let pass: (inout LookupTiming, Sink) -> Void

  /// A contender that looks up every element of `queries` with `peer`, in batches of `batch`,
  /// and again chained (`timeChainedLookups`) when `chained` is set.
  init<Peer: LookupPeer>(_ name: String, _ peer: Peer, queries: [Int64], batch: Int, chained: Bool = false) {
    self.name = name
    // Half of the queries again, one at a time: enough for a p99 of tens of thousands of values.
    let singles = Array(queries.prefix(max(1, queries.count / 2)))
    pass = { timing, sink in
      timeLookups(peer, queries, batch: batch, into: &timing, sink: sink)
      timeSingleLookups(peer, singles, into: &timing, sink: sink)
      if chained { timeChainedLookups(peer, queries, batch: batch, into: &timing, sink: sink) }
    }
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

/// Looks up the queries in timed batches as `timeLookups` does, each lookup's query chosen by the
/// answer before it: query `i`, or its neighbour `i ^ 1` after an absent number. The processor
/// cannot start a lookup's loads before the previous lookup has answered, so a batch's mean is a
/// lookup's latency, as a service answering one call at a time sees it; in `timeLookups` it
/// overlaps lookups, and a search without data-dependent branches gains the most from that.
/// Both queries of a pair are of the same kind (hits, or misses), so the choice changes no count.
func timeChainedLookups<Peer: LookupPeer>(
  _ peer: Peer, _ queries: [Int64], batch: Int, into timing: inout LookupTiming, sink: Sink
) {
  var checksum = 0
  var answer = 0
  var start = 0
  let count = queries.count & ~1  // even, so that `i ^ 1` stays inside
  while start < count {
    let end = min(start + batch, count)
    let before = monotonicNanoseconds()
    for index in start..<end {
      answer = peer.find(queries[index ^ Int(bitPattern: UInt(bitPattern: answer) >> (Int.bitWidth - 1))])
      checksum &+= answer
    }
    let after = monotonicNanoseconds()
    timing.chainedMeans.append(Double(after &- before) / Double(end - start))
    start = end
  }
  sink.consume(checksum)
}

/// Looks up every query with `peer`, each between its own two clock reads.
func timeSingleLookups<Peer: LookupPeer>(_ peer: Peer, _ queries: [Int64], into timing: inout LookupTiming, sink: Sink) {
  var checksum = 0
  for query in queries {
    let before = monotonicNanoseconds()
    checksum &+= peer.find(query)
    let after = monotonicNanoseconds()
    timing.singles.append(Double(after &- before))
  }
  sink.consume(checksum)
}
