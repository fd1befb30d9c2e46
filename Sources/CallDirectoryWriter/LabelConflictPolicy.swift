/// What a writer does when one number is given two or more different labels to identify it
/// with (`Spec/INPUT.md`, section 3.5): the format holds one label a number.
///
/// Only single numbers conflict this way; ranges with different labels follow the nesting rules
/// (a number's own entry beats every range, and two ranges must be nested or apart).
///
///     var options = DirectoryBuilder.Options()
///     options.onLabelConflict = .keepLast  // a later line corrects an earlier one
///     var builder = DirectoryBuilder(options: options)
///     try builder.identify(12_025_550_123, label: "Acme")
///     try builder.identify(12_025_550_123, label: "Acme Support")
///     let file = try builder.encoded()  // +12025550123 is "Acme Support"
///     print(try CallDirectoryReader(bytes: file).label(for: 12_025_550_123) ?? "")
public enum LabelConflictPolicy: String, Sendable, Hashable, CaseIterable {
  /// The writer throws `WriterError.conflictingLabels`, naming the number and two of its labels.
  case refuse
  /// The label given first wins: the order of the calls that added the entries.
  case keepFirst
  /// The label given last wins.
  case keepLast
  /// The number is left out of the identification list altogether, and listed in
  /// `CanonicalStatistics.conflictingNumbers` so that its entries can be reported.
  case leaveOut

  /// Whether the policy needs the order in which entries were given, which writers that sort
  /// keep beside each entry.
  var needsInputOrder: Bool { self == .keepFirst || self == .keepLast }
}
