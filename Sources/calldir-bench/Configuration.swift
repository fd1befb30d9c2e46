/// What a run measures and how often, from the command line.
///
///     calldir-bench                 full sizes, about two and a half minutes on two cores
///     calldir-bench --quick         a tenth of the sizes and fewer samples: a smoke run
///     calldir-bench --only nanp     one dataset (by name, or by the part before the dash)
struct Configuration {
  /// Smaller datasets and fewer samples.
  var quick = false
  /// The one dataset to run, or `nil` for all.
  var only: String?
  /// The seed every dataset and query list is derived from.
  var seed: UInt64 = 20_250_101
  /// Whether to leave the generated files (directories, listings, compressed listings) in place.
  var keep = false

  /// The usage text.
  static let usage = """
    usage: calldir-bench [--quick] [--only NAME] [--seed N] [--keep]
      --quick      a tenth of the dataset sizes and fewer samples (a smoke run)
      --only NAME  run one part: nanp, callerid, spam, ranges, resolver, changes or feed (or a full name, e.g. nanp-1M)
      --seed N     the seed of every dataset and query list (default 20250101)
      --keep       keep the generated files and print where they are
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
  var lookupBatch: Int { 64 }
  /// `label(for:)` calls timed together: fewer, as each costs microseconds.
  var labelBatch: Int { 16 }
  /// Passes over the lookup queries.
  var lookupRepetitions: Repetitions { Repetitions(warmup: 1, samples: quick ? 2 : 5) }
  /// Runs of pack (add everything, then encode).
  var packRepetitions: Repetitions { Repetitions(warmup: 1, samples: quick ? 2 : 3) }
  /// Passes of streaming.
  var streamRepetitions: Repetitions { Repetitions(warmup: 1, samples: quick ? 2 : 5, budget: 3) }
  /// Opens of a file for the open-time figures.
  var opens: Int { quick ? 200 : 2_000 }

  /// Whether the dataset `name` is selected.
  func selects(_ name: String) -> Bool {
    guard let only else { return true }
    return name == only || name.split(separator: "-").first.map(String.init) == only
  }
}
