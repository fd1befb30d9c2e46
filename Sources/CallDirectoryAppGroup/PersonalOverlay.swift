import CallDirectoryFeed
import CallDirectoryFormat

/// A sink that merges the user's own list into what a feed sends CallKit (`Spec/APPGROUP.md`,
/// section 6). Feeding a whole directory, it adds the user's blocks and labels in ascending order
/// among the directory's, and drops the directory's entries the user overrides: a number the user
/// allows, blocks already or labels. Feeding a changeset, it only drops: CallKit already holds the
/// user's entries, and a change to a number the user overrides changes nothing CallKit holds.
struct PersonalOverlay<Base: CallDirectorySink>: CallDirectorySink {
  typealias Failure = Base.Failure

  var base: Base
  let personal: PersonalList
  /// Whether the user's entries are added (a whole directory) or only their numbers skipped.
  let injects: Bool
  private let labelled: [(number: Int64, label: String)]
  /// The next of the user's blocks and labels to add.
  private var nextBlocked = 0
  private var nextLabelled = 0

  /// An overlay over `base`; when the feed resumes at `cursor`, the user's entries below it were
  /// sent by an earlier load.
  init(_ base: Base, personal: PersonalList, injecting: Bool, from cursor: FeedCursor?) {
    self.base = base
    self.personal = personal
    injects = injecting
    labelled = personal.labelled
    if let cursor {
      switch cursor.kind {
      case .blocking: nextBlocked = PersonalList.position(of: cursor.next, in: personal.blocked)
      case .identification:
        nextBlocked = personal.blocked.count
        nextLabelled = labelled.firstIndex { $0.number >= cursor.next } ?? labelled.count
      }
    }
  }

  var isIncremental: Bool { base.isIncremental }

  mutating func addBlockingEntry(_ number: Int64) throws(Failure) {
    let mine = personal.blocks(number)
    if injects {
      try addBlocked(below: number)
      if mine == true { nextBlocked += 1 }  // the user's block of it goes out as this one
    } else if mine == true {
      return  // CallKit holds it already
    }
    guard mine != false else { return }  // the user allows it
    try base.addBlockingEntry(number)
  }

  mutating func addIdentificationEntry(_ number: Int64, label: String) throws(Failure) {
    if injects {
      try addBlocked(below: .max)
      try addLabelled(below: number)
      if nextLabelled < labelled.count && labelled[nextLabelled].number == number {
        try base.addIdentificationEntry(number, label: labelled[nextLabelled].label)
        nextLabelled += 1
        return
      }
    } else if personal.labels[number] != nil {
      return
    }
    try base.addIdentificationEntry(number, label: label)
  }

  mutating func removeBlockingEntry(_ number: Int64) throws(Failure) {
    // A number the user blocks stays blocked; one the user allows was never held.
    guard personal.blocks(number) == nil else { return }
    try base.removeBlockingEntry(number)
  }

  mutating func removeIdentificationEntry(_ number: Int64) throws(Failure) {
    guard personal.labels[number] == nil else { return }
    try base.removeIdentificationEntry(number)
  }

  mutating func removeAllBlockingEntries() throws(Failure) { try base.removeAllBlockingEntries() }

  mutating func removeAllIdentificationEntries() throws(Failure) { try base.removeAllIdentificationEntries() }

  /// Adds the user's entries below where the feed stopped, `cursor` (`nil`: it sent everything),
  /// which the next load, resuming there, takes as sent. They fit: the feed left room for every
  /// entry of the user's list in each load.
  mutating func finish(at cursor: FeedCursor?) throws(Failure) {
    guard injects else { return }
    switch cursor?.kind {
    case .blocking: try addBlocked(below: cursor?.next ?? .max)
    case .identification:
      try addBlocked(below: .max)
      try addLabelled(below: cursor?.next ?? .max)
    case nil:
      try addBlocked(below: .max)
      try addLabelled(below: .max)
    }
  }

  private mutating func addBlocked(below number: Int64) throws(Failure) {
    while nextBlocked < personal.blocked.count && personal.blocked[nextBlocked] < number {
      try base.addBlockingEntry(personal.blocked[nextBlocked])
      nextBlocked += 1
    }
  }

  private mutating func addLabelled(below number: Int64) throws(Failure) {
    while nextLabelled < labelled.count && labelled[nextLabelled].number < number {
      try base.addIdentificationEntry(labelled[nextLabelled].number, label: labelled[nextLabelled].label)
      nextLabelled += 1
    }
  }
}
