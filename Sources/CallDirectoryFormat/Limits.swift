/// The value limits of the call directory format (`Spec/FORMAT.md`, section "Limits").
///
/// These are the rules of CallKit's `CXCallDirectoryPhoneNumber` and identification labels, which the
/// format adopts so that every directory it stores can be handed to CallKit unchanged.
///
///     guard Limits.isValidNumber(number), Limits.isValidLabelLength(label.utf8.count) else {
///       print("CallKit would refuse \(number)")
///       return
///     }
public enum Limits {
  /// The smallest phone number a directory may hold.
  public static let minimumNumber: Int64 = 1
  /// The largest phone number a directory may hold: `Int64.max - 1`.
  public static let maximumNumber: Int64 = .max - 1
  /// The shortest label, in UTF-8 bytes (CallKit drops empty labels).
  public static let minimumLabelBytes = 1
  /// The longest label, in UTF-8 bytes (CallKit drops longer labels).
  public static let maximumLabelBytes = 65_534
  /// The most entries, blocking and identification together, that CallKit accepts in one load.
  public static let callKitMaximumEntriesPerLoad = 2_000_000

  /// Whether `number` lies in the format's number domain, `1 ... Int64.max - 1`.
  @inlinable
  public static func isValidNumber(_ number: Int64) -> Bool {
    number >= minimumNumber && number <= maximumNumber
  }

  /// Whether a label of `byteCount` UTF-8 bytes has an allowed length.
  @inlinable
  public static func isValidLabelLength(_ byteCount: Int) -> Bool {
    byteCount >= minimumLabelBytes && byteCount <= maximumLabelBytes
  }
}
