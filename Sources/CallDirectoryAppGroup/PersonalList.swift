import CallDirectoryFormat

/// The user's own entries: numbers they block, numbers they allow whatever the provider says, and
/// labels they give numbers. The extension feeds CallKit the provider's list merged with them
/// (`Spec/APPGROUP.md`, section 6): a personal allow beats a provider's block, a personal block
/// adds one, and a personal label beats the provider's.
///
/// The app edits it and saves it in the container; the next reload feeds the change, an
/// incremental load of the numbers that changed.
///
///     var personal = container.personalList()
///     try personal.block(12_025_550_100)
///     try personal.allow(33_612_345_678)  // a provider's false positive
///     try personal.setLabel("Dentist", for: 14_155_550_123)
///     try container.save(personal)
///
/// Memory and size: at most ``maximumEncodedSize`` bytes once encoded (about 4,000 numbers with
/// short labels), so that it stays a small record both processes read whole.
public struct PersonalList: Sendable, Hashable {
  /// The most bytes the list takes in its record.
  public static let maximumEncodedSize = 65_535

  /// The numbers the user blocks, ascending.
  public internal(set) var blocked: [Int64] = []
  /// The numbers the user allows, ascending: never blocked, whatever the provider's list says.
  public internal(set) var allowed: [Int64] = []
  /// The user's labels, by number.
  public internal(set) var labels: [Int64: String] = [:]

  /// An empty list.
  public init() {}

  /// Whether the list has no entry.
  public var isEmpty: Bool { blocked.isEmpty && allowed.isEmpty && labels.isEmpty }

  /// The labels in ascending order of number.
  public var labelled: [(number: Int64, label: String)] { labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

  /// Blocks `number` (and no longer allows it).
  /// - Throws: `PersonalListError` for a number outside `1 ... Int64.max - 1`, or a list that
  ///   would outgrow its record; the list is then unchanged.
  /// - Complexity: O(n).
  public mutating func block(_ number: Int64) throws(PersonalListError) {
    var edited = self
    Self.remove(number, from: &edited.allowed)
    Self.insert(number, into: &edited.blocked)
    self = try edited.checked(number)
  }

  /// Allows `number`: it is never blocked (and no longer blocked by the user).
  /// - Throws: as ``block(_:)``.
  /// - Complexity: O(n).
  public mutating func allow(_ number: Int64) throws(PersonalListError) {
    var edited = self
    Self.remove(number, from: &edited.blocked)
    Self.insert(number, into: &edited.allowed)
    self = try edited.checked(number)
  }

  /// Neither blocks nor allows `number` any more: the provider's list decides again.
  /// - Complexity: O(n).
  public mutating func unlist(_ number: Int64) {
    Self.remove(number, from: &blocked)
    Self.remove(number, from: &allowed)
  }

  /// Gives `number` the label `label`, or, with `nil`, takes the user's label away.
  /// - Throws: `PersonalListError` for an invalid number, a label that is not 1 ... 65,534 bytes
  ///   of UTF-8, or a list that would outgrow its record.
  /// - Complexity: O(n) for the size check.
  public mutating func setLabel(_ label: String?, for number: Int64) throws(PersonalListError) {
    var edited = self
    edited.labels[number] = label
    if let label, !Limits.isValidLabelLength(label.utf8.count) { throw .invalidLabel(number: number) }
    self = try edited.checked(number)
  }

  /// Whether the user blocks (`true`) or allows (`false`) `number`; `nil` when the provider decides.
  /// - Complexity: O(log n).
  public func blocks(_ number: Int64) -> Bool? {
    if Self.contains(number, in: blocked) { return true }
    if Self.contains(number, in: allowed) { return false }
    return nil
  }

  /// The additions the list makes in a whole feed: what a load leaves room for under the cap.
  var additions: Int { blocked.count + labels.count }

  /// Every number the list names, ascending, each once.
  var numbers: [Int64] { Array(Set(blocked).union(allowed).union(labels.keys)).sorted() }

  private func checked(_ number: Int64) throws(PersonalListError) -> PersonalList {
    guard Limits.isValidNumber(number) else { throw .invalidNumber(number) }
    let size = payload.count
    guard size <= Self.maximumEncodedSize else { throw .tooLarge(bytes: size) }
    return self
  }

  static func contains(_ number: Int64, in numbers: [Int64]) -> Bool {
    let index = position(of: number, in: numbers)
    return index < numbers.count && numbers[index] == number
  }

  /// The index of the first element not below `number`.
  static func position(of number: Int64, in numbers: [Int64]) -> Int {
    var low = 0
    var high = numbers.count
    while low < high {
      let middle = (low + high) / 2
      if numbers[middle] < number { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private static func insert(_ number: Int64, into numbers: inout [Int64]) {
    let index = position(of: number, in: numbers)
    if index == numbers.count || numbers[index] != number { numbers.insert(number, at: index) }
  }

  private static func remove(_ number: Int64, from numbers: inout [Int64]) {
    let index = position(of: number, in: numbers)
    if index < numbers.count && numbers[index] == number { numbers.remove(at: index) }
  }
}

/// Why an edit of a `PersonalList` was refused; the list is unchanged.
///
///     var personal = PersonalList()
///     do throws(PersonalListError) {
///       try personal.setLabel("", for: 12_025_550_100)
///     } catch {
///       print(error)  // the label of +12025550100 must be 1 to 65,534 bytes
///     }
public enum PersonalListError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The number is outside `1 ... Int64.max - 1`.
  case invalidNumber(Int64)
  /// The label is not 1 ... 65,534 bytes.
  case invalidLabel(number: Int64)
  /// The list would take more than `PersonalList.maximumEncodedSize` bytes.
  case tooLarge(bytes: Int)

  /// One line for the user.
  public var description: String {
    switch self {
    case .invalidNumber(let number): "\(number) is not a phone number CallKit takes"
    case .invalidLabel(let number): "the label of +\(number) must be 1 to 65,534 bytes"
    case .tooLarge(let bytes): "the list would take \(bytes) bytes, more than \(PersonalList.maximumEncodedSize)"
    }
  }
}
