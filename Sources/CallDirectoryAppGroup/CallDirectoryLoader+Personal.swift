import CallDirectoryFeed
import CallDirectoryFormat
import CallDirectoryLookup

extension CallDirectoryLoader {
  /// An incremental load for a change of the user's own list alone, CallKit holding `directory`
  /// merged with `old`: for each number either list names, what it answered before and after,
  /// and the removals and additions between (`Spec/APPGROUP.md`, section 6), in one load; `nil`,
  /// before anything is sent or recorded, when the additions are more than a load takes (the
  /// caller replaces everything instead, which splits): unallowing many numbers the directory
  /// blocks adds them all back at once.
  /// - Complexity: O(k log n) for the k numbers the two lists name.
  func sendPersonalChanges<S: CallDirectorySink>(
    _ directory: DirectoryFeed, from old: PersonalList, to new: PersonalList, into sink: inout CountingSink<S>
  ) -> LoadOutcome? {
    let reader = directory.directory
    var blockingRemovals: [Int64] = []
    var blockingAdditions: [Int64] = []
    var labelRemovals: [Int64] = []
    var labelAdditions: [(Int64, String)] = []
    for number in Array(Set(old.numbers).union(new.numbers)).sorted() {
      let listed: Bool
      let label: String?
      do throws(FormatError) {
        listed = try reader.isBlocked(number)
        label = try reader.label(for: number)
      } catch {
        return .complete(LoadReport(action: .nothing, note: "\(error): CallKit's entries are kept"))
      }
      let (before, after) = (old.blocks(number) ?? listed, new.blocks(number) ?? listed)
      if before && !after { blockingRemovals.append(number) }
      if after && !before { blockingAdditions.append(number) }
      let (was, will) = (old.labels[number] ?? label, new.labels[number] ?? label)
      guard was != will else { continue }
      if was != nil { labelRemovals.append(number) }
      if let will { labelAdditions.append((number, will)) }
    }
    guard blockingAdditions.count + labelAdditions.count <= limit else { return nil }
    do { try container.recordFed(new) } catch {
      return .complete(LoadReport(action: .nothing, note: "the state cannot be recorded (\(error)): CallKit's entries are kept"))
    }
    do throws(S.Failure) {
      for number in blockingRemovals { try sink.removeBlockingEntry(number) }
      for number in labelRemovals { try sink.removeIdentificationEntry(number) }
      for number in blockingAdditions { try sink.addBlockingEntry(number) }
      for (number, label) in labelAdditions { try sink.addIdentificationEntry(number, label: label) }
    } catch {
      return .complete(
        LoadReport(
          action: .personal, additions: sink.additions, removals: sink.removals, moreLoadsNeeded: true,
          note: "the load stopped: \(error)"))
    }
    try? container.record(.directory(fingerprint: new.merged(with: directory.fingerprint)))
    return .complete(LoadReport(action: .personal, additions: sink.additions, removals: sink.removals))
  }
}
