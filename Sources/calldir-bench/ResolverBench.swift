import CallDirectory
import Foundation
import Synchronization

/// Resolver answers per second over a three-directory stack, as a PBX would hold it: a user's
/// allow list of 1,000 numbers, a provider's spam list of 1M numbers (blocked and labelled) and a
/// business caller-ID list of 300k, with the calls a mix of spam, known businesses, contacts and
/// unknown numbers.
enum ResolverBench {
  /// The stack's files and the queries, generated from the seed.
  struct Setup {
    let resolver: Resolver
    let reloading: Resolver
    let readers: [CallDirectoryReader]
    let queries: [Int64]
    let callers: [String]
    let description: String
  }

  static func run(configuration: Configuration, scratch: String, sink: Sink) throws -> Table {
    let setup = try makeSetup(configuration: configuration, scratch: scratch)
    var table = Table(title: "resolver: \(setup.description)")
    table.section("answers", ["threads", "M answers/s", "ns/answer", "min ns/answer"])
    let repetitions = configuration.lookupRepetitions
    let count = Double(setup.queries.count)

    func row(_ name: String, threads: Int, _ samples: Samples) {
      let total = count * Double(threads)
      table.row([
        name, String(threads), Format.millions(total / samples.median), Format.nanoseconds(samples.median * 1e9 / count),
        Format.nanoseconds(samples.minimum * 1e9 / count),
      ])
    }
    let byHand = try measure(repetitions, sink: sink) { try lookupsByHand(setup.readers, setup.queries) }
    row("the same lookups by hand (isBlocked + labelId in each)", threads: 1, byHand)
    for (name, resolver) in [
      ("resolve(_:), fixed readers", setup.resolver), ("resolve(_:), ReloadingDirectory (1 s checks)", setup.reloading),
    ] {
      row(name, threads: 1, try measure(repetitions, sink: sink) { try resolveAll(resolver, setup.queries, from: 0) })
      row(name, threads: 2, try measure(repetitions, sink: sink) { try resolveInParallel(resolver, setup.queries, threads: 2) })
    }
    let strings = try measure(repetitions, sink: sink) {
      var checksum = 0
      for caller in setup.callers { checksum &+= try fold(setup.reloading.resolve(caller: caller)) }
      return checksum
    }
    row("resolve(caller:) of \"+1...\" strings, ReloadingDirectory", threads: 1, strings)
    table.note(
      "\(Format.grouped(setup.queries.count)) queries a pass, \(runs(repetitions)); rate = answers / median pass time"
        + " (2 threads: each answers every query, in a different order)")
    table.note("ns/answer is per thread: what one call costs when that many threads resolve at once")
    return table
  }

  private static func runs(_ repetitions: Repetitions) -> String {
    "\(repetitions.warmup) warm-up + \(repetitions.samples) timed passes"
  }

