import CallDirectory

/// The directories and the resolver that `resolve`'s options describe, for a command that serves
/// answers for as long as it runs.
enum ResolverStack {
  /// Opens every directory (each verified whole, and checked against the trust options) and
  /// builds the resolver over them, in the order given.
  ///
  /// The directories are checked for replacements only when `refresh()` is called on them: the
  /// caller decides when, so that no query waits on a `stat`.
  /// - Throws: `CommandFailure` naming the directory that cannot be opened or trusted, or a bad key.
  /// - Complexity: O(total size of the directories).
  static func open(
    _ options: Command.ResolveOptions, command: String
  ) throws(CommandFailure) -> (directories: [ReloadingDirectory], resolver: Resolver) {
    let keys = try Keys.trusted(options.trust)
    let trust = TrustPolicy(trustedKeys: keys.map(\.0), installedVersion: options.installedVersion)
    var directories: [ReloadingDirectory] = []
    for directory in options.directories {
      do {
        directories.append(try ReloadingDirectory(path: directory.path, checkInterval: nil, trust: trust))
      } catch {
        throw CommandFailure(opening: directory.path, error)
      }
    }
    let region = options.country.flatMap { NumberingPlan.shared.region(named: $0) }
    // The region's own emergency numbers join the set, unless the set is empty (`none`) on purpose.
    let emergency = region.map { options.emergency.codes.isEmpty ? options.emergency : options.emergency.adding(region: $0) }
    var resolver: Resolver
    let sources = zip(options.directories, directories).map { option, directory in
      Resolver.Source(name: option.path, role: option.allowList ? .allowList : .standard, provider: directory)
    }
    do {
      // By the region's own rules: a region sharing its calling code (CA, BB, JE) may read local
      // numbers its main region (US, GB) does not.
      if let region {
        resolver = try Resolver(
          sources: sources, emergencyNumbers: emergency ?? options.emergency, defaultRegion: region.name)
      } else {
        resolver = try Resolver(sources: sources, emergencyNumbers: options.emergency)
      }
    } catch {
      throw CommandFailure.usage("\(error)", command: command)
    }
    resolver.blocksWithheld = options.blockWithheld
    return (directories, resolver)
  }
}
