import CallDirectoryFeed

/// A sink that counts the calls it passes on: the loader learns whether a refused attempt sent
/// anything (only one that sent nothing may be followed by another) and what a load sent.
struct CountingSink<Base: CallDirectorySink>: CallDirectorySink {
  typealias Failure = Base.Failure

  var base: Base
  private(set) var additions = 0
  private(set) var removals = 0

  var isIncremental: Bool { base.isIncremental }
  var calls: Int { additions + removals }

  mutating func addBlockingEntry(_ number: Int64) throws(Failure) {
    additions += 1
    try base.addBlockingEntry(number)
  }

  mutating func addIdentificationEntry(_ number: Int64, label: String) throws(Failure) {
    additions += 1
    try base.addIdentificationEntry(number, label: label)
  }

  mutating func removeBlockingEntry(_ number: Int64) throws(Failure) {
    removals += 1
    try base.removeBlockingEntry(number)
  }

  mutating func removeIdentificationEntry(_ number: Int64) throws(Failure) {
    removals += 1
    try base.removeIdentificationEntry(number)
  }

  mutating func removeAllBlockingEntries() throws(Failure) {
    removals += 1
    try base.removeAllBlockingEntries()
  }

  mutating func removeAllIdentificationEntries() throws(Failure) {
    removals += 1
    try base.removeAllIdentificationEntries()
  }
}