  static func makeSetup(configuration: Configuration, scratch: String) throws -> Setup {
    let seed = configuration.seed
    let scale = configuration.scale
    let spam = Datasets.spam(count: 1_000_000 / scale, labelCount: 1_000, name: "resolver-spam", seed: seed)
    let business = Datasets.callerID(
      count: 300_000 / scale, labelCount: 45_000 / scale, name: "resolver-callerid", seed: seed)
    var random = SeededGenerator.derived(from: seed, "resolver")

    // The user's allow list: false positives rescued from the spam list and businesses they know,
    // half saved with a name (identification) and half as bare numbers (blocking entries).
    let allowCount = 1_000
    let fromSpam = (0..<(allowCount * 6 / 10)).map { spam.numbers[$0 * (spam.count / (allowCount * 6 / 10))] }
    let fromBusiness = (0..<(allowCount * 4 / 10)).map { business.numbers[$0 * (business.count / (allowCount * 4 / 10))] }
    var allowBuilder = DirectoryBuilder()
    for (index, number) in (fromSpam + fromBusiness).enumerated() {
      if index % 2 == 0 { try allowBuilder.identify(number, label: "Contact \(index)") } else { try allowBuilder.block(number) }
    }
    var spamBuilder = DirectoryBuilder()
    for (number, label) in zip(spam.numbers, spam.labelIndices) {
      try spamBuilder.block(number)
      try spamBuilder.identify(number, label: spam.labels[Int(label)])
    }
    var businessBuilder = DirectoryBuilder()
    for (number, label) in zip(business.numbers, business.labelIndices) {
      try businessBuilder.identify(number, label: business.labels[Int(label)])
    }
    let paths = ["allow", "spam", "business"].map { scratch + "/resolver-\($0).calldir" }
    for (builder, path) in zip([allowBuilder, spamBuilder, businessBuilder], paths) { try builder.write(to: path) }

    let readers = try paths.map { try CallDirectoryReader(path: $0) }
    let reloading = try paths.map { try ReloadingDirectory(path: $0) }
    let roles: [Resolver.Role] = [.allowList, .standard, .standard]
    func stack(_ providers: [any DirectoryProvider]) throws -> Resolver {
      try Resolver(
        sources: zip(zip(["contacts", "spam", "business"], roles), providers).map {
          Resolver.Source(name: $0.0.0, role: $0.0.1, provider: $0.1)
        })
    }

    // Calls: 40% spam, 30% known businesses, 25% unknown, 5% contacts.
    let allowed = fromSpam + fromBusiness
    let queries = (0..<configuration.lookupQueries).map { _ -> Int64 in
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<40: return spam.numbers.randomElement(using: &random) ?? 0
      case 40..<70: return business.numbers.randomElement(using: &random) ?? 0
      case 70..<95: return spam.misses.randomElement(using: &random) ?? 0
      default: return allowed.randomElement(using: &random) ?? 0
      }
    }
    let resolver = try stack(readers)
    var reasons: [Resolution.Reason: Int] = [:]
    for number in queries { reasons[try resolver.resolve(number).reason, default: 0] += 1 }
    let mix = Resolution.Reason.allCases.compactMap { reason in
      reasons[reason].map { "\(reason.rawValue) \(Format.fixed(100 * Double($0) / Double(queries.count), 0))%" }
    }.joined(separator: ", ")
    let sizes = [readers[0].blockingCount + readers[0].identificationCount, spam.count, business.count].map(Format.grouped)
    return Setup(
      resolver: resolver, reloading: try stack(reloading), readers: readers, queries: queries,
      callers: queries.map(formatInternational),
      description: "allow list (\(sizes[0]) numbers), spam list (\(sizes[1]) numbers, each blocked and labelled), "
        + "business caller ID (\(sizes[2]) numbers); answers: \(mix)")
  }

  /// A value that depends on the whole answer.
  @inline(__always)
  static func fold(_ resolution: Resolution) -> Int {
    var value = resolution.reason.rawValue.utf8.count &+ (resolution.directory?.index ?? 7)
    if let label = resolution.label { value &+= label.utf8.count }
    return value
  }

  static func resolveAll(_ resolver: Resolver, _ queries: [Int64], from start: Int) throws -> Int {
    var checksum = 0
    var index = start
    for _ in 0..<queries.count {
      checksum &+= fold(try resolver.resolve(queries[index]))
      index += 1
      if index == queries.count { index = 0 }
    }
    return checksum
  }

  static func resolveInParallel(_ resolver: Resolver, _ queries: [Int64], threads: Int) throws -> Int {
    let results = Mutex<(checksum: Int, failure: FormatError?)>((0, nil))
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      do {
        let checksum = try resolveAll(resolver, queries, from: thread * queries.count / threads)
        results.withLock { $0.checksum &+= checksum }
      } catch let error as FormatError {
        results.withLock { $0.failure = error }
      } catch {}
    }
    let (checksum, failure) = results.withLock { ($0.checksum, $0.failure) }
    if let failure { throw failure }
    return checksum
  }

  /// What the resolver's decisions cost without it: both lookups in each directory, no precedence.
  static func lookupsByHand(_ readers: [CallDirectoryReader], _ queries: [Int64]) throws -> Int {
    var checksum = 0
    for number in queries {
      for reader in readers {
        if try reader.isBlocked(number) { checksum &+= 1 }
        if let id = try reader.labelId(for: number) { checksum &+= Int(id) }
      }
    }
    return checksum
  }
}
