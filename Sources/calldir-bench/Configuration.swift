/// What a run measures and how often, from the command line.
///
///     calldir-bench                 full sizes, every dataset but nanp-10M (minutes on two cores)
///     calldir-bench --large         and nanp-10M, about two minutes more
///     calldir-bench --quick         a tenth of the sizes and fewer samples: a smoke run
///     calldir-bench --only nanp     one dataset (by name, or by the part before the dash)
///     calldir-bench --only scaling  the scaling table, n = 10^4 ... 10^8 (minutes, about 3 GB)
struct Configuration {
  /// Smaller datasets and fewer samples.
  var quick = false
  /// The one dataset to run, or `nil` for all.
  var only: String?
  /// The seed every dataset and query list is derived from.
  var seed: UInt64 = 20_250_101
  /// Whether to leave the generated files (directories, listings, compressed listings) in place.
  var keep = false
  /// Whether to add the 10-million-entry dataset (about two more minutes).
  var large = false
  /// Whether to run the scaling table after everything else.
  var scaling = false
  /// The largest n of the scaling table.
  var scalingMaximum: Int?
  /// Set in the child process that measures a pack's peak memory: its shape, input and output.
  var packChild: [String]?
  /// Set in the child process that callgrind counts instructions in: peer, directory, numbers, queries.
  var instructionsChild: [String]?

  /// The usage text.
  static let usage = """
    usage: calldir-bench [--quick] [--only NAME] [--seed N] [--keep] [--large] [--scaling] [--scaling-max N]
      --quick          a tenth of the dataset sizes and fewer samples (a smoke run)
      --only NAME      run one part: nanp, world, callerid, spam, ranges, resolver, changes, feed or scaling
                       (or a full name, e.g. nanp-10M)
      --seed N         the seed of every dataset and query list (default 20250101)
      --keep           keep the generated files and print where they are
      --large          add nanp-10M (10 million numbers; about two minutes more)
      --scaling        also run the scaling table (n = 10^4 ... 10^8: minutes, about 3 GB of memory)
      --scaling-max N  the largest n of the scaling table (default 100000000; 1000000 with --quick)
    Build and run with: swift run -c release calldir-bench
    """

  /// A usage error: what was wrong with the arguments.
  struct UsageError: Error {
    /// The message printed above the usage text.
    let message: String
  }

  /// Parses the arguments after the program name. `--help` gives `nil`.
  /// - Throws: `UsageError` for an unknown option or a missing or malformed value.
  static func parse(_ arguments: [String]) throws(UsageError) -> Configuration? {
    var configuration = Configuration()
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      let (option, inline) = split(argument)
      func value() throws(UsageError) -> String {
        if let inline { return inline }
        guard let next = rest.popFirst() else { throw UsageError(message: "\(option) needs a value") }
        return next
      }
      switch option {
      case "--quick": configuration.quick = true
      case "--keep": configuration.keep = true
      case "--only": configuration.only = try value()
      case "--large": configuration.large = true
      case "--scaling": configuration.scaling = true
      case "--scaling-max":
        let text = try value()
        guard let maximum = Int(text), maximum >= 10_000 else {
          throw UsageError(message: "--scaling-max needs a number of at least 10000, not \(text)")
        }
        configuration.scalingMaximum = maximum
      case "--pack-child":
        var child: [String] = []
        for _ in 0..<3 { child.append(try value()) }
        configuration.packChild = child
      case "--instructions-child":
        var child: [String] = []
        for _ in 0..<4 { child.append(try value()) }
        configuration.instructionsChild = child
      case "--seed":
        let text = try value()
        guard let seed = UInt64(text) else { throw UsageError(message: "--seed needs a number, not \(text)") }
        configuration.seed = seed
      case "--help", "-h": return nil
      default: throw UsageError(message: "unknown argument \(argument)")
      }
    }
    return configuration
  }

  /// `--x=v` as ("--x", "v"); anything else as (argument, nil).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// The divisor of every dataset size.
  var scale: Int { quick ? 10 : 1 }
  /// Random queries per lookup pass (hits, and misses likewise).
  var lookupQueries: Int { quick ? 1 << 14 : 1 << 17 }
  /// Random queries per `label(for:)` pass.
  var labelQueries: Int { quick ? 1 << 10 : 1 << 13 }
  /// Lookups timed together (see `LookupTiming`).
  var lookupBatch: Int { 16 }
  /// `label(for:)` calls timed together: fewer, as each costs microseconds.
  var labelBatch: Int { 16 }
  /// Passes over the lookup queries.
  var lookupRepetitions: Repetitions { Repetitions(warmup: 1, samples: quick ? 2 : 5) }
  /// Runs of pack (add everything, then encode): fewer for lists of millions, where one run
  /// takes seconds and the first is as warm as the rest.
  func packRepetitions(entries: Int) -> Repetitions {
    entries >= 5_000_000 ? Repetitions(warmup: 0, samples: 2) : Repetitions(warmup: 1, samples: quick ? 2 : 3)
  }
  /// Cold probes per lookup kind (each evicts the file and reads it again).
  var coldProbes: Int { quick ? 8 : 32 }
  /// Listings of more entries than this are not given to `xz -9`, which needs minutes for them.
  var xzLimit: Int { 2_000_000 }
  /// Passes of streaming.
  var streamRepetitions: Repetitions { Repetitions(warmup: 1, samples: quick ? 2 : 5, budget: 3) }
  /// Opens of a file for the open-time figures.
  var opens: Int { quick ? 200 : 2_000 }

  /// Whether the dataset `name` is selected.
  func selects(_ name: String) -> Bool {
    if name == "scaling" { return scaling || only == "scaling" }
    guard let only else { return true }
    return name == only || name.split(separator: "-").first.map(String.init) == only
  }
}
